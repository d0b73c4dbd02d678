/* pd_pipeline.c - the reading on a thread of its own: records in delivery order through a bounded queue to the consumer's thread. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perfdata/pd_pipeline.h"
#include "perfdata/pd_session_int.h"

/*
 * The reader thread does what pd_session_process did up to the ordering
 * queue: input, decompression, record checks, attr lookup, the queue; the
 * records the queue lets go are copied, in that order, into batches of a
 * fixed ring. The consumer's thread (the caller's) takes each batch and
 * delivers its records as one thread would: thread names, symbols, the
 * decoding the consumer sees and the consumer itself stay on its side, so
 * nothing the consumer reads is written under it.
 *
 * A record perf makes itself (attrs, features, tracing data, build ids in
 * a pipe stream, stat rounds) is handled on the consumer's thread once it
 * delivered everything published before it, the reader waiting meanwhile
 * (pd_pipeline_call): what changes the session's shared state, or calls
 * the consumer, runs on the consumer's thread alone.
 * A consumer that fails stops the reader at its next record, or in a
 * wait for the input (a pipe that may never end), through the wake pipe
 * its reads wait on as well (pd_input.h).
 */

#define PL_BATCHES 8
#define PL_BATCH (256u << 10)    /* bytes; any record (64 KiB at most) fits */
#define PL_ENTRY 16              /* offset (8), size (4), hint (4) */
/* an entry of this size holds what changed in the reader's counters
 * (struct pd_stats) since its last mark, written before the first record
 * let go after they changed: a consumer that fails leaves the counters as
 * one thread would have had them. Its padding word counts the changed
 * u64 words of the struct; each follows as {index, value}. */
#define PL_MARK UINT32_MAX
#define PL_STAT_WORDS (sizeof(struct pd_stats) / 8)
#define PL_MARK_MAX (PL_ENTRY + 16 * PL_STAT_WORDS)   /* every word changed */
#define STAT_WORD(field) (offsetof(struct pd_stats, field) / 8)
_Static_assert(sizeof(struct pd_stats) % 8 == 0, "pd_stats is whole u64 words");

struct pl_batch {
	unsigned char *data;
	size_t len;
};

struct pd_pipeline {
	pthread_mutex_t mu;
	pthread_cond_t to_reader, to_consumer;
	struct pl_batch b[PL_BATCHES];
	unsigned put;            /* the batch the reader fills */
	unsigned get;            /* the next batch the consumer takes */
	unsigned full;           /* batches published, not yet delivered */
	int busy;                /* the consumer delivers a batch */
	int done;                /* the reader finished with r, rerr */
	int stop;                /* the consumer failed with this */
	int (*call)(void *);     /* pd_pipeline_call: to run on the consumer's */
	void *call_ctx;          /* thread once the batches before it are done, */
	int call_r;              /* and what it returned */
	int r;
	struct tb_err rerr;
	struct pd_session *s;
	int (*read)(struct pd_session *s);
	/* the reader's and the consumer's own, each on lines of its own: a
	 * line both write goes back and forth between their caches */
	_Alignas(64) uint64_t marked[PL_STAT_WORDS];  /* reader: the counters as its last mark left them */
	_Alignas(64) struct pd_stats seen;            /* consumer: as the last mark it took left them */
	int have_seen;
};

__thread struct tb_err *pd_thread_err;

int pd_pipeline_threads(int asked)
{
	const char *v = getenv("TRACEBOX_THREADS");
	cpu_set_t set;

	if (asked > 0)
		return asked > 1 ? 2 : 1;
	if (v && *v)
		return atoi(v) > 1 ? 2 : 1;
	if (sched_getaffinity(0, sizeof(set), &set))
		return 1;
	return CPU_COUNT(&set) > 1 ? 2 : 1;
}

/* Reader: hand the batch filled to the consumer and wait for a free one. */
static int publish(struct pd_pipeline *pl)
{
	int r;

	if (!pl->b[pl->put].len)
		return __atomic_load_n(&pl->stop, __ATOMIC_ACQUIRE);
	pthread_mutex_lock(&pl->mu);
	pl->full++;
	pl->put = (pl->put + 1) % PL_BATCHES;
	pthread_cond_signal(&pl->to_consumer);
	while (pl->full == PL_BATCHES && !pl->stop)
		pthread_cond_wait(&pl->to_reader, &pl->mu);
	r = pl->stop;
	pthread_mutex_unlock(&pl->mu);
	pl->b[pl->put].len = 0;
	return r;
}

