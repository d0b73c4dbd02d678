/* test_sym_rbtree.c - sym_rb (common/symbols/sym_rbtree.h): the textbook
 * shapes of known insert and erase sequences, red-black invariants and
 * in-order after every step of long random sequences with equal keys,
 * symbols__find's walk over overlapping nodes; and sym_table_seal's
 * answers where symbols overlap. perf itself is the oracle in
 * tests/symbols.test ("overlapping symbols"). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "symbols/sym_rbtree.h"
#include "symbols/sym_table.h"
#include "unit.h"

#define NIL SYM_RB_NONE
#define RED_OF(v) ((v)->parent_red >> 31)
#define PARENT_OF(v) (((v)->parent_red & 0x7fffffffu) == 0x7fffffffu ? NIL : (v)->parent_red & 0x7fffffffu)

/* "(2 B (1 B) (4 R (3 B) .))": the tree from @x, keys and colours */
static void shape(const struct sym_rb *rb, uint32_t x, char *out, size_t n)
{
	size_t l = strlen(out);
	const struct sym_rb_node *v;

	if (x == NIL) {
		snprintf(out + l, n - l, ".");
		return;
	}
	v = &rb->n[x];
	snprintf(out + l, n - l, "(%" PRIu64 " %c ", v->start, RED_OF(v) ? 'R' : 'B');
	shape(rb, v->child[0], out, n);
	l = strlen(out);
	snprintf(out + l, n - l, " ");
	shape(rb, v->child[1], out, n);
	l = strlen(out);
	snprintf(out + l, n - l, ")");
}

static const char *shape_of(const struct sym_rb *rb)
{
	static char buf[1024];

	buf[0] = 0;
	shape(rb, rb->root, buf, sizeof(buf));
	return buf;
}

static void test_known_shapes(void)
{
	struct sym_rb rb;

	sym_rb_init(&rb);
	for (uint32_t i = 0; i < 7; i++)
		sym_rb_insert(&rb, i, i + 1);
	T_STR(shape_of(&rb), "(2 B (1 B . .) (4 R (3 B . .) (6 B (5 R . .) (7 R . .))))",
	      "1..7 inserted in order: rotations and recolourings as the textbook takes them");
	sym_rb_erase(&rb, 1);         /* the root, 2: its successor 3 is not its right child */
	T_STR(shape_of(&rb), "(3 B (1 B . .) (6 R (4 B . (5 R . .)) (7 B . .)))",
	      "the root erased: the successor moves up, the far red nephew rotates");
	sym_rb_erase(&rb, 0);         /* 1: a black leaf with a red sibling */
	T_STR(shape_of(&rb), "(6 B (4 R (3 B . .) (5 B . .)) (7 B . .))",
	      "a black leaf erased under a red sibling: rotate it up, then the far red nephew's case");
	sym_rb_free(&rb);

	sym_rb_init(&rb);
	for (uint32_t i = 0; i < 5; i++)
		sym_rb_insert(&rb, i, 10);
	T_STR(shape_of(&rb), "(10 B (10 B . .) (10 B (10 R . .) (10 R . .)))",
	      "equal keys go right, as perf's __symbols__insert sends them");
	sym_rb_free(&rb);
}

/* red-black rules below @x, parents, and keys in order; the black height */
static int check(const struct sym_rb *rb, uint32_t x, uint32_t parent, int *ok)
{
	int l, r;

	if (x == NIL)
		return 1;
	if (PARENT_OF(&rb->n[x]) != parent ||
	    (RED_OF(&rb->n[x]) && parent != NIL && RED_OF(&rb->n[parent])))
		*ok = 0;
	l = check(rb, rb->n[x].child[0], x, ok);
	r = check(rb, rb->n[x].child[1], x, ok);
	if (l != r)
		*ok = 0;
	return l + !RED_OF(&rb->n[x]);
}

static size_t in_order(const struct sym_rb *rb, uint32_t x, uint32_t *out, size_t k)
{
	if (x == NIL)
		return k;
	k = in_order(rb, rb->n[x].child[0], out, k);
	out[k++] = x;
	return in_order(rb, rb->n[x].child[1], out, k);
}

