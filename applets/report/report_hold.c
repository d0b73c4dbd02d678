/* report_hold.c - printed bytes held back while the kernel's symbols are
 * read, in chunks, and the kernel stack frames still to print among them
 * (report_hold.h; report_print.c holds and lets go). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "report/report_hold.h"
#include "util/hugemem.h"

#define RP_HOLD_CHUNK HUGEMEM_PAGE

struct rp_hold *rp_hold_new(uint64_t f, size_t spare)
{
	struct rp_hold *h = calloc(1, sizeof(*h));

	if (!h || !(h->spare = malloc(spare))) {
		free(h);
		return NULL;
	}
	h->f = f;
	return h;
}

void rp_hold_free(struct rp_hold *h)
{
	if (!h)
		return;
	for (size_t i = 0; i < h->nr_chunks; i++)
		free(h->chunks[i]);
	free(h->chunks);
	free(h->holes);
	free(h->spare);
	free(h);
}

/* chunks for @total bytes in all */
static int chunks_for(struct rp_hold *h, uint64_t total)
{
	size_t need = (size_t)((total + RP_HOLD_CHUNK - 1) / RP_HOLD_CHUNK);
	char **nc;

	if (need <= h->nr_chunks)
		return 0;
	if (!(nc = realloc(h->chunks, need * sizeof(*nc))))
		return -1;
	h->chunks = nc;
	while (h->nr_chunks < need) {
		char *c = huge_alloc(RP_HOLD_CHUNK);

		if (!c)
			return -1;
		h->chunks[h->nr_chunks++] = c;
	}
	return 0;
}

int rp_hold_put(struct rp_hold *h, const char *s, size_t n)
{
	if (h->failed || chunks_for(h, h->bytes + n)) {
		h->failed = 1;
		return -1;
	}
	while (n) {
		size_t off = (size_t)(h->bytes % RP_HOLD_CHUNK), k = RP_HOLD_CHUNK - off;

		if (k > n)
			k = n;
		memcpy(h->chunks[h->bytes / RP_HOLD_CHUNK] + off, s, k);
		h->bytes += k;
		s += k;
		n -= k;
	}
	return 0;
}

int rp_hold_reserve(struct rp_hold *h, size_t bytes, size_t holes)
{
	if (h->nr_holes + holes > h->cap_holes) {
		size_t cap = (h->nr_holes + holes) * 2;
		struct rp_hole *nh = realloc(h->holes, cap * sizeof(*nh));

		if (!nh)
			return -1;
		h->holes = nh;
		h->cap_holes = cap;
	}
	return chunks_for(h, h->bytes + bytes);
}

int rp_hold_hole(struct rp_hold *h, uint64_t pos, uint64_t ip, int32_t pid)
{
	if (h->nr_holes == h->cap_holes || pos < h->last || pos - h->last > UINT32_MAX)
		return -1;
	h->holes[h->nr_holes++] = (struct rp_hole){ .ip = ip, .gap = (uint32_t)(pos - h->last),
						    .pid = pid };
	h->last = pos;
	return 0;
}

const char *rp_hold_piece(const struct rp_hold *h, uint64_t from, uint64_t to, size_t *n)
{
	size_t off = (size_t)(from % RP_HOLD_CHUNK);

	*n = to - from < RP_HOLD_CHUNK - off ? (size_t)(to - from) : RP_HOLD_CHUNK - off;
	return h->chunks[from / RP_HOLD_CHUNK] + off;
}
