/* ring.c - read a perf_event mmap ring (perf_event_open(2), "MMAP layout"):
 * acquire data_head, walk the records between tail and head, release
 * data_tail. Each record header is checked against the span before use. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include "perfdata/pd_format.h"
#include "record/ring.h"

int ring_map(struct ring *r, int fd, size_t data_pages, struct tb_err *err)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	memset(r, 0, sizeof(*r));
	if (data_pages == 0 || (data_pages & (data_pages - 1)))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "ring size %zu pages is not a power of two", data_pages);
	r->fd = fd;
	r->data_size = data_pages * page;
	r->map_size = r->data_size + page;
	r->base = mmap(NULL, r->map_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
				  "cannot map a %zu KiB ring buffer: %s (try a smaller -m)",
				  r->data_size / 1024, strerror(errno));
	}
	return 0;
}

void ring_unmap(struct ring *r)
{
	if (r->base)
		munmap(r->base, r->map_size);
	r->base = NULL;
}

/* Copy @n bytes at ring position @pos (may wrap) into @out. */
static void ring_copy(const struct ring *r, uint64_t pos, void *out, size_t n)
{
	const unsigned char *data = r->base + (r->map_size - r->data_size);
	size_t at = (size_t)(pos & (r->data_size - 1)), first = r->data_size - at;

	if (first > n)
		first = n;
	memcpy(out, data + at, first);
	memcpy((unsigned char *)out + first, data, n - first);
}

/* Walk whole records from the tail, at most @limit bytes; count them.
 * Returns the position after the last record taken. */
static uint64_t walk_records(const struct ring *r, uint64_t tail, uint64_t head, size_t limit,
			     struct ring_counts *c)
{
	unsigned char hdr[8 + 16];
	uint64_t pos = tail;

	while (head - pos >= 8) {
		uint16_t size;
		uint32_t type;

		ring_copy(r, pos, hdr, 8);
		type = pd_u32(hdr);
		size = pd_u16(hdr + 6);
		if (size < 8 || size > head - pos || pos + size - tail > limit)
			break;
		if (type == PD_REC_SAMPLE) {
			c->samples++;
			if (c->time_off && size >= c->time_off + 8) {
				uint64_t t;

				ring_copy(r, pos + c->time_off, &t, 8);
				if (!c->first_time || t < c->first_time)
					c->first_time = t;
				if (t > c->last_time)
					c->last_time = t;
			}
		} else if (type == PD_REC_LOST && size >= 24) {
			ring_copy(r, pos, hdr, 24);
			c->lost_records++;
			c->lost_events += pd_u64(hdr + 16);
		}
		pos += size;
	}
	return pos;
}

int ring_peek(struct ring *r, struct iovec iov[2], uint64_t *head, size_t limit,
	      struct ring_counts *c)
{
	struct perf_event_mmap_page *pc = (void *)r->base;
	unsigned char *data = r->base + (r->map_size - r->data_size);
	uint64_t h = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	size_t at, len, first;

	if (h - r->tail > r->data_size)      /* cannot happen unless the kernel lies */
		h = r->tail + r->data_size;
	h = walk_records(r, r->tail, h, limit, c);
	*head = h;
	if (h == r->tail)
		return 0;
	len = (size_t)(h - r->tail);
	at = (size_t)(r->tail & (r->data_size - 1));
	first = r->data_size - at;
	if (first >= len) {
		iov[0].iov_base = data + at;
		iov[0].iov_len = len;
		return 1;
	}
	iov[0].iov_base = data + at;
	iov[0].iov_len = first;
	iov[1].iov_base = data;
	iov[1].iov_len = len - first;
	return 2;
}

void ring_consume(struct ring *r, uint64_t head)
{
	struct perf_event_mmap_page *pc = (void *)r->base;

	r->tail = head;
	__atomic_store_n(&pc->data_tail, head, __ATOMIC_RELEASE);
}
