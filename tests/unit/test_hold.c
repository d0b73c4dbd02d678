/* test_hold.c - the held output (applets/report/report_hold.h): bytes put
 * in pieces of every size come back the same across its 2 MiB chunks, the
 * holes' places add up, and the room a sample is promised is there. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "report/report_hold.h"
#include "unit.h"

#define TOTAL (5u << 20)     /* three chunks, the last one partly */

int main(void)
{
	struct rp_hold *h = rp_hold_new(0x123, 4096);
	static char want[TOTAL], got[TOTAL];
	uint64_t at = 0;
	size_t step = 1, n;
	int same_places = 1, puts_ok = 1;

	T(h && h->spare && h->f == 0x123 && !h->bytes, "a new hold: empty, its fields, a spare buffer");
	for (size_t i = 0; i < TOTAL; i++)
		want[i] = (char)(i * 131 + (i >> 12));
	T(!rp_hold_reserve(h, 1u << 20, 1000), "room for 1 MiB and 1,000 holes");
	/* pieces of 1, 2, 3, ... bytes (a piece across a chunk's end among
	 * them), a hole after each of the first thousand */
	while (at < TOTAL) {
		size_t k = TOTAL - at < step ? TOTAL - at : step;

		puts_ok &= !rp_hold_put(h, want + at, k);
		at += k;
		if (step <= 1000)
			rp_hold_hole(h, at, 0xffffffff81000000ull + step, (int32_t)step);
		step = step * 3 / 2 + 1;
	}
	T(puts_ok && h->bytes == TOTAL && !h->failed, "5 MiB held in pieces of 1 to 1.5 MiB (%" PRIu64 ")",
	  h->bytes);
	for (uint64_t from = 0; from < TOTAL; from += n) {
		const char *s = rp_hold_piece(h, from, TOTAL, &n);

		memcpy(got + from, s, n);
	}
	T(!memcmp(want, got, TOTAL), "the held bytes come back as they were put");
	T(rp_hold_piece(h, (2u << 20) - 10, 5u << 20, &n) && n == 10, "a piece ends at its chunk's end");
	T(rp_hold_piece(h, 100, 150, &n) && n == 50, "a piece ends where asked");
	step = 1;
	at = 0;
	for (size_t i = 0; i < h->nr_holes; i++) {
		at += h->holes[i].gap;
		same_places &= h->holes[i].pid == (int32_t)step && h->holes[i].ip == 0xffffffff81000000ull + step;
		step = step * 3 / 2 + 1;
	}
	T(h->nr_holes > 10 && same_places && at == h->last,
	  "%zu holes, in order, their gaps adding up to the last one's place", h->nr_holes);
	T(rp_hold_hole(h, h->last - 1, 1, 1) == -1, "a hole before the last one is refused");
	T(rp_hold_hole(h, h->last + (1ull << 32), 1, 1) == -1, "a gap past 4 GiB is refused");
	while (h->nr_holes < h->cap_holes)
		rp_hold_hole(h, h->last, 1, 1);
	T(rp_hold_hole(h, h->last, 1, 1) == -1, "no hole without the room reserved for it");
	T(!rp_hold_reserve(h, 0, 1) && !rp_hold_hole(h, h->last, 2, 2), "one more once reserved");
	rp_hold_free(h);
	rp_hold_free(NULL);
	return done();
}