int pd_pipeline_flush(struct pd_pipeline *pl)
{
	return publish(pl);
}

int pd_pipeline_call(struct pd_pipeline *pl, int (*fn)(void *ctx), void *ctx)
{
	int r = publish(pl);

	if (r)
		return r;
	pthread_mutex_lock(&pl->mu);
	pl->call = fn;
	pl->call_ctx = ctx;
	pthread_cond_signal(&pl->to_consumer);
	while (pl->call && !pl->stop)
		pthread_cond_wait(&pl->to_reader, &pl->mu);
	r = pl->call ? pl->stop : pl->call_r;
	pl->call = NULL;
	pthread_mutex_unlock(&pl->mu);
	return r;
}

/* Reader: whether the counters a mark carries moved since the last one
 * (records read, out of order, decompressed: the rest move with them). */
static int counters_moved(const struct pd_pipeline *pl)
{
	const struct pd_session *s = pl->s;

	return s->stats.nr_total != pl->marked[STAT_WORD(nr_total)] ||
	       s->order.nr_unordered != pl->marked[STAT_WORD(nr_unordered)] ||
	       s->stats.nr_decompressed != pl->marked[STAT_WORD(nr_decompressed)];
}

/* Reader: word @i of the counters a mark carries, as they are now */
static uint64_t stat_word(const struct pd_session *s, uint64_t i)
{
	uint64_t v;

	if (i == STAT_WORD(nr_unordered))
		return s->order.nr_unordered;
	if (i == STAT_WORD(decomp_tail))
		return pd_decomp_pending(&s->decomp);
	memcpy(&v, (const unsigned char *)&s->stats + 8 * i, 8);
	return v;
}

/* Reader: a mark at @at (room for PL_MARK_MAX): the counters' words that
 * changed since the last one, as {index, value}. Returns its size. A
 * mark goes out a round (perf's FINISHED_ROUND), a few records apart: the
 * words are compared a block of 8 at a time, most blocks not moving. */
static size_t put_mark(struct pd_pipeline *pl, unsigned char *at)
{
	const unsigned char *now = (const unsigned char *)&pl->s->stats;
	uint32_t sz = PL_MARK, n = 0;

	for (uint64_t blk = 0; blk < PL_STAT_WORDS; blk += 8) {
		uint64_t end = blk + 8 < PL_STAT_WORDS ? blk + 8 : PL_STAT_WORDS;
		int special = (STAT_WORD(nr_unordered) >= blk && STAT_WORD(nr_unordered) < end) ||
			      (STAT_WORD(decomp_tail) >= blk && STAT_WORD(decomp_tail) < end);

		if (!special && !memcmp(now + 8 * blk, &pl->marked[blk], 8 * (end - blk)))
			continue;
		for (uint64_t i = blk; i < end; i++) {
			uint64_t v = stat_word(pl->s, i);

			if (v == pl->marked[i])
				continue;
			pl->marked[i] = v;
			memcpy(at + PL_ENTRY + 16 * n, &i, 8);
			memcpy(at + PL_ENTRY + 16 * n + 8, &v, 8);
			n++;
		}
	}
	memset(at, 0, 8);
	memcpy(at + 8, &sz, 4);
	memcpy(at + 12, &n, 4);
	return PL_ENTRY + 16 * (size_t)n;
}

/* Consumer: the counters of the mark at @at applied to pl->seen; its size. */
static size_t take_mark(struct pd_pipeline *pl, const unsigned char *at)
{
	uint32_t n;

	memcpy(&n, at + 12, 4);
	for (uint32_t k = 0; k < n; k++) {
		uint64_t i, v;

		memcpy(&i, at + PL_ENTRY + 16 * k, 8);
		memcpy(&v, at + PL_ENTRY + 16 * k + 8, 8);
		memcpy((unsigned char *)&pl->seen + 8 * i, &v, 8);   /* i < PL_STAT_WORDS */
	}
	pl->have_seen = 1;
	return PL_ENTRY + 16 * (size_t)n;
}

