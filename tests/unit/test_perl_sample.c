/* test_perl_sample.c - the third argument of a Perl script's process_event:
 * perf 6.1's in-memory struct perf_sample as trace-event-perl.c packs it,
 * made by engines/ec_sample.c's ec_perf_sample (pure C, no perl.h). What
 * evsel__parse_sample leaves when the sample_type lacks a field: time, id
 * and stream_id all ones, and the period from the attr's sample_period
 * (perf record -c N, or --no-period, records no PERIOD): the samples here
 * are decoded from records by pd_sample_decode, which fills that period. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "unit.h"
#include "perfdata/pd_format.h"
#include "ec_sample.h"

static uint64_t at64(const unsigned char *o, size_t off)
{
	uint64_t v;

	memcpy(&v, o + off, 8);
	return v;
}

static uint32_t at32(const unsigned char *o, size_t off)
{
	uint32_t v;

	memcpy(&v, o + off, 4);
	return v;
}

/* a cpu-clock attr with sample_period @period and sample_type @type */
static void make_evsel(struct pd_evsel *e, uint64_t period, uint64_t type)
{
	memset(e, 0, sizeof(*e));
	put_u32(e->raw, 0, 1);             /* type: PERF_TYPE_SOFTWARE */
	put_u32(e->raw, 4, 128);           /* size */
	put_u64(e->raw, 8, 0);             /* config: cpu-clock */
	put_u64(e->raw, 16, period);       /* sample_period */
	put_u64(e->raw, 24, type);         /* sample_type */
	e->raw_size = 128;
	e->type = 1;
	e->sample_type = type;
}

/* decode @rec (@size bytes) with @e's attr into @s */
static void decode(const struct pd_evsel *e, const unsigned char *rec, size_t size,
		   struct pd_sample *s)
{
	struct pd_sample_attr a;
	struct tb_err err = { 0 };

	pd_sample_attr_of(&a, e->raw);
	T_EQ(pd_sample_decode(&a, rec, size, 0, s, &err), 0, "the record decodes");
}

static void test_no_period(void)
{
	static unsigned char out[EC_PERF_SAMPLE_SIZE];
	/* SAMPLE, misc USER, size 32: ip, pid/tid, time */
	const unsigned char rec[32] = { U32(9), U16(2), U16(32), U64(0x401000), U32(7), U32(8),
					U64(123456789) };
	struct pd_evsel e;
	struct pd_sample s;
	struct pd_event ev = { .evsel = &e, .sample = &s, .rec = rec, .rec_size = sizeof(rec) };

	make_evsel(&e, 10000, PD_S_IP | PD_S_TID | PD_S_TIME);
	decode(&e, rec, sizeof(rec), &s);
	ec_perf_sample(&ev, out);
	T_EQ(at64(out, 0), 0x401000, "ip at 0");
	T_EQ(at32(out, 8), 7, "pid at 8");
	T_EQ(at32(out, 12), 8, "tid at 12");
	T_EQ(at64(out, 16), 123456789, "time at 16");
	T_EQ(at64(out, 32), UINT64_MAX, "no ID: id all ones");
	T_EQ(at64(out, 40), UINT64_MAX, "no STREAM_ID: stream_id all ones");
	T_EQ(at64(out, 48), 10000, "no PERIOD: the attr's sample_period (perf record -c 10000)");
	T_EQ(at32(out, 88), UINT32_MAX, "no CPU: cpu -1");
	T_EQ(at32(out, 144), UINT32_MAX, "vcpu -1");
	T_EQ(out[150], 2, "cpumode: the record's misc & 7");

	make_evsel(&e, 1, PD_S_IP | PD_S_TID);
	decode(&e, rec, 24, &s);
	ec_perf_sample(&ev, out);
	T_EQ(at64(out, 48), 1, "no PERIOD, a tracepoint's sample_period 1 (--no-period)");
	T_EQ(at64(out, 16), UINT64_MAX, "no TIME: time all ones");
}

static void test_period(void)
{
	static unsigned char out[EC_PERF_SAMPLE_SIZE];
	struct pd_evsel e;
	struct pd_sample s;
	struct pd_event ev = { .evsel = &e, .sample = &s };

	make_evsel(&e, 4000, PD_S_IP | PD_S_TID | PD_S_TIME | PD_S_ID | PD_S_CPU | PD_S_PERIOD);
	pd_sample_init(&s);
	s.period = 250000;
	s.id = 42;
	s.cpu = 3;
	ec_perf_sample(&ev, out);
	T_EQ(at64(out, 48), 250000, "PERIOD: the sample's own period, not the attr's");
	T_EQ(at64(out, 32), 42, "ID: the sample's id");
	T_EQ(at32(out, 88), 3, "CPU: the sample's cpu");
	T_EQ(out[150], 0, "no record: cpumode 0");
}

int main(void)
{
	test_no_period();
	test_period();
	return done();
}
