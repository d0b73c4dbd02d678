/* fuzz_sample.c - libFuzzer target: the sample decoder. Input: u64
 * sample_type, u8 body_min, then one record (header included). The u64's
 * bits past perf's sample_type (25..63) give the rest of the attr: bits
 * 32-36 read_format, 37 branch HW_INDEX, 40-47 regs_user, 48-55 regs_intr.
 * Checks that pd_sample_decode and pd_trailer_parse only point inside the
 * record, and that pd_sample_parse agrees with pd_sample_decode. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"

/* @p with @len bytes lies inside rec[0..n) (NULL: nothing to check) */
static void inside(const unsigned char *p, uint64_t len, const unsigned char *rec, size_t n)
{
	if (p && (p < rec || p > rec + n || len > (uint64_t)(rec + n - p)))
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_sample s;
	struct pd_sample_attr a;
	struct tb_err err;
	uint64_t st;
	size_t body_min, n;
	unsigned char *rec;
	volatile uint64_t sink = 0;

	if (size < 9)
		return 0;
	st = pd_u64(data) & PD_S_KNOWN;
	a.sample_type = st;
	a.read_format = (pd_u64(data) >> 32) & 0x1f;
	a.branch_sample_type = (pd_u64(data) >> 37) & 1 ? PD_BRANCH_HW_INDEX : 0;
	a.regs_user = (pd_u64(data) >> 40) & 0xff;
	a.regs_intr = (pd_u64(data) >> 48) & 0xff;
	body_min = data[8];
	n = size - 9;
	rec = malloc(n ? n : 1);        /* exact size: ASan sees any overrun */
	memcpy(rec, data + 9, n);
	if (n >= PD_EVENT_HEADER && pd_sample_decode(&a, rec, n, 0, &s, &err) == 0) {
		inside(s.callchain, s.nr_callchain * 8, rec, n);
		if (s.nr_callchain > n)
			abort();
		inside(s.raw, s.raw_size, rec, n);
		inside(s.read_values, s.read_nr * s.read_value_size, rec, n);
		if (s.read_values && s.read_nr > n)
			abort();
		inside(s.branches, s.nr_branches * 24, rec, n);
		if (s.nr_branches > n)
			abort();
		inside(s.user_regs, 8 * (uint64_t)__builtin_popcountll(s.user_regs_mask), rec, n);
		inside(s.intr_regs, 8 * (uint64_t)__builtin_popcountll(s.intr_regs_mask), rec, n);
		inside(s.user_stack, s.user_stack_size, rec, n);
		if (s.user_stack_dyn_size > s.user_stack_size)
			abort();
		inside(s.aux, s.aux_size, rec, n);
		for (uint64_t i = 0; i < s.nr_callchain; i++)
			sink += pd_u64(s.callchain + i * 8);
		for (uint32_t i = 0; i < s.raw_size; i++)
			sink += s.raw[i];
		for (uint64_t i = 0; i < s.nr_branches * 24; i++)
			sink += s.branches[i];
		for (uint64_t i = 0; i < s.aux_size; i++)
			sink += s.aux[i];
	}
	/* sample_type alone: the same answer as with the attr's other fields 0 */
	if (n >= PD_EVENT_HEADER) {
		struct pd_sample_attr z = { .sample_type = st };
		int r1 = pd_sample_parse(st, rec, n, &s);
		int r2 = pd_sample_decode(&z, rec, n, 0, &s, &err);

		if ((r1 == 0) != (r2 == 0))
			abort();
	}
	if (pd_trailer_parse(st, rec, n, body_min, &s) == 0 &&
	    (n < body_min || n - body_min < pd_trailer_size(st)))
		abort();
	sink += (uint64_t)(pd_id_pos(st) + pd_is_pos(st));
	(void)sink;
	free(rec);
	return 0;
}
