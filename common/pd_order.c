/* pd_order.c - the time-ordering queue: copies in blocks, sorted per flush. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "pd_order.h"
#include "tb_err.h"

#define BLOCK_SIZE (4u << 20)

struct pd_block {
	size_t used;
	size_t live;               /* queued records still in this block */
	unsigned char mem[];
};

struct pd_qent {
	uint64_t time;
	uint64_t seq;
	uint64_t file_offset;
	struct pd_block *blk;
	unsigned char *rec;
	uint32_t size;
};

int pd_order_init(struct pd_order *q, size_t max_bytes, pd_deliver_fn fn, void *ctx)
{
	memset(q, 0, sizeof(*q));
	q->max_bytes = max_bytes;
	q->deliver = fn;
	q->ctx = ctx;
	return 0;
}

void pd_order_free(struct pd_order *q)
{
	/* Blocks with live records are reachable only through the entries. */
	for (size_t i = 0; i < q->nr; i++) {
		struct pd_block *b = q->ents[i].blk;

		if (b && --b->live == 0 && b != q->cur)
			free(b);
	}
	free(q->cur);
	free(q->spare);
	free(q->ents);
	memset(q, 0, sizeof(*q));
}

static void release(struct pd_order *q, struct pd_block *b, size_t size)
{
	q->bytes -= size;
	if (--b->live || b == q->cur)
		return;
	if (!q->spare) {
		q->spare = b;
		return;
	}
	free(b);
}

static unsigned char *alloc_copy(struct pd_order *q, size_t size, struct pd_block **out)
{
	size_t need = (size + 7) & ~(size_t)7;
	struct pd_block *b = q->cur;

	if (!b || BLOCK_SIZE - b->used < need) {
		if (b && b->live == 0) {
			b->used = 0;          /* nothing lives here: reuse it */
		} else {
			if (q->spare) {
				b = q->spare;
				q->spare = NULL;
			} else {
				b = malloc(sizeof(*b) + BLOCK_SIZE);
				if (!b)
					return NULL;
			}
			b->used = 0;
			b->live = 0;
			q->cur = b;
		}
	}
	*out = b;
	b->live++;
	b->used += need;
	return b->mem + b->used - need;
}

static int cmp_ent(const void *a, const void *b)
{
	const struct pd_qent *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Deliver, in order, every queued record with time <= limit. */
static int flush_upto(struct pd_order *q, uint64_t limit)
{
	size_t i, n = 0;
	int r = 0;

	if (q->nr == 0)
		return 0;
	qsort(q->ents, q->nr, sizeof(*q->ents), cmp_ent);
	for (i = 0; i < q->nr && q->ents[i].time <= limit; i++) {
		struct pd_qent *e = &q->ents[i];

		if (!r)
			r = q->deliver(q->ctx, e->rec, e->size, e->file_offset);
		q->last_delivered = e->time;
		release(q, e->blk, (e->size + 7) & ~(size_t)7);
		n++;
	}
	memmove(q->ents, q->ents + n, (q->nr - n) * sizeof(*q->ents));
	q->nr -= n;
	return r;
}

int pd_order_push(struct pd_order *q, const unsigned char *rec, size_t size,
		  uint64_t time, uint64_t file_offset)
{
	struct pd_qent *e;
	struct pd_block *b;
	unsigned char *copy;
	int r;

	if (q->max_bytes && q->bytes + size > q->max_bytes && q->nr > 0) {
		/* Memory pressure: deliver the older half, as perf does. */
		uint64_t first, last;

		qsort(q->ents, q->nr, sizeof(*q->ents), cmp_ent);
		first = q->ents[0].time;
		last = q->ents[q->nr - 1].time;
		if ((r = flush_upto(q, first + (last - first) / 2)))
			return r;
	}
	if (q->nr == q->cap) {
		size_t cap = q->cap ? q->cap * 2 : 4096;
		struct pd_qent *n = realloc(q->ents, cap * sizeof(*n));

		if (!n)
			return TB_ERR_NOMEM;
		q->ents = n;
		q->cap = cap;
	}
	copy = alloc_copy(q, size, &b);
	if (!copy)
		return TB_ERR_NOMEM;
	memcpy(copy, rec, size);
	if (time < q->last_delivered)
		q->nr_unordered++;
	e = &q->ents[q->nr++];
	e->time = time;
	e->seq = q->seq++;
	e->file_offset = file_offset;
	e->blk = b;
	e->rec = copy;
	e->size = (uint32_t)size;
	q->bytes += (size + 7) & ~(size_t)7;
	if (q->nr == 1 || time > q->max_time)
		q->max_time = time;    /* perf restarts its maximum on an empty queue */
	return 0;
}

int pd_order_round(struct pd_order *q)
{
	int r;

	if (q->nr == 0)
		return 0;              /* perf keeps its limit when nothing is queued */
	r = flush_upto(q, q->round_limit);

	q->round_limit = q->max_time;
	return r;
}

int pd_order_flush_all(struct pd_order *q)
{
	return flush_upto(q, UINT64_MAX);
}
