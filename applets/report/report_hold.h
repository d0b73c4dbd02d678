/* report_hold.h - printed bytes held back while the kernel's symbols are
 * read, with the kernel stack frames still to print among them (report_hold.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_HOLD_H
#define REPORT_HOLD_H

#include <stddef.h>
#include <stdint.h>

/* a kernel frame to print @gap bytes after the previous one (or the start) */
struct rp_hole {
	uint64_t ip;
	uint32_t gap;
	int32_t pid;
};

struct rp_hold {
	char **chunks;           /* RP_HOLD_CHUNK bytes each */
	size_t nr_chunks;
	uint64_t bytes;          /* held */
	struct rp_hole *holes;
	size_t nr_holes, cap_holes;
	uint64_t last;           /* the latest hole's byte */
	uint64_t f;              /* the fields of every hole's frame */
	int failed;              /* bytes were lost: no memory */
	char *spare;             /* a printer's buffer to let go through */
};

/** rp_hold_new - an empty hold for frames of fields @f, with a spare
 * buffer of @spare bytes, or NULL (no memory) */
struct rp_hold *rp_hold_new(uint64_t f, size_t spare);
void rp_hold_free(struct rp_hold *h);
/** rp_hold_put - keep @n bytes after those held; -1 (h->failed set) without memory */
int rp_hold_put(struct rp_hold *h, const char *s, size_t n);
/** rp_hold_reserve - memory now for @bytes more bytes and @holes more holes: 0, or -1 */
int rp_hold_reserve(struct rp_hold *h, size_t bytes, size_t holes);
/** rp_hold_hole - a kernel frame at byte @pos (none before the latest
 * hole's), in room rp_hold_reserve made: 0, or -1 */
int rp_hold_hole(struct rp_hold *h, uint64_t pos, uint64_t ip, int32_t pid);
/** rp_hold_piece - the held bytes from @from on, up to @to, as many as lie together (*@n) */
const char *rp_hold_piece(const struct rp_hold *h, uint64_t from, uint64_t to, size_t *n);

#endif
