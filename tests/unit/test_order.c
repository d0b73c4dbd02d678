/* test_order.c - pd_order (common/perfdata/pd_order.h) against perf's ordered-events
 * rules, perf-data-format.md section 7: round limit, first round, arrival
 * order on equal times, empty rounds, final flush, block reuse; a memory cap
 * that spills sorted runs to a temporary file and merges them back, in
 * exactly the order an unbounded queue gives. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "perfdata/pd_format.h"
#include "perfdata/pd_order.h"
#include "util/tb_err.h"
#include "unit.h"

/* ---- a 16-byte record: header + u64 time ---- */

struct log {
	char text[512];          /* "R(1 3) F(4)": what each round and the final flush gave */
	size_t len;
	int misaligned;
	int fail_at;             /* return -5 when delivering this time (0: never) */
	uint64_t offsets[16];    /* file offsets in delivery order */
	unsigned nr;
};

static void logf_(struct log *l, const char *s)
{
	size_t n = strlen(s);

	if (l->len + n < sizeof(l->text)) {
		memcpy(l->text + l->len, s, n + 1);
		l->len += n;
	}
}

/* the hint a test record is queued with: the queue hands it back as it was */
#define HINT_OF(n) ((uint32_t)(n) * 2654435761u ^ 0x5a5a5a5au)

static int deliver_small(void *ctx, const unsigned char *rec, size_t size, uint64_t off,
			 uint32_t hint)
{
	struct log *l = ctx;
	char buf[32];

	if ((uintptr_t)rec % 8)
		l->misaligned++;
	snprintf(buf, sizeof(buf), "%s%llu", l->text[l->len - 1] == '(' ? "" : " ",
		 (unsigned long long)pd_u64(rec + 8));
	logf_(l, buf);
	if (l->nr < 16)
		l->offsets[l->nr++] = off;
	if (size != 16 || hint != HINT_OF(pd_u64(rec + 8)))
		return -1;
	return l->fail_at && pd_u64(rec + 8) == (uint64_t)l->fail_at ? -5 : 0;
}

static int push_small(struct pd_order *q, uint64_t time, uint64_t off)
{
	unsigned char rec[16];

	put_u64(rec, put_u16(rec, put_u16(rec, put_u32(rec, 0, PD_REC_SAMPLE), 1), 16), time);
	return pd_order_push(q, rec, sizeof(rec), time, off, HINT_OF(time));
}

/* Run @script ("3 R 1 R 4 R": times and rounds), then a final flush; the
 * log shows what each round delivered: "R() R(1 3) R() F(4)". */
static const char *run(const char *script, struct log *l, uint64_t *unordered)
{
	struct pd_order q;
	char *copy = strdup(script), *tok, *save = NULL;
	uint64_t off = 0;

	memset(l, 0, sizeof(*l));
	pd_order_init(&q, 0, deliver_small, l);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		if (!strcmp(tok, "R")) {
			logf_(l, l->len ? " R(" : "R(");
			pd_order_round(&q);
			logf_(l, ")");
		} else {
			push_small(&q, strtoull(tok, NULL, 10), off++);
		}
	}
	logf_(l, l->len ? " F(" : "F(");
	pd_order_flush_all(&q);
	logf_(l, ")");
	if (unordered)
		*unordered = q.nr_unordered;
	pd_order_free(&q);
	free(copy);
	return l->text;
}

static void test_rounds(void)
{
	struct log l;
	uint64_t unordered;

	T_STR(run("3 R 1 R 4 R", &l, &unordered), "R() R(1 3) R() F(4)",
	      "\"3 R 1 R 4 R\" delivers 1, 3, 4");
	T_EQ(unordered, 0, "\"3 R 1 R 4 R\": nothing out of order");

	T_STR(run("3 R 4 R 1 R", &l, &unordered), "R() R(3) R(1 4) F()",
	      "\"3 R 4 R 1 R\" delivers 3, 1, 4");
	T_EQ(unordered, 1, "\"3 R 4 R 1 R\": 1 out-of-order event, as perf reports");

	T_STR(run("1 2 3 R", &l, NULL), "R() F(1 2 3)", "the first round delivers nothing");
	T_STR(run("5 4 R 9 7 R 8 R", &l, &unordered), "R() R(4 5) R(7 8 9) F()",
	      "each round delivers up to the maximum queued at the round before");
	T_EQ(unordered, 0, "...with nothing out of order");
	T_STR(run("9 8 7 R 6 5", &l, NULL), "R() F(5 6 7 8 9)", "the final flush delivers all, sorted");
	T(!l.misaligned && l.nr == 5, "every delivered copy is 8-byte aligned");
	T_STR(run("", &l, NULL), "F()", "an empty stream delivers nothing");
	T_STR(run("R R", &l, NULL), "R() R() F()", "rounds with nothing queued are harmless");

	/* "5 R R R 4 R": the third round finds the queue empty. perf returns
	 * early there, so L stays 5 and the late 4 goes out at the next round. */
	T_STR(run("5 R R R 4 R", &l, &unordered), "R() R(5) R() R(4) F()",
	      "a round with an empty queue keeps the limit: the late 4 goes at the next round");
	T_EQ(unordered, 1, "...and counts as out of order");
	{
		struct pd_order q;

		memset(&l, 0, sizeof(l));
		logf_(&l, "(");
		pd_order_init(&q, 0, deliver_small, &l);
		push_small(&q, 5, 0);
		pd_order_round(&q);
		pd_order_round(&q);
		T_EQ(q.round_limit, 5, "round limit after \"5 R R\": 5");
		pd_order_round(&q);
		T_EQ(q.round_limit, 5, "round limit after an empty round: still 5");
		push_small(&q, 4, 1);
		T_EQ(q.max_time, 4, "a push into an empty queue restarts the maximum");
		pd_order_flush_all(&q);
		pd_order_free(&q);
	}
}

