/* pd_sample.c - decoding PERF_RECORD_SAMPLE bodies and sample_id trailers.
 * Field order: perf_event_open(2) and perf-data-format.md section 4. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "pd_format.h"
#include "pd_sample.h"

void pd_sample_init(struct pd_sample *s)
{
	memset(s, 0, sizeof(*s));
	s->pid = s->tid = s->cpu = -1;
}

int pd_sample_parse(uint64_t st, const unsigned char *rec, size_t size,
		    struct pd_sample *s)
{
	size_t o = PD_EVENT_HEADER;

#define NEED(n) do { if (size < o || size - o < (size_t)(n)) return -(int)o; } while (0)
	pd_sample_init(s);
	if (st & PD_S_IDENTIFIER) { NEED(8); s->id = pd_u64(rec + o); o += 8; }
	if (st & PD_S_IP)         { NEED(8); s->ip = pd_u64(rec + o); o += 8; }
	if (st & PD_S_TID) {
		NEED(8);
		s->pid = (int32_t)pd_u32(rec + o);
		s->tid = (int32_t)pd_u32(rec + o + 4);
		o += 8;
	}
	if (st & PD_S_TIME)       { NEED(8); s->time = pd_u64(rec + o); o += 8; }
	if (st & PD_S_ADDR)       { NEED(8); s->addr = pd_u64(rec + o); o += 8; }
	if (st & PD_S_ID)         { NEED(8); s->id = pd_u64(rec + o); o += 8; }
	if (st & PD_S_STREAM_ID)  { NEED(8); s->stream_id = pd_u64(rec + o); o += 8; }
	if (st & PD_S_CPU)        { NEED(8); s->cpu = (int32_t)pd_u32(rec + o); o += 8; }
	if (st & PD_S_PERIOD)     { NEED(8); s->period = pd_u64(rec + o); o += 8; }
	if (st & PD_S_CALLCHAIN) {
		NEED(8);
		s->nr_callchain = pd_u64(rec + o);
		o += 8;
		if (s->nr_callchain > (size - o) / 8)
			return -(int)o;
		s->callchain = rec + o;
		o += (size_t)s->nr_callchain * 8;
	}
	if (st & PD_S_RAW) {
		NEED(4);
		s->raw_size = pd_u32(rec + o);
		o += 4;
		NEED(s->raw_size);
		s->raw = rec + o;
		o += s->raw_size;
	}
#undef NEED
	return 0;
}

size_t pd_trailer_size(uint64_t st)
{
	size_t n = 0;

	n += (st & PD_S_TID) ? 8 : 0;
	n += (st & PD_S_TIME) ? 8 : 0;
	n += (st & PD_S_ID) ? 8 : 0;
	n += (st & PD_S_STREAM_ID) ? 8 : 0;
	n += (st & PD_S_CPU) ? 8 : 0;
	n += (st & PD_S_IDENTIFIER) ? 8 : 0;
	return n;
}

int pd_trailer_parse(uint64_t st, const unsigned char *rec, size_t size,
		     size_t body_min, struct pd_sample *s)
{
	size_t need = pd_trailer_size(st);
	size_t o;

	pd_sample_init(s);
	if (size < body_min || size - body_min < need)
		return -1;
	o = size - need;
	if (st & PD_S_TID) {
		s->pid = (int32_t)pd_u32(rec + o);
		s->tid = (int32_t)pd_u32(rec + o + 4);
		o += 8;
	}
	if (st & PD_S_TIME)       { s->time = pd_u64(rec + o); o += 8; }
	if (st & PD_S_ID)         { s->id = pd_u64(rec + o); o += 8; }
	if (st & PD_S_STREAM_ID)  { s->stream_id = pd_u64(rec + o); o += 8; }
	if (st & PD_S_CPU)        { s->cpu = (int32_t)pd_u32(rec + o); o += 8; }
	if (st & PD_S_IDENTIFIER) { s->id = pd_u64(rec + o); o += 8; }
	return 0;
}

int pd_id_pos(uint64_t st)
{
	int idx = 0;

	if (st & PD_S_IDENTIFIER)
		return 0;
	if (!(st & PD_S_ID))
		return -1;
	idx += (st & PD_S_IP) ? 1 : 0;
	idx += (st & PD_S_TID) ? 1 : 0;
	idx += (st & PD_S_TIME) ? 1 : 0;
	idx += (st & PD_S_ADDR) ? 1 : 0;
	return idx;
}

int pd_is_pos(uint64_t st)
{
	int idx = 1;

	if (st & PD_S_IDENTIFIER)
		return 1;
	if (!(st & PD_S_ID))
		return -1;
	idx += (st & PD_S_CPU) ? 1 : 0;
	idx += (st & PD_S_STREAM_ID) ? 1 : 0;
	return idx;
}
