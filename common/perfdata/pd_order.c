/* pd_order.c - the time-ordering queue: copies in blocks, sorted per flush;
 * past its memory cap, sorted runs in a temporary file, merged per flush. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perfdata/pd_order.h"
#include "util/io.h"
#include "util/tb_err.h"

/* copies are kept in blocks of this size (a record is at most 64 KiB):
 * a round of a -g profile holds a few hundred KiB, so bigger blocks were
 * mostly slack (4 MiB ones: 8 MiB resident for ~1 MiB of records);
 * emptied blocks are kept for reuse, up to MAX_SPARE of them */
#define BLOCK_SIZE PD_ORDER_BLOCK
#define MAX_SPARE  16
#define SPILL_HDR  32u             /* time, seq, file offset, size, hint */
#define RUN_BUF    (SPILL_HDR + (64u << 10) + 8u)   /* holds any one record */
#define WRITE_BUF  (1u << 20)
#define MAX_RUNS   16              /* one more spill merges them into one */

struct pd_block {
	struct pd_block *next;     /* in the spare list */
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
	uint32_t hint;
};

/* A sorted run in the spill file: [pos, end) unread, the head record
 * parsed out of buf[head..tail) when loaded. */
struct pd_run {
	uint64_t pos, end;         /* file range not yet in buf */
	unsigned char *buf;
	size_t head, tail;
	int loaded;
	uint64_t time, seq, file_offset;
	uint32_t size, hint;
};

static size_t padded(size_t size)
{
	return (size + 7) & ~(size_t)7;
}

size_t pd_order_default_cap(void)
{
	const char *v = getenv("TRACEBOX_ORDER_CAP");
	unsigned long long n;
	char *end;

	if (!v || !*v)
		return (size_t)PD_ORDER_CAP;
	errno = 0;
	n = strtoull(v, &end, 10);
	if (errno || end == v)
		return (size_t)PD_ORDER_CAP;
	switch (*end) {
	case 'g': case 'G': n <<= 10; /* fall through */
	case 'm': case 'M': n <<= 10; /* fall through */
	case 'k': case 'K': n <<= 10; end++; break;
	default: break;
	}
	return *end ? (size_t)PD_ORDER_CAP : (size_t)n;
}

int pd_order_init(struct pd_order *q, size_t max_bytes, pd_deliver_fn fn, void *ctx)
{
	memset(q, 0, sizeof(*q));
	q->max_bytes = max_bytes;
	q->deliver = fn;
	q->ctx = ctx;
	q->spill_fd = -1;
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
	for (size_t i = 0; i < q->nr_runs; i++)
		free(q->runs[i].buf);
	free(q->runs);
	if (q->spill_fd >= 0)
		close(q->spill_fd);
	free(q->cur);
	while (q->spare) {
		struct pd_block *b = q->spare;

		q->spare = b->next;
		free(b);
	}
	free(q->ents);
	memset(q, 0, sizeof(*q));
	q->spill_fd = -1;
}

/* Give back a copy of @size (padded) bytes and its entry. */
static void release(struct pd_order *q, struct pd_block *b, size_t size)
{
	q->bytes -= size + sizeof(struct pd_qent);
	if (--b->live || b == q->cur)
		return;
	if (q->nr_spare < MAX_SPARE) {
		b->next = q->spare;
		q->spare = b;
		q->nr_spare++;
		return;
	}
	free(b);
}