#define NR 1500

static void test_random(unsigned seed)
{
	static uint64_t key[NR];
	static uint32_t got[NR];
	static char present[NR];
	struct sym_rb rb;
	uint32_t bad_at = NIL;
	unsigned s = seed;

	sym_rb_init(&rb);
	memset(present, 0, sizeof(present));
	for (uint32_t i = 0; i < NR && bad_at == NIL; i++) {
		int ok = 1;
		size_t n, want = 0;

		s = s * 1103515245u + 12345u;
		key[i] = (s >> 8) % 300;          /* many equal keys */
		sym_rb_insert(&rb, i, key[i]);
		present[i] = 1;
		s = s * 1103515245u + 12345u;
		if ((s >> 8) % 5 < 2) {            /* erase one present node */
			uint32_t k = (s >> 12) % (i + 1);

			while (!present[k])
				k = (k + 1) % (i + 1);
			sym_rb_erase(&rb, k);
			present[k] = 0;
		}
		if (rb.root != NIL && (RED_OF(&rb.n[rb.root]) || PARENT_OF(&rb.n[rb.root]) != NIL))
			ok = 0;
		check(&rb, rb.root, NIL, &ok);
		n = in_order(&rb, rb.root, got, 0);
		/* in order: by key, equal keys in insertion order */
		for (size_t j = 0; j + 1 < n; j++)
			if (key[got[j]] > key[got[j + 1]] ||
			    (key[got[j]] == key[got[j + 1]] && got[j] > got[j + 1]))
				ok = 0;
		for (uint32_t j = 0; j <= i; j++)
			want += present[j];
		if (!ok || n != want)
			bad_at = i;
	}
	T(bad_at == NIL, "seed %u: %d inserts and their erases keep the red-black rules and the order"
	  " (first broken at step %d)", seed, NR, bad_at == NIL ? -1 : (int)bad_at);
	sym_rb_free(&rb);
}

static uint64_t ends[8];

static uint64_t end_of(const void *ctx, uint32_t item)
{
	(void)ctx;
	return ends[item];
}

static void test_find(void)
{
	struct sym_rb rb;

	sym_rb_init(&rb);
	/* 2 [20,100) is the root over 1 [10,20) and 3 [30,40): it holds 35 first */
	sym_rb_insert(&rb, 0, 10);
	sym_rb_insert(&rb, 1, 20);
	sym_rb_insert(&rb, 2, 30);
	for (uint32_t i = 0; i < 3; i++)
		sym_rb_set(&rb, i, i);
	ends[0] = 20;
	ends[1] = 100;
	ends[2] = 40;
	T_EQ(sym_rb_find(&rb, 35, end_of, NULL), 1, "the walk stops at the first node holding the address");
	T_EQ(sym_rb_find(&rb, 15, end_of, NULL), 0, "left of the root");
	T_EQ(sym_rb_find(&rb, 20, end_of, NULL), 1, "an end is outside: 20 is the root's, not the left's");
	T_EQ(sym_rb_find(&rb, 100, end_of, NULL), NIL, "the root's end is outside it");
	ends[2] = 30;                  /* zero size: holds its start only */
	ends[1] = 25;
	T_EQ(sym_rb_find(&rb, 30, end_of, NULL), 2, "a zero-size node holds its start");
	T_EQ(sym_rb_find(&rb, 31, end_of, NULL), NIL, "and nothing after");
	sym_rb_free(&rb);
}

/* a table built as the loaders build one: @n symbols added in order, a
 * FINISH entry runs sym_table_finish (an ELF pass's fixups), the end sorts
 * the rest (the PLT's way) and seals; @track: perf's tree replayed */
#define FINISH { 0, 0, NULL }
struct spec {
	uint64_t start, len;
	const char *name;
};

static void build(struct sym_table *t, int track, const struct spec *s, size_t n)
{
	sym_table_init(t);
	if (track)
		sym_table_track(t);
	for (size_t i = 0; i < n; i++)
		if (!s[i].name)
			sym_table_finish(t);
		else
			T_EQ(sym_table_add(t, s[i].start, s[i].len, 1, s[i].name, strlen(s[i].name)), 0,
			     "add %s", s[i].name);
	sym_table_sort(t);
	sym_table_seal(t);
}

