/* ring.h - one perf_event mmap ring: map it, see what the kernel wrote, release it. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RING_H
#define RING_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include "util/tb_err.h"

struct ring {
	int fd;
	unsigned char *base;     /* control page, then the data pages */
	size_t map_size;
	size_t data_size;        /* a power of two */
	uint64_t tail;           /* what we have consumed */
};

/* Counts from walking the records of a span (tools/lib/perf/mmap.c style). */
struct ring_counts {
	uint64_t samples;
	uint64_t lost_records;
	uint64_t lost_events;
	size_t time_off;         /* where a sample holds its time (0: not tracked) */
	uint64_t first_time, last_time;   /* of the samples seen */
};

/*
 * Usage: ring_map(); loop { n = ring_peek(r, iov, &head, &c); write iov;
 * ring_consume(r, head); }; ring_unmap(). The span [tail, head) the kernel
 * published always holds whole records; it may wrap, hence two iovecs.
 */
int ring_map(struct ring *r, int fd, size_t data_pages, struct tb_err *err);
void ring_unmap(struct ring *r);
/** ring_peek - the published whole records, at most @limit bytes, as 1 or 2
 * iovecs (returns their count, 0 if none), counted into @c */
int ring_peek(struct ring *r, struct iovec iov[2], uint64_t *head, size_t limit,
	      struct ring_counts *c);
void ring_consume(struct ring *r, uint64_t head);

#endif
