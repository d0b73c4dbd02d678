/* pd_sample.h - decoding PERF_RECORD_SAMPLE bodies and sample_id trailers. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_SAMPLE_H
#define PD_SAMPLE_H

#include <stddef.h>
#include <stdint.h>

/* One decoded sample. Fields whose sample_type bit is clear keep the
 * defaults pd_sample_init() gives: -1 for pid/tid/cpu, 0 elsewhere. */
struct pd_sample {
	uint64_t id, ip, time, addr, stream_id, period;
	int32_t pid, tid, cpu;
	uint64_t nr_callchain;
	const unsigned char *callchain;  /* nr_callchain u64s, unaligned */
	uint32_t raw_size;
	const unsigned char *raw;        /* raw_size bytes, or NULL */
};

void pd_sample_init(struct pd_sample *s);

/**
 * pd_sample_parse - decode a SAMPLE record's body
 * @sample_type: the attr's sample_type (only PD_S_KNOWN bits)
 * @rec: the whole record, header included
 * @size: header.size, already checked to be the bytes available
 * Returns 0, or the byte offset (>= 8) inside the record where a field
 * ran past the end, negated.
 */
int pd_sample_parse(uint64_t sample_type, const unsigned char *rec, size_t size,
		    struct pd_sample *s);

/**
 * pd_trailer_parse - decode the sample_id trailer of a non-sample record
 * @body_min: the size of the record's fixed body, header included; the
 *            trailer must fit between it and @size
 * Returns 0, or -1 when the trailer does not fit.
 */
int pd_trailer_parse(uint64_t sample_type, const unsigned char *rec, size_t size,
		     size_t body_min, struct pd_sample *s);

/** pd_trailer_size - bytes the sample_id trailer takes for @sample_type */
size_t pd_trailer_size(uint64_t sample_type);

/** pd_id_pos - index of the id u64 in a sample body, or -1 (no id bits) */
int pd_id_pos(uint64_t sample_type);
/** pd_is_pos - index of the id u64 counted back from a record's end, or -1 */
int pd_is_pos(uint64_t sample_type);

#endif
