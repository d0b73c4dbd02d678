/* test_fields.c - trace-report's default fields and -F
 * (applets/report/report_fields.c) against perf 6.1's builtin-script.c:
 * the output[] table of defaults, typed here in perf's own field names and
 * turned into bits by rf_parse("TYPE:names"), and -F's +/- rules. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "unit.h"
#include "report/report_fields.h"

/* the fields "TYPE:NAMES" selects, through -F's parser */
static uint64_t named(int type, const char *arg)
{
	struct rf_config c;

	rf_init(&c);
	if (rf_parse(&c, arg))
		return ~0ULL;
	return c.t[type].fields;
}

#define BASE "comm,tid,cpu,time,event"
#define IPSYM "ip,sym,symoff,dso"

static void test_defaults(void)
{
	/* builtin-script.c 6.1, output[]: .fields of each type */
	static const struct { int type; const char *spec; } perf[] = {
		{ RF_T_HW, "hw:" BASE "," IPSYM ",period" },
		{ RF_T_SW, "sw:" BASE "," IPSYM ",period,bpf-output" },
		{ RF_T_TRACE, "trace:" BASE ",trace" },
		{ RF_T_RAW, "raw:" BASE "," IPSYM ",period,addr,data_src,weight,phys_addr,"
			    "data_page_size,code_page_size,ins_lat" },
		{ RF_T_BREAK, "break:" BASE "," IPSYM ",period" },
		{ RF_T_SYNTH, "synth:" BASE "," IPSYM ",synth" },
	};
	struct rf_config c;

	rf_init(&c);
	for (size_t i = 0; i < sizeof(perf) / sizeof(perf[0]); i++)
		T_EQ(c.t[perf[i].type].fields, named(perf[i].type, perf[i].spec),
		     "defaults of %.*s", (int)strcspn(perf[i].spec, ":"), perf[i].spec);
	T_EQ(c.t[RF_T_HW_CACHE].fields, c.t[RF_T_HW].fields, "hardware-cache: as hardware");
	T_EQ(c.t[RF_T_OTHER].fields, c.t[RF_T_HW].fields, "other types: as hardware");
	for (int t = 0; t < RF_NR_TYPES; t++)
		T(!c.t[t].user_set && !c.t[t].wildcard_set, "type %d: not set by the user", t);
	T_EQ(c.t[RF_T_HW].invalid, RF_TRACE | RF_BPF_OUTPUT, "hardware: trace, bpf-output invalid");
	T_EQ(c.t[RF_T_SW].invalid, RF_TRACE, "software: trace invalid");
	T_EQ(c.t[RF_T_TRACE].invalid, 0, "tracepoints: nothing invalid");

	T_EQ(rf_type_of(0), RF_T_HW, "attr type 0: hardware");
	T_EQ(rf_type_of(2), RF_T_TRACE, "attr type 2: tracepoint");
	T_EQ(rf_type_of(5), RF_T_BREAK, "attr type 5: breakpoint");
	T_EQ(rf_type_of(6), RF_T_OTHER, "attr type 6 (a PMU's): other");
	T_EQ(rf_type_of(0x80000000u), RF_T_SYNTH, "PERF_TYPE_SYNTH");
}

static void test_minus_plus(void)
{
	struct rf_config c, d;

	rf_init(&c);
	rf_init(&d);
	T(rf_parse(&c, "-period,+addr") == 0, "-F -period,+addr");
	T_EQ(c.t[RF_T_HW].fields, (d.t[RF_T_HW].fields & ~RF_PERIOD) | RF_ADDR,
	     "hardware: the defaults without period, with addr");
	T_EQ(c.t[RF_T_TRACE].fields, d.t[RF_T_TRACE].fields | RF_ADDR,
	     "tracepoints: period was not there, addr added");
	T(c.t[RF_T_HW].user_set && c.t[RF_T_HW].wildcard_set, "a +/- list sets every type");

	rf_init(&c);
	T(rf_parse(&c, "trace:+ip") == 0, "-F trace:+ip");
	T_EQ(c.t[RF_T_TRACE].fields, d.t[RF_T_TRACE].fields | RF_IP, "keeps the defaults, adds ip");
	T_EQ(c.t[RF_T_HW].fields, d.t[RF_T_HW].fields, "other types untouched");

	rf_init(&c);
	T(rf_parse(&c, "comm,tid") == 0, "-F comm,tid");
	T_EQ(c.t[RF_T_SW].fields, RF_COMM | RF_TID, "a plain list replaces the defaults");
	T_EQ(c.t[RF_T_HW].fields, RF_COMM | RF_TID, "of every type");

	rf_init(&c);
	T(rf_parse(&c, "comm,+tid") != 0, "mixing a list with +field is refused");
	rf_init(&c);
	T(rf_parse(&c, "nosuchfield") != 0, "an unknown field is refused");
	rf_init(&c);
	T(rf_parse(&c, "hw:trace") != 0, "trace for hardware events is refused");
	rf_init(&c);
	T(rf_parse(&c, "") != 0, "no fields for every type is refused");
	rf_init(&c);
	T(rf_parse(&c, "nosuchtype:comm") != 0, "an unknown type is refused");
}

int main(void)
{
	test_defaults();
	test_minus_plus();
	return done();
}