static const char *name_at(struct sym_table *t, uint64_t addr)
{
	const struct sym_entry *e = sym_table_find(t, addr);

	return e ? sym_table_name(t, e) : "-";
}

static void test_seal(void)
{
	/* a0, _init of size 0, main; then two PLT slots. perf's tree: _init
	 * becomes the root at main's insert, is stretched to main, and the
	 * slots go below main: every walk into [0x1000, 0x1130) meets _init
	 * first, where a binary search of the sorted array finds the slot */
	static const struct spec plt[] = {
		{ 0x800, 0x100, "a0" }, { 0x1000, 0, "_init" }, { 0x1130, 0x20, "main" }, FINISH,
		{ 0x1030, 16, "p0@plt" }, { 0x1040, 16, "p1@plt" },
	};
	/* B [0x2000, 0x2040) is the root, C [0x2010, 0x2080) its right: the
	 * walk meets B first up to B's end, C after it */
	static const struct spec bc[] = { { 0x2000, 0x40, "B" }, { 0x2010, 0x70, "C" }, FINISH };
	/* sorted only (as the PLT's slots are): Z of size 0 at 0x3010 is the
	 * root, A [0x3000, 0x3040) its left; Z holds 0x3010 alone, and a walk
	 * for the bytes after it goes right of Z, where there is nothing */
	static const struct spec za[] = { { 0x3010, 0, "Z" }, { 0x3000, 0x40, "A" } };
	struct sym_table t, u;
	unsigned bad = 0;

	build(&t, 1, plt, sizeof(plt) / sizeof(plt[0]));
	T(t.nspans == 1 && t.npieces == 0, "sealed: one overlap noted, not yet answered");
	T_STR(name_at(&t, 0x850), "a0", "a0, before the overlap");
	T(t.nspans == 1 && t.npieces == 0, "a lookup outside it replays nothing");
	T_STR(name_at(&t, 0x1000), "_init", "_init's start");
	T(!t.tracking && !t.nspans && t.npieces > 0, "the first lookup in it: %zu pieces kept, "
	  "the log gone", t.npieces);
	T_STR(name_at(&t, 0x1030), "_init", "p0's first byte: perf's walk meets _init first");
	T_STR(name_at(&t, 0x1045), "_init", "p1's: the same");
	T_STR(name_at(&t, 0x1138), "main", "main, past the overlap");
	T_STR(name_at(&t, 0x850), "a0", "a0, before it");
	T_STR(name_at(&t, 0x900), "-", "between a0's end and _init: none");
	T_STR(name_at(&t, 0x2000), "-", "beyond every symbol: none");
	sym_table_free(&t);

	/* a symbol added after the seal: the overlaps' answers go, the plain
	 * search answers (no lookup had replayed the tree yet) */
	for (int track = 1; track >= 0; track--) {
		build(track ? &t : &u, track, plt, sizeof(plt) / sizeof(plt[0]));
		T_EQ(sym_table_add(track ? &t : &u, 0x1050, 16, 1, "p2@plt", 6), 0, "add after the seal");
		sym_table_sort(track ? &t : &u);
	}
	T(!t.tracking && !t.nspans && !t.npieces, "added to after the seal: nothing of the tree kept");
	for (uint64_t a = 0x800; a < 0x1200; a++)
		if (strcmp(name_at(&t, a), name_at(&u, a)) && !bad++)
			T(0, "added to after the seal, at %#" PRIx64 ": %s, the plain search %s", a,
			  name_at(&t, a), name_at(&u, a));
	T(!bad, "added to after the seal: every address as the plain search names it");
	sym_table_free(&t);
	sym_table_free(&u);

	build(&t, 1, bc, sizeof(bc) / sizeof(bc[0]));
	T_STR(name_at(&t, 0x2010), "B", "both hold 0x2010: the root's");
	T_STR(name_at(&t, 0x203f), "B", "B's last byte");
	T_STR(name_at(&t, 0x2040), "C", "B's end: C's alone");
	T_STR(name_at(&t, 0x2080), "-", "C's end: none");
	sym_table_free(&t);

	build(&t, 1, za, sizeof(za) / sizeof(za[0]));
	T_STR(name_at(&t, 0x3000), "A", "before Z: A");
	T_STR(name_at(&t, 0x3010), "Z", "Z's start: Z");
	T_STR(name_at(&t, 0x3011), "-", "the byte after a zero-size root: none, as perf finds");
	T_STR(name_at(&t, 0x3040), "-", "A's end: none");
	sym_table_free(&t);

	/* untracked, the first table answers by binary search alone */
	build(&t, 0, plt, sizeof(plt) / sizeof(plt[0]));
	T(t.npieces == 0, "untracked: no pieces");
	T_STR(name_at(&t, 0x1030), "p0@plt", "untracked: the slot, by binary search");
	sym_table_free(&t);
}