/* Reader: the ordering queue's delivery, a copy into the batch (after the
 * counters, when they changed since the last mark). */
static int pl_emit(void *ctx, const unsigned char *rec, size_t size, uint64_t off, uint32_t hint)
{
	struct pd_pipeline *pl = ctx;
	int mark = counters_moved(pl);
	size_t need = PL_ENTRY + ((size + 7) & ~(size_t)7);
	struct pl_batch *b = &pl->b[pl->put];
	uint32_t sz = (uint32_t)size;
	int r;

	if (b->len + need + (mark ? PL_MARK_MAX : 0) > PL_BATCH) {
		if ((r = publish(pl)))
			return r;
		b = &pl->b[pl->put];
	} else if ((r = __atomic_load_n(&pl->stop, __ATOMIC_ACQUIRE))) {
		return r;
	}
	if (mark)
		b->len += put_mark(pl, b->data + b->len);
	memcpy(b->data + b->len, &off, 8);
	memcpy(b->data + b->len + 8, &sz, 4);
	memcpy(b->data + b->len + 12, &hint, 4);
	memcpy(b->data + b->len + PL_ENTRY, rec, size);
	b->len += need;
	return 0;
}

static void *reader_main(void *arg)
{
	struct pd_pipeline *pl = arg;
	int r, r2;

	pd_thread_err = &pl->rerr;
	r = pl->read(pl->s);
	r2 = publish(pl);             /* what went before damage goes out too */
	if (!r)
		r = r2;
	pthread_mutex_lock(&pl->mu);
	pl->r = r;
	pl->done = 1;
	pthread_cond_signal(&pl->to_consumer);
	pthread_mutex_unlock(&pl->mu);
	return NULL;
}

/* Set in a child a script forks (os.fork(), fork) while the consumer
 * calls it: the reader thread and the locks it may hold stay with the
 * parent, so the child cannot take another record (it waited for good). */
static volatile sig_atomic_t forked;

static void on_fork_child(void)
{
	forked = 1;
}

static void watch_forks(void)
{
	pthread_atfork(NULL, NULL, on_fork_child);
}

/* Consumer: deliver each batch as it comes; the first failure stops both. */
static int consume(struct pd_pipeline *pl, pd_deliver_fn fn, void *ctx)
{
	int r = 0;

	pthread_mutex_lock(&pl->mu);
	for (;;) {
		struct pl_batch *b;
		size_t len;

		while (!pl->full && !pl->done && !pl->call)
			pthread_cond_wait(&pl->to_consumer, &pl->mu);
		if (!pl->full && pl->call) {
			/* the reader waits: its part of the session is still;
			 * a failure is the reader's, with its message */
			pthread_mutex_unlock(&pl->mu);
			pd_thread_err = &pl->rerr;
			r = pl->call(pl->call_ctx);
			pd_thread_err = NULL;
			pthread_mutex_lock(&pl->mu);
			pl->call_r = r;
			pl->call = NULL;
			r = 0;
			pthread_cond_broadcast(&pl->to_reader);
			continue;
		}
		if (!pl->full)
			break;
		pl->busy = 1;
		b = &pl->b[pl->get];
		/* read once: the reader writes the lengths beside it as it fills
		 * the next batch, a record at a time */
		len = b->len;
		pthread_mutex_unlock(&pl->mu);
		for (size_t at = 0; at < len && !r;) {
			uint64_t off;
			uint32_t sz, hint;

			memcpy(&off, b->data + at, 8);
			memcpy(&sz, b->data + at + 8, 4);
			if (sz == PL_MARK) {
				at += take_mark(pl, b->data + at);
				continue;
			}
			memcpy(&hint, b->data + at + 12, 4);
			r = fn(ctx, b->data + at + PL_ENTRY, sz, off, hint);
			at += PL_ENTRY + ((sz + 7) & ~(size_t)7);
			/* no lock taken: the parent's may be held; a script's
			 * own exit in the child (r) stays its exit */
			if (forked)
				return r ? r : tb_err_set(pl->s->err, TB_ERR_FORKED, TB_NO_OFFSET,
						  "process %d, forked by the script, stops here: "
						  "the reader thread stayed with its parent",
						  (int)getpid());
		}
		pthread_mutex_lock(&pl->mu);
		pl->busy = 0;
		pl->full--;
		pl->get = (pl->get + 1) % PL_BATCHES;
		if (r)     /* read without the lock by pl_emit */
			__atomic_store_n(&pl->stop, r, __ATOMIC_RELEASE);
		pthread_cond_broadcast(&pl->to_reader);
		if (r)
			break;
	}
	pthread_mutex_unlock(&pl->mu);
	return r;
}