static void test_equal_times(void)
{
	struct pd_order q;
	struct log l;

	memset(&l, 0, sizeof(l));
	logf_(&l, "(");
	pd_order_init(&q, 0, deliver_small, &l);
	push_small(&q, 5, 100);
	push_small(&q, 5, 101);
	push_small(&q, 2, 102);
	push_small(&q, 5, 103);
	push_small(&q, 5, 104);
	pd_order_round(&q);
	T_EQ(l.nr, 0, "equal times: first round delivers nothing");
	push_small(&q, 5, 105);
	pd_order_round(&q);
	T(l.nr == 6 && l.offsets[0] == 102 && l.offsets[1] == 100 && l.offsets[2] == 101 &&
	  l.offsets[3] == 103 && l.offsets[4] == 104 && l.offsets[5] == 105,
	  "equal times keep arrival order (offsets 102, 100, 101, 103, 104, 105)");
	pd_order_free(&q);
}

static void test_deliver_error(void)
{
	struct pd_order q;
	struct log l;
	int r;

	memset(&l, 0, sizeof(l));
	logf_(&l, "(");
	l.fail_at = 2;
	pd_order_init(&q, 0, deliver_small, &l);
	push_small(&q, 1, 0);
	push_small(&q, 2, 1);
	push_small(&q, 3, 2);
	r = pd_order_round(&q);
	T_EQ(r, 0, "deliver error: nothing delivered yet at the first round");
	r = pd_order_flush_all(&q);
	T(r == -5 && l.nr == 2, "a deliver error is returned and nothing is delivered after it");
	pd_order_free(&q);
}

/* ---- large records across many blocks ---- */

#define BIG_N      1200
#define PER_ROUND  60

struct big {
	uint32_t *size_of;       /* by record number */
	uint64_t *time_of;
	unsigned delivered, corrupt, misordered, misaligned;
	uint64_t last_time, last_idx;
};

static uint32_t big_size(unsigned i)
{
	return 24 + (uint32_t)((i * 7919u) % 65500u);   /* 24..65523, up to u16 */
}

static unsigned char pattern(unsigned i, size_t at)
{
	return (unsigned char)(i * 31u + at * 7u + (at >> 8));
}

static int deliver_big(void *ctx, const unsigned char *rec, size_t size, uint64_t off,
		       uint32_t hint)
{
	struct big *b = ctx;
	unsigned i = (unsigned)off;
	int bad = 0;

	if ((uintptr_t)rec % 8)
		b->misaligned++;
	if (i >= BIG_N || size != b->size_of[i] || pd_u16(rec + 6) != (uint16_t)size ||
	    pd_u64(rec + 8) != b->time_of[i] || pd_u32(rec + 16) != i || hint != HINT_OF(i))
		bad = 1;
	for (size_t at = 20; !bad && at < size; at++)
		if (rec[at] != pattern(i, at))
			bad = 1;
	b->corrupt += bad;
	if (b->delivered && (b->time_of[i] < b->last_time ||
			     (b->time_of[i] == b->last_time && i < b->last_idx)))
		b->misordered++;
	b->last_time = b->time_of[i];
	b->last_idx = i;
	b->delivered++;
	return 0;
}