/* where table @ctx's entry @item ends, for the reference walk */
static uint64_t table_end(const void *ctx, uint32_t item)
{
	return sym_end(&((const struct sym_table *)ctx)->syms[item]);
}

/*
 * The table replays the tree only at its first lookup in an overlap, from
 * a log of the erases: it must give the answers of the tree built as the
 * loading went. Two passes (.symtab, then .dynsym) of sized symbols at
 * random starts, some starts twice (one GLOBAL, one LOCAL: finish erases
 * the LOCAL one); the reference tree takes every add and, at each finish,
 * the erases in ascending start, as perf's symbols__fixup_duplicate.
 */
static void test_lazy_replay(unsigned seed)
{
	enum { N = 48, SPAN = 160 };
	unsigned char count[SPAN] = { 0 }, first_global[SPAN] = { 0 };
	uint32_t seq_at[SPAN][2];
	struct sym_table t;
	struct sym_rb ref;
	unsigned bad = 0, x = seed;
	uint32_t seq = 0;

	sym_table_init(&t);
	sym_table_track(&t);
	sym_rb_init(&ref);
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < N; i++) {
			unsigned at, global;
			char name[16];

			do {
				x = x * 1103515245u + 12345u;
				at = (x >> 8) % SPAN;
			} while (count[at] == 2);
			global = count[at] ? !first_global[at] : (x >> 20) & 1;
			if (!count[at])
				first_global[at] = (unsigned char)global;
			seq_at[at][count[at]++] = seq;
			snprintf(name, sizeof(name), "s%04u", (unsigned)seq);
			sym_table_add(&t, 16u * at, 1 + (x >> 24) % 64, global ? 1 : 0, name, 5);
			sym_rb_insert(&ref, seq++, 16u * at);
		}
		sym_table_finish(&t);
		for (unsigned at = 0; at < SPAN; at++)    /* the LOCAL one of a pair goes */
			if (count[at] == 2 && seq_at[at][1] != UINT32_MAX) {
				sym_rb_erase(&ref, seq_at[at][first_global[at]]);
				seq_at[at][1] = UINT32_MAX;
			}
	}
	sym_table_seal(&t);
	for (size_t i = 0; i < t.nr; i++)
		sym_rb_set(&ref, sym_seq(&t.syms[i]), (uint32_t)i);
	T(t.nspans > 0, "seed %u: symbols overlap (%zu spans)", seed, t.nspans);
	for (uint64_t a = 0; a < 16u * SPAN + 64; a++) {
		const struct sym_entry *e = sym_table_find(&t, a);
		uint32_t want = sym_rb_find(&ref, a, table_end, &t);

		if ((e ? (uint32_t)(e - t.syms) : NIL) != want && !bad++)
			T(0, "seed %u: at %#" PRIx64 " the table finds %d, the tree %d", seed, a,
			  e ? (int)(e - t.syms) : -1, want == NIL ? -1 : (int)want);
	}
	T(!bad, "seed %u: every address named as the tree built while loading names it", seed);
	sym_rb_free(&ref);
	sym_table_free(&t);
}

int main(void)
{
	test_known_shapes();
	test_random(1);
	test_random(2);
	test_random(77);
	test_find();
	test_seal();
	for (unsigned seed = 1; seed <= 40; seed++)
		test_lazy_replay(seed);
	return done();
}