static unsigned char *alloc_copy(struct pd_order *q, size_t size, struct pd_block **out)
{
	size_t need = padded(size);
	struct pd_block *b = q->cur;

	if (!b || BLOCK_SIZE - b->used < need) {
		if (b && b->live == 0) {
			b->used = 0;          /* nothing lives here: reuse it */
		} else {
			if (q->spare) {
				b = q->spare;
				q->spare = b->next;
				q->nr_spare--;
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

static inline int ent_before(const struct pd_qent *x, const struct pd_qent *y)
{
	return x->time < y->time || (x->time == y->time && x->seq < y->seq);
}

/* the end of the ascending run of @v that starts at @from (of @n) */
static size_t run_end(const struct pd_qent *v, size_t from, size_t n)
{
	size_t i = from + 1;

	while (i < n && !ent_before(&v[i], &v[i - 1]))
		i++;
	return i;
}

/*
 * Time order. The records of a round come in per-CPU runs already in time
 * order, so each pass merges neighbouring runs (stable: equals keep their
 * order), O(n log runs), one scan when sorted; qsort if no scratch array.
 */
static void sort_ents(struct pd_order *q)
{
	struct pd_qent *v = q->ents, *tmp;
	size_t n = q->nr, runs;

	if (n < 2 || run_end(v, 0, n) == n)
		return;
	if (!(tmp = malloc(n * sizeof(*tmp)))) {
		qsort(v, n, sizeof(*v), cmp_ent);
		return;
	}
	do {
		runs = 0;
		for (size_t a = 0; a < n; runs++) {
			size_t b = run_end(v, a, n), c = b < n ? run_end(v, b, n) : n;
			size_t i = a, j = b, o = a;

			while (i < b && j < c)
				tmp[o++] = ent_before(&v[j], &v[i]) ? v[j++] : v[i++];
			memcpy(tmp + o, v + i, (b - i) * sizeof(*tmp));
			memcpy(tmp + o + (b - i), v + j, (c - j) * sizeof(*tmp));
			a = c;
		}
		memcpy(v, tmp, n * sizeof(*tmp));
	} while (runs > 1);
	free(tmp);
}

static int before(uint64_t t1, uint64_t s1, uint64_t t2, uint64_t s2)
{
	return t1 < t2 || (t1 == t2 && s1 < s2);
}

/* ---- the spill file ---- */

static int open_spill(struct pd_order *q)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd < 0) {
		if (snprintf(path, sizeof(path), "%s/tracebox-order.XXXXXX", dir) >=
		    (int)sizeof(path))
			return -1;
		fd = mkostemp(path, O_CLOEXEC);
		if (fd < 0)
			return -1;
		unlink(path);
	}
	q->spill_fd = fd;
	q->spill_end = 0;
	return 0;
}

struct wbuf {
	int fd;
	uint64_t at;               /* file offset of buf[0] */
	unsigned char *buf;
	size_t len;
	int bad;
};

static void wb_flush(struct wbuf *w)
{
	if (!w->bad && w->len && pwriten(w->fd, w->buf, w->len, w->at))
		w->bad = 1;
	w->at += w->len;
	w->len = 0;
}

/* Append one record with its spill header. */
static void wb_record(struct wbuf *w, uint64_t time, uint64_t seq, uint64_t off,
		      const unsigned char *rec, uint32_t size, uint32_t hint)
{
	unsigned char *p;

	if (WRITE_BUF - w->len < SPILL_HDR + padded(size))
		wb_flush(w);
	p = w->buf + w->len;
	memcpy(p, &time, 8);
	memcpy(p + 8, &seq, 8);
	memcpy(p + 16, &off, 8);
	memcpy(p + 24, &size, 4);
	memcpy(p + 28, &hint, 4);
	memcpy(p + SPILL_HDR, rec, size);
	memset(p + SPILL_HDR + size, 0, padded(size) - size);
	w->len += SPILL_HDR + padded(size);
}

/* Make run @r's next record its head: 1, 0 at the run's end, or an error. */
static int run_load(struct pd_order *q, struct pd_run *r)
{
	uint32_t size;

	if (r->loaded)
		return 1;
	for (int pass = 0; pass < 2; pass++) {
		size_t have = r->tail - r->head;

		if (have >= SPILL_HDR) {
			memcpy(&size, r->buf + r->head + 24, 4);
			if (have >= SPILL_HDR + padded(size))
				break;
		}
		if (pass == 1)
			return have || r->pos < r->end ? TB_ERR_IO : 0;
		memmove(r->buf, r->buf + r->head, have);
		r->head = 0;
		r->tail = have;
		while (r->pos < r->end && r->tail < RUN_BUF) {
			size_t want = RUN_BUF - r->tail;
			ssize_t n;

			if (want > r->end - r->pos)
				want = (size_t)(r->end - r->pos);
			n = preadn(q->spill_fd, r->buf + r->tail, want, r->pos);
			if (n <= 0 || (size_t)n < want)     /* the spill file ends early */
				return TB_ERR_IO;
			r->tail += (size_t)n;
			r->pos += (uint64_t)n;
		}
		if (r->tail == 0)
			return 0;
	}
	memcpy(&r->time, r->buf + r->head, 8);
	memcpy(&r->seq, r->buf + r->head + 8, 8);
	memcpy(&r->file_offset, r->buf + r->head + 16, 8);
	memcpy(&r->size, r->buf + r->head + 24, 4);
	memcpy(&r->hint, r->buf + r->head + 28, 4);
	r->loaded = 1;
	return 1;
}

static void run_next(struct pd_run *r)
{
	r->head += SPILL_HDR + padded(r->size);
	r->loaded = 0;
}

/* The run whose head goes first (loading heads as needed), or NULL. */
static struct pd_run *first_run(struct pd_order *q, int *err)
{
	struct pd_run *best = NULL;

	for (size_t i = 0; i < q->nr_runs; i++) {
		struct pd_run *r = &q->runs[i];
		int k = run_load(q, r);

		if (k < 0) {
			*err = k;
			return NULL;
		}
		if (k && (!best || before(r->time, r->seq, best->time, best->seq)))
			best = r;
	}
	return best;
}

/* Forget the runs that are done; an empty spill file starts over. */
static void drop_done_runs(struct pd_order *q)
{
	size_t k = 0;

	for (size_t i = 0; i < q->nr_runs; i++) {
		struct pd_run *r = &q->runs[i];

		if (r->loaded || r->head < r->tail || r->pos < r->end)
			q->runs[k++] = *r;
		else
			free(r->buf);
	}
	q->nr_runs = k;
	if (k == 0 && q->spill_end) {
		if (ftruncate(q->spill_fd, 0) == 0)
			q->spill_end = 0;
	}
}

static struct pd_run *add_run(struct pd_order *q, uint64_t start, uint64_t end)
{
	struct pd_run *n = realloc(q->runs, (q->nr_runs + 1) * sizeof(*n));
	unsigned char *buf = malloc(RUN_BUF);

	if (n)
		q->runs = n;
	if (!n || !buf) {
		free(buf);
		return NULL;
	}
	n = &q->runs[q->nr_runs++];
	memset(n, 0, sizeof(*n));
	n->pos = start;
	n->end = end;
	n->buf = buf;
	return n;
}

/* Merge every run into one new run at the end of the file. On failure the
 * runs are left as they were (re-read from their heads). */
static int merge_runs(struct pd_order *q, struct wbuf *w)
{
	uint64_t start = w->at + w->len, *rewind;
	struct pd_run *r;
	size_t nr = q->nr_runs;
	int err = 0;

	rewind = malloc(nr * sizeof(*rewind));
	if (!rewind)
		return TB_ERR_NOMEM;
	for (size_t i = 0; i < nr; i++)
		rewind[i] = q->runs[i].pos - (q->runs[i].tail - q->runs[i].head);
	while ((r = first_run(q, &err))) {
		wb_record(w, r->time, r->seq, r->file_offset, r->buf + r->head + SPILL_HDR,
			  r->size, r->hint);
		run_next(r);
	}
	wb_flush(w);
	if (err || w->bad) {
		for (size_t i = 0; i < nr; i++) {
			q->runs[i].pos = rewind[i];
			q->runs[i].head = q->runs[i].tail = 0;
			q->runs[i].loaded = 0;
		}
		free(rewind);
		return err ? err : TB_ERR_IO;
	}
	free(rewind);
	/* the merged run takes the first run's buffer */
	for (size_t i = 1; i < nr; i++)
		free(q->runs[i].buf);
	r = &q->runs[0];
	r->pos = start;
	r->end = w->at;
	r->head = r->tail = 0;
	r->loaded = 0;
	q->nr_runs = 1;
	q->spill_end = w->at;
	q->nr_spills++;
	return 0;
}

/* Write what memory holds, sorted, as one run (merging the runs first when
 * they are MAX_RUNS). On failure nothing changes but spill_failed. */
static int spill(struct pd_order *q)
{
	struct wbuf w = { 0 };
	uint64_t start;
	int r = 0;

	if (q->spill_fd < 0 && open_spill(q))
		goto failed;
	w.fd = q->spill_fd;
	w.at = q->spill_end;
	w.buf = malloc(WRITE_BUF);
	if (!w.buf)
		goto failed;
	if (q->nr_runs >= MAX_RUNS && (r = merge_runs(q, &w)))
		goto failed;
	start = w.at + w.len;
	sort_ents(q);
	for (size_t i = 0; i < q->nr; i++) {
		struct pd_qent *e = &q->ents[i];

		wb_record(&w, e->time, e->seq, e->file_offset, e->rec, e->size, e->hint);
	}
	wb_flush(&w);
	if (w.bad || !add_run(q, start, w.at))
		goto failed;
	q->spill_end = w.at;
	for (size_t i = 0; i < q->nr; i++)
		release(q, q->ents[i].blk, padded(q->ents[i].size));
	q->nr_spilled += q->nr;
	q->nr = 0;
	q->nr_spills++;
	free(w.buf);
	return 0;
failed:
	/* what merge_runs wrote is unreachable; the file ends where it did */
	if (q->spill_fd >= 0 && ftruncate(q->spill_fd, (off_t)q->spill_end)) {
		/* the space stays used until the file is closed */
	}
	free(w.buf);
	q->spill_failed = 1;
	return r == TB_ERR_NOMEM ? r : 0;
}

/* ---- delivery ---- */

/* In-memory entries only: deliver, in order, every one with time <= limit. */
static int flush_memory(struct pd_order *q, uint64_t limit)
{
	size_t i, n = 0;
	int r = 0;

	for (i = 0; i < q->nr && q->ents[i].time <= limit; i++) {
		struct pd_qent *e = &q->ents[i];

		if (!r)
			r = q->deliver(q->ctx, e->rec, e->size, e->file_offset, e->hint);
		q->last_delivered = e->time;
		release(q, e->blk, padded(e->size));
		n++;
	}
	memmove(q->ents, q->ents + n, (q->nr - n) * sizeof(*q->ents));
	q->nr -= n;
	return r;
}

/* Memory and runs: a k-way merge, up to @limit, stopping at an error. */
static int flush_merged(struct pd_order *q, uint64_t limit)
{
	size_t i = 0;
	int r = 0;

	for (;;) {
		struct pd_run *run = first_run(q, &r);
		struct pd_qent *e = i < q->nr ? &q->ents[i] : NULL;

		if (r)
			break;
		if (run && (!e || before(run->time, run->seq, e->time, e->seq))) {
			if (run->time > limit)
				break;
			r = q->deliver(q->ctx, run->buf + run->head + SPILL_HDR, run->size,
				       run->file_offset, run->hint);
			q->last_delivered = run->time;
			run_next(run);
			q->nr_spilled--;
		} else {
			if (!e || e->time > limit)
				break;
			r = q->deliver(q->ctx, e->rec, e->size, e->file_offset, e->hint);
			q->last_delivered = e->time;
			release(q, e->blk, padded(e->size));
			i++;
		}
		if (r)
			break;
	}
	memmove(q->ents, q->ents + i, (q->nr - i) * sizeof(*q->ents));
	q->nr -= i;
	drop_done_runs(q);
	return r;
}

/* Deliver, in order, every queued record with time <= limit. */
static int flush_upto(struct pd_order *q, uint64_t limit)
{
	int r;

	if (q->failed)
		return q->failed;      /* nothing goes out after a failed delivery */
	if (q->nr == 0 && q->nr_runs == 0)
		return 0;
	sort_ents(q);
	r = q->nr_runs ? flush_merged(q, limit) : flush_memory(q, limit);
	q->failed = r;
	return r;
}

int pd_order_push(struct pd_order *q, const unsigned char *rec, size_t size,
		  uint64_t time, uint64_t file_offset, uint32_t hint)
{
	struct pd_qent *e;
	struct pd_block *b;
	unsigned char *copy;
	int r;

	if (q->max_bytes && q->bytes + padded(size) + sizeof(*e) > q->max_bytes && q->nr > 0 &&
	    !q->spill_failed && (r = spill(q)))
		return r;
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
	e->hint = hint;
	q->bytes += padded(size) + sizeof(*e);
	if ((q->nr == 1 && q->nr_spilled == 0) || time > q->max_time)
		q->max_time = time;    /* perf restarts its maximum on an empty queue */
	return 0;
}

int pd_order_round(struct pd_order *q)
{
	int r;

	if (q->nr == 0 && q->nr_spilled == 0)
		return 0;              /* perf keeps its limit when nothing is queued */
	r = flush_upto(q, q->round_limit);

	q->round_limit = q->max_time;
	return r;
}

int pd_order_flush_all(struct pd_order *q)
{
	return flush_upto(q, UINT64_MAX);
}