static void test_blocks(void)
{
	static unsigned char rec[65536];
	struct big b = { 0 };
	struct pd_order q;
	void *blocks[256];
	unsigned nr_blocks = 0, seed = 12345;
	uint64_t total = 0;
	int r = 0;

	b.size_of = calloc(BIG_N, sizeof(*b.size_of));
	b.time_of = calloc(BIG_N, sizeof(*b.time_of));
	pd_order_init(&q, 0, deliver_big, &b);
	for (unsigned i = 0; i < BIG_N && !r; i++) {
		uint32_t size = big_size(i);
		unsigned round = i / PER_ROUND;

		/* times inside a round are shuffled; rounds never overlap */
		seed = seed * 1103515245u + 12345u;
		b.size_of[i] = size;
		b.time_of[i] = 1000000ull * (round + 1) + (seed >> 16) % 1000;
		put_u32(rec, 0, PD_REC_SAMPLE);
		put_u16(rec, 4, 1);
		put_u16(rec, 6, (uint16_t)size);
		put_u64(rec, 8, b.time_of[i]);
		put_u32(rec, 16, i);
		for (size_t at = 20; at < size; at++)
			rec[at] = pattern(i, at);
		r = pd_order_push(&q, rec, size, b.time_of[i], i, HINT_OF(i));
		total += size;
		/* note every distinct block that receives copies */
		{
			unsigned k;

			for (k = 0; k < nr_blocks && blocks[k] != (void *)q.cur; k++)
				;
			if (k == nr_blocks && nr_blocks < 256)
				blocks[nr_blocks++] = q.cur;
		}
		if (i % PER_ROUND == PER_ROUND - 1 && !r)
			r = pd_order_round(&q);
	}
	if (!r)
		r = pd_order_flush_all(&q);
	NOTE("%u records, %llu bytes (%.1f blocks of %u KiB), %u distinct blocks used", BIG_N,
	     (unsigned long long)total, (double)total / PD_ORDER_BLOCK, PD_ORDER_BLOCK >> 10,
	     nr_blocks);
	T(r == 0 && b.delivered == BIG_N, "%u records of up to 64 KiB all delivered (%u)", BIG_N,
	  b.delivered);
	T(total > 8ull * PER_ROUND * 65536, "they span more than eight rounds of 64 KiB records");
	T_EQ(b.corrupt, 0, "every delivered record has its bytes intact");
	T_EQ(b.misordered, 0, "delivered in (time, arrival) order");
	T_EQ(b.misaligned, 0, "every copy 8-byte aligned");
	T_EQ(q.nr_unordered, 0, "nothing out of order");
	T_EQ(q.bytes, 0, "no bytes held after the final flush");
	/* at most two rounds are queued at once: the blocks are reused */
	T(nr_blocks < 256 && (uint64_t)nr_blocks * PD_ORDER_BLOCK <= 3ull * PER_ROUND * 65536 +
	  2ull * PD_ORDER_BLOCK, "emptied blocks are reused: %u blocks for %.1f blocks of data",
	  nr_blocks, (double)total / PD_ORDER_BLOCK);
	pd_order_free(&q);
	free(b.size_of);
	free(b.time_of);

	/* freeing with records still queued in several blocks must not leak
	 * (LeakSanitizer checks at exit) */
	memset(&b, 0, sizeof(b));
	pd_order_init(&q, 0, deliver_big, &b);
	memset(rec, 0, sizeof(rec));
	put_u16(rec, 6, 65000);
	for (unsigned i = 0; i < 200; i++)
		pd_order_push(&q, rec, 65000, 1000 + i, i, HINT_OF(i));
	T(q.nr == 200 && b.delivered == 0, "200 x 65000 bytes queued without a round");
	pd_order_free(&q);
	T(q.nr == 0 && q.ents == NULL, "pd_order_free with queued records (blocks freed: see LSan)");
}

/* ---- a tiny cap: rounds of interleaved per-CPU runs, spilled and merged ---- */

#define SP_CPUS    4
#define SP_ROUNDS  40
#define SP_PER_CPU 50             /* records per CPU per round */
#define SP_N       (SP_CPUS * SP_ROUNDS * SP_PER_CPU)

struct sp_log {
	uint64_t *offs;           /* file offsets in delivery order */
	unsigned nr, corrupt;
	uint64_t fail_time;       /* return -7 when delivering this time (0: never) */
	struct pd_order *q;
	size_t over_cap;          /* deliveries seen with more than the cap in memory */
};

static int deliver_sp(void *ctx, const unsigned char *rec, size_t size, uint64_t off,
		      uint32_t hint)
{
	struct sp_log *l = ctx;

	if ((uintptr_t)rec % 8 || size != pd_u16(rec + 6) || pd_u64(rec + 16) != off ||
	    hint != HINT_OF(off))
		l->corrupt++;
	for (size_t at = 24; at < size; at++)
		if (rec[at] != (unsigned char)(off + at))
			l->corrupt++;
	if (l->nr < SP_N)
		l->offs[l->nr++] = off;
	return l->fail_time && pd_u64(rec + 8) == l->fail_time ? -7 : 0;
}

/* perf record's shape: per round, each CPU's buffer is written in turn,
 * time-sorted inside, the CPUs' times interleaved; a CPU may also write
 * records older than the previous round's end (the round promise allows
 * it). Every record's time is unique but a few, which tie across CPUs. */
