/* fuzz_sample.c - libFuzzer target: the sample decoder. Input: u64
 * sample_type, u8 body_min, then one record (header included). Checks that
 * pd_sample_parse and pd_trailer_parse only point inside the record. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "pd_format.h"
#include "pd_sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_sample s;
	uint64_t st;
	size_t body_min, n;
	unsigned char *rec;
	volatile uint64_t sink = 0;

	if (size < 9)
		return 0;
	st = pd_u64(data) & PD_S_KNOWN;
	body_min = data[8];
	n = size - 9;
	rec = malloc(n ? n : 1);        /* exact size: ASan sees any overrun */
	memcpy(rec, data + 9, n);
	if (n >= PD_EVENT_HEADER && pd_sample_parse(st, rec, n, &s) == 0) {
		if (s.callchain && (s.callchain < rec ||
				    s.nr_callchain > (size_t)(rec + n - s.callchain) / 8))
			abort();
		if (s.raw && (s.raw < rec || s.raw_size > (size_t)(rec + n - s.raw)))
			abort();
		for (uint64_t i = 0; i < s.nr_callchain; i++)
			sink += pd_u64(s.callchain + i * 8);
		for (uint32_t i = 0; i < s.raw_size; i++)
			sink += s.raw[i];
	}
	if (pd_trailer_parse(st, rec, n, body_min, &s) == 0 &&
	    (n < body_min || n - body_min < pd_trailer_size(st)))
		abort();
	sink += (uint64_t)(pd_id_pos(st) + pd_is_pos(st));
	(void)sink;
	free(rec);
	return 0;
}