/* After the consumer failed: the reader's counters as the last mark it
 * delivered held them (the reader read on), the consumer's own kept. */
static void keep_counters(struct pd_session *s, const struct pd_stats *seen)
{
	struct pd_stats own = s->stats;

	s->stats = *seen;
	s->stats.nr_lost_events = own.nr_lost_events;
	s->stats.nr_lost_samples = own.nr_lost_samples;
	s->stats.nr_kernel_mmaps = own.nr_kernel_mmaps;
	s->stats.nr_unknown_id = own.nr_unknown_id;
	s->order.nr_unordered = seen->nr_unordered;
	s->counters_kept = 1;
}

static struct pd_pipeline *pl_new(struct pd_session *s)
{
	/* its lines as the struct lays them out (_Alignas above) */
	struct pd_pipeline *pl = aligned_alloc(64, (sizeof(*pl) + 63) & ~(size_t)63);

	if (!pl)
		return NULL;
	memset(pl, 0, sizeof(*pl));
	pl->s = s;
	for (int i = 0; i < PL_BATCHES; i++)
		if (!(pl->b[i].data = malloc(PL_BATCH))) {
			while (i--)
				free(pl->b[i].data);
			free(pl);
			return NULL;
		}
	pthread_mutex_init(&pl->mu, NULL);
	pthread_cond_init(&pl->to_reader, NULL);
	pthread_cond_init(&pl->to_consumer, NULL);
	return pl;
}

static void pl_free(struct pd_pipeline *pl)
{
	pthread_mutex_destroy(&pl->mu);
	pthread_cond_destroy(&pl->to_reader);
	pthread_cond_destroy(&pl->to_consumer);
	for (int i = 0; i < PL_BATCHES; i++)
		free(pl->b[i].data);
	free(pl);
}

int pd_pipeline_run(struct pd_session *s, int (*read)(struct pd_session *s), pd_deliver_fn fn,
		    struct tb_err *err)
{
	static pthread_once_t once = PTHREAD_ONCE_INIT;
	struct pd_pipeline *pl = pl_new(s);
	sigset_t all, old;
	pthread_t tid;
	int r, started, wake[2];

	if (!pl)
		return TB_ERR_NOMEM;
	pthread_once(&once, watch_forks);
	if (pipe2(wake, O_CLOEXEC))
		wake[0] = wake[1] = -1;
	s->pl = pl;
	pl->read = read;
	s->emit = pl_emit;
	s->emit_ctx = pl;
	s->in.wake_fd = wake[0];
	pd_order_init(&s->order, pd_order_default_cap(), pl_emit, pl);
	/* signals go to the consumer's thread, as they went before */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	started = wake[0] >= 0 && pthread_create(&tid, NULL, reader_main, pl) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!started) {                     /* one thread after all */
		pd_order_free(&s->order);
		pd_order_init(&s->order, pd_order_default_cap(), fn, s);
		s->emit = fn;
		s->emit_ctx = s;
		s->pl = NULL;
		s->in.wake_fd = -1;
		if (wake[0] >= 0) {
			close(wake[0]);
			close(wake[1]);
		}
		pl_free(pl);
		return read(s);
	} else {
		r = consume(pl, fn, s);
		if (forked)     /* the reader, its joins and frees are the parent's */
			return r;
		/* the reader may wait for a pipe that never ends: wake it */
		while (r && write(wake[1], "", 1) < 0 && errno == EINTR)
			;
		pthread_join(tid, NULL);
		if (r && pl->have_seen)
			keep_counters(s, &pl->seen);
		if (!r && (r = pl->r) && err)
			*err = pl->rerr;
	}
	s->pl = NULL;
	s->in.wake_fd = -1;
	close(wake[0]);
	close(wake[1]);
	pl_free(pl);
	return r;
}