static int run_spill(size_t cap, struct sp_log *l, struct pd_order *q, uint64_t *spills)
{
	static unsigned char rec[256];
	uint64_t off = 0;
	int r = 0;

	memset(l->offs, 0, SP_N * sizeof(*l->offs));
	l->nr = l->corrupt = 0;
	l->over_cap = 0;
	l->q = q;
	pd_order_init(q, cap, deliver_sp, l);
	for (unsigned round = 0; round < SP_ROUNDS && !r; round++) {
		for (unsigned cpu = 0; cpu < SP_CPUS && !r; cpu++) {
			for (unsigned i = 0; i < SP_PER_CPU && !r; i++) {
				uint64_t t = 1000000ull * (round + 1) + 4000ull * i +
					     (i % 7 == 3 ? 0 : cpu * 1000 + cpu) -
					     (round && i < 3 ? 900000 : 0);
				size_t size = 24 + 8 * ((off * 13) % 20);

				put_u32(rec, 0, PD_REC_SAMPLE);
				put_u16(rec, 4, (uint16_t)cpu);
				put_u16(rec, 6, (uint16_t)size);
				put_u64(rec, 8, t);
				put_u64(rec, 16, off);
				for (size_t at = 24; at < size; at++)
					rec[at] = (unsigned char)(off + at);
				r = pd_order_push(q, rec, size, t, off, HINT_OF(off));
				off++;
				if (cap && q->bytes > cap)
					l->over_cap++;
			}
		}
		if (!r)
			r = pd_order_round(q);
	}
	if (!r)
		r = pd_order_flush_all(q);
	*spills = q->nr_spills;
	return r;
}

static void test_spill(void)
{
	struct sp_log want = { 0 }, got = { 0 };
	struct pd_order q;
	uint64_t spills, unordered;
	int r;

	want.offs = calloc(SP_N, sizeof(*want.offs));
	got.offs = calloc(SP_N, sizeof(*got.offs));
	r = run_spill(0, &want, &q, &spills);
	unordered = q.nr_unordered;
	T(r == 0 && want.nr == SP_N && spills == 0, "no cap: all %u records delivered, no spill",
	  SP_N);
	pd_order_free(&q);

	r = run_spill(4096, &got, &q, &spills);
	NOTE("cap 4096 bytes: %llu runs written (merges included)", (unsigned long long)spills);
	T(r == 0 && got.nr == SP_N, "cap 4096: all %u records delivered (%u)", SP_N, got.nr);
	T(spills > 16, "cap 4096: more than 16 runs were spilled, so runs were merged too");
	T(!memcmp(want.offs, got.offs, SP_N * sizeof(*got.offs)),
	  "cap 4096: the same order as with no cap");
	T_EQ(got.corrupt, 0, "cap 4096: every record comes back intact and 8-byte aligned");
	T_EQ(got.over_cap, 0, "cap 4096: memory never held more than the cap");
	T_EQ(q.nr_unordered, unordered, "cap 4096: the same out-of-order count as with no cap");
	T(q.nr_runs == 0 && q.nr_spilled == 0 && q.spill_fd >= 0 && q.spill_end == 0,
	  "cap 4096: after the final flush no run is left and the spill file is empty again");
	pd_order_free(&q);

	/* a cap smaller than one record: every push spills */
	r = run_spill(64, &got, &q, &spills);
	T(r == 0 && !memcmp(want.offs, got.offs, SP_N * sizeof(*got.offs)) && !got.corrupt,
	  "cap 64 (below one record): still the same order, records intact");
	pd_order_free(&q);

	/* a delivery error with runs queued: returned, and nothing after it */
	got.fail_time = 1000000ull * 21 + 4000ull * 11 + 2000 + 2;    /* round 20, cpu 2, i 11 */
	r = run_spill(4096, &got, &q, &spills);
	{
		unsigned k;

		for (k = 0; k < want.nr && want.offs[k] != got.offs[got.nr ? got.nr - 1 : 0]; k++)
			;
		T(r == -7 && got.nr > 0 && got.nr == k + 1 &&
		  !memcmp(want.offs, got.offs, got.nr * sizeof(*got.offs)),
		  "cap 4096, a delivery fails: its error comes back, the records before it "
		  "went out in order, none after (%u)", got.nr);
	}
	{
		unsigned before = got.nr;

		T(pd_order_flush_all(&q) == -7 && got.nr == before,
		  "a flush after the failure delivers nothing and returns the error again");
	}
	/* freeing with spilled runs queued must not leak (LSan) or keep the fd */
	pd_order_free(&q);
	free(want.offs);
	free(got.offs);
}

int main(void)
{
	test_rounds();
	test_equal_times();
	test_deliver_error();
	test_blocks();
	test_spill();
	return done();
}
