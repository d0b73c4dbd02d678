/* sym_table.c - a DSO's symbol array: add, fix ends and duplicates as
 * perf 6.1's symbols__fixup_end / symbols__fixup_duplicate do, look up
 * by binary search with perf's symbols__find rule (and, where symbols
 * overlap, by the answers of perf's tree, replayed on the first lookup there). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/sym_rbtree.h"
#include "symbols/sym_table.h"
#include "util/io.h"

/* an erase perf's tree saw: the entry's start and seq, and how many
 * inserts (the entries of lower seq) came before it */
struct sym_erase {
	uint64_t start;
	uint32_t seq, inserted;
};

/* overlapping symbols syms[from..to), over [start, end): not yet answered */
struct sym_span {
	uint64_t start, end;
	uint32_t from, to;
};

#define BIND_GLOBAL 1
#define BIND_WEAK   2

/* room in the array *@v of @size-byte items for one more than @n: its
 * capacity *@cap doubled (from @first); 0, or -1 (ENOMEM, the array kept) */
static int grow(void *v, size_t *cap, size_t n, size_t size, size_t first)
{
	size_t nc = *cap ? *cap * 2 : first;
	void *nv;

	if (n < *cap)
		return 0;
	if (!(nv = realloc(*(void **)v, nc * size)))
		return -1;
	*(void **)v = nv;
	*cap = nc;
	return 0;
}

/* the index of the last of @n items (@size bytes each, a uint64_t start
 * first, sorted by it) starting at or before @addr, or @n if none does */
static size_t last_starting(const void *v, size_t n, size_t size, uint64_t addr)
{
	size_t a = 0, z = n;
	uint64_t start;

	if (!n)
		return n;
	memcpy(&start, v, sizeof(start));
	if (addr < start)
		return n;
	while (z - a > 1) {
		size_t mid = a + (z - a) / 2;

		memcpy(&start, (const char *)v + mid * size, sizeof(start));
		if (start <= addr)
			a = mid;
		else
			z = mid;
	}
	return a;
}

void sym_table_init(struct sym_table *t)
{
	memset(t, 0, sizeof(*t));
}

static void untrack(struct sym_table *t)
{
	free(t->erased);
	free(t->spans);
	t->erased = NULL;
	t->spans = NULL;
	t->nerased = t->erased_cap = t->nspans = 0;
	t->tracking = 0;
}

/* the answers sym_table_seal kept go: the plain search answers */
static void drop_pieces(struct sym_table *t)
{
	free(t->pieces);
	t->pieces = NULL;
	t->npieces = 0;
}

void sym_table_track(struct sym_table *t)
{
	if (!t->next_seq)
		t->tracking = 1;
}

/* perf's rb_erase of @e (finish's duplicates); no memory: untracked */
static void log_erase(struct sym_table *t, const struct sym_entry *e)
{
	if (grow(&t->erased, &t->erased_cap, t->nerased, sizeof(*t->erased), 64)) {
		untrack(t);
		return;
	}
	t->erased[t->nerased++] = (struct sym_erase){ e->start, sym_seq(e), t->next_seq };
}

void sym_table_free(struct sym_table *t)
{
	for (size_t i = 0; i < t->dm_slots; i++)
		free((char *)t->dm[i].shown);
	free(t->dm);
	drop_pieces(t);
	untrack(t);
	free(t->syms);
	free(t->strs);
	for (size_t i = 0; i < SYM_MAX_BORROW; i++) {
		int fd = t->borrowed[i].len ? t->borrowed[i].fd : -1;

		for (size_t j = i + 1; j < SYM_MAX_BORROW && fd >= 0; j++)
			if (t->borrowed[j].len && t->borrowed[j].fd == fd)
				fd = -1;          /* closed with the last source using it */
		if (fd >= 0)
			close(fd);
	}
	sym_table_init(t);
}

/* A borrowed name read back from its file: malloc'd, or NULL. The text
 * ends in a NUL (sym_table_borrow), so the read ends. */
static char *read_back(const struct sym_text *x, size_t off)
{
	size_t cap = 256, have = 0;
	char *buf = NULL;

	for (;;) {
		size_t want = cap - have;
		char *nb = realloc(buf, cap);
		ssize_t n;

		if (!nb) {
			free(buf);
			errno = ENOMEM;
			return NULL;
		}
		buf = nb;
		if (want > x->len - off - have)
			want = x->len - off - have;
		n = preadn(x->fd, buf + have, want, x->file_off + off + have);
		if (n <= 0)
			break;
		if (memchr(buf + have, 0, (size_t)n))
			return buf;
		have += (size_t)n;
		if ((size_t)n < want || off + have >= x->len)
			break;
		if (have == cap)
			cap *= 2;
	}
	free(buf);
	errno = EIO;              /* the file changed under us */
	return NULL;
}

const char *sym_table_shown(struct sym_table *t, const struct sym_entry *e)
{
	uint32_t src = SYM_NAME_SRC(e->name);
	int away = src && !t->borrowed[src - 1].text;     /* the name must be read back */
	int plain = !t->demangle || (sym_bind(e) & SYM_FINAL_NAME);
	const char *raw;
	size_t mask, i;
	char *d, *back = NULL;

	if (plain && !away)
		return sym_table_name(t, e);
	if ((t->dm_used + 1) * 2 > t->dm_slots) {
		size_t ns = t->dm_slots ? t->dm_slots * 2 : 64;
		struct sym_dm *nd = calloc(ns, sizeof(*nd));

		if (!nd)
			return NULL;
		for (size_t j = 0; j < t->dm_slots; j++) {
			size_t k;

			if (!t->dm[j].name)
				continue;
			k = (t->dm[j].name * 2654435761u) & (ns - 1);   /* name is +1 */
			while (nd[k].name)
				k = (k + 1) & (ns - 1);
			nd[k] = t->dm[j];
		}
		free(t->dm);
		t->dm = nd;
		t->dm_slots = ns;
	}
	mask = t->dm_slots - 1;
	for (i = ((e->name + 1) * 2654435761u) & mask; t->dm[i].name; i = (i + 1) & mask)
		if (t->dm[i].name == e->name + 1)
			return t->dm[i].shown ? t->dm[i].shown : sym_table_name(t, e);
	if (away && !(back = read_back(&t->borrowed[src - 1], SYM_NAME_OFF(e->name)))) {
		errno = errno == ENOMEM ? ENOMEM : EIO;
		return NULL;
	}
	raw = back ? back : sym_table_name(t, e);
	d = plain ? NULL : t->demangle(raw);
	if (d)
		free(back);
	else if (back)
		d = back;         /* the name read back is the one shown */
	else if (src && !(d = strdup(raw)))
		return NULL;      /* a borrowed text goes: keep a copy */
	t->dm[i].name = e->name + 1;
	t->dm[i].shown = d;     /* NULL: the arena's name (the arena may still move) */
	t->dm_used++;
	return d ? d : raw;
}

/* @e ends at @end, cut to UINT32_MAX bytes; an end before the start (a
 * length that wrapped) makes it hold nothing, as in perf */
static void set_end(struct sym_entry *e, uint64_t end)
{
	uint64_t size = end - e->start;

	if (end < e->start) {
		e->size = 0;
		e->seq_bind |= SYM_WRAPPED;
		return;
	}
	e->size = size > UINT32_MAX ? UINT32_MAX : (uint32_t)size;
}

/* size 0 and not wrapped: perf's end == start, which fixup_end moves */
static int zero_size(const struct sym_entry *e)
{
	return e->size == 0 && !sym_wrapped(e);
}

/* A new entry for [@start, @start + @len), its name not set; NULL on ENOMEM. */
static struct sym_entry *new_entry(struct sym_table *t, uint64_t start, uint64_t len, int bind)
{
	struct sym_entry *e;

	if (t->next_seq >= SYM_MAX_SEQ)
		return NULL;
	if (grow(&t->syms, &t->cap, t->nr, sizeof(*t->syms), 256))
		return NULL;
	/* past the limit, or added to after the seal: the plain search's answers */
	if (t->tracking && (t->next_seq >= SYM_MAX_TRACKED || t->nspans))
		untrack(t);
	drop_pieces(t);           /* answers kept go stale */
	e = &t->syms[t->nr++];
	e->start = start;
	e->seq_bind = t->next_seq++ << 8 | (uint8_t)bind;
	set_end(e, len ? start + len : start);
	return e;
}

int sym_table_add(struct sym_table *t, uint64_t start, uint64_t len, int bind,
		  const char *name, size_t name_len)
{
	struct sym_entry *e;

	if (name_len >= SYM_MAX_TEXT || t->strs_len + name_len + 1 > SYM_MAX_TEXT)
		return -1;
	if (t->strs_len + name_len + 1 > t->strs_cap) {
		size_t cap = t->strs_cap ? t->strs_cap : 4096;
		char *ns;

		while (cap < t->strs_len + name_len + 1)
			cap *= 2;
		ns = realloc(t->strs, cap);
		if (!ns)
			return -1;
		t->strs = ns;
		t->strs_cap = cap;
	}
	if (!(e = new_entry(t, start, len, bind)))
		return -1;
	e->name = (uint32_t)t->strs_len;
	memcpy(t->strs + t->strs_len, name, name_len);
	t->strs[t->strs_len + name_len] = 0;
	t->strs_len += name_len + 1;
	return 0;
}

unsigned sym_table_borrow(struct sym_table *t, const char *text, size_t len, int fd,
			  uint64_t file_off)
{
	if (!len || len > SYM_MAX_TEXT || text[len - 1] || fd < 0)
		return 0;
	for (unsigned i = 0; i < SYM_MAX_BORROW; i++) {
		struct sym_text *x = &t->borrowed[i];

		if (x->len && x->text == text)
			return i + 1;
		if (!x->len) {
			x->text = text;
			x->len = len;
			x->fd = fd;
			x->file_off = file_off;
			return i + 1;
		}
	}
	return 0;
}

void sym_table_text_gone(struct sym_table *t)
{
	for (unsigned i = 0; i < SYM_MAX_BORROW; i++)
		t->borrowed[i].text = NULL;
}

int sym_table_add_ref(struct sym_table *t, uint64_t start, uint64_t len, int bind,
		      unsigned src, size_t off)
{
	struct sym_entry *e;

	if (src < 1 || src > SYM_MAX_BORROW || off >= SYM_MAX_TEXT ||
	    !(e = new_entry(t, start, len, bind)))
		return -1;
	e->name = (uint32_t)src << 30 | (uint32_t)off;
	return 0;
}

static inline int before(const struct sym_entry *x, const struct sym_entry *y)
{
	return x->start < y->start || (x->start == y->start && x->seq_bind < y->seq_bind);
}

/* by (start, seq) for a few entries: insertion */
static void sort_small(struct sym_entry *v, size_t n)
{
	for (size_t i = 1; i < n; i++) {
		struct sym_entry x = v[i];
		size_t k = i;

		while (k && before(&x, &v[k - 1])) {
			v[k] = v[k - 1];
			k--;
		}
		v[k] = x;
	}
}

/*
 * by (start, seq): an in-place radix sort on start, a byte at a time from
 * @shift down (no scratch memory; the bytes all entries share are passed
 * over at the cost of a count), equal starts then by seq. Faster than a
 * quicksort of 20-byte entries by about half on a big library's table.
 */
static void radix_sort(struct sym_entry *v, size_t n, int shift)
{
	size_t count[256] = { 0 }, next[256], end[256], at = 0;

	while (n >= 32) {
		for (size_t i = 0; i < n; i++)
			count[(v[i].start >> shift) & 0xff]++;
		if (count[(v[0].start >> shift) & 0xff] != n)
			break;
		count[(v[0].start >> shift) & 0xff] = 0;      /* one byte for all */
		if (shift == 0) {
			sort_small(v, n);      /* one start: by seq (never many) */
			return;
		}
		shift -= 8;
	}
	if (n < 32) {
		sort_small(v, n);
		return;
	}
	for (int b = 0; b < 256; b++) {
		next[b] = at;
		at += count[b];
		end[b] = at;
	}
	for (int b = 0; b < 256; b++)
		while (next[b] < end[b]) {
			struct sym_entry x = v[next[b]];
			unsigned d = (unsigned)(x.start >> shift) & 0xff;

			while (d != (unsigned)b) {      /* follow the cycle home */
				struct sym_entry y = v[next[d]];

				v[next[d]++] = x;
				x = y;
				d = (unsigned)(x.start >> shift) & 0xff;
			}
			v[next[b]++] = x;
		}
	for (size_t b = 0, from = 0; b < 256; from = end[b], b++) {
		size_t len = end[b] - from;

		if (len > 1 && shift)
			radix_sort(v + from, len, shift - 8);
		else if (len > 1)
			sort_small(v + from, len);
	}
}

static void sort_entries(struct sym_entry *v, size_t n)
{
	radix_sort(v, n, 56);
}

/* Sort the table. A few entries added to a sorted table (the PLT's after
 * the symbols) are sorted alone and merged in, through a copy of them
 * only; else all are sorted in place (a scratch copy of a big table
 * would show in the peak memory). */
static void sort_new(struct sym_table *t)
{
	size_t head = t->sorted, m = t->nr - head;
	struct sym_entry *tmp = head && m <= head / 8 ? malloc(m * sizeof(*tmp)) : NULL;

	if (!tmp) {
		sort_entries(t->syms, t->nr);
		return;
	}
	sort_entries(t->syms + head, m);
	memcpy(tmp, t->syms + head, m * sizeof(*tmp));
	/* from the end: the new entries come after old ones of equal start */
	for (size_t i = head, j = m, k = t->nr; j; )
		t->syms[--k] = i && before(&tmp[j - 1], &t->syms[i - 1]) ? t->syms[--i] : tmp[--j];
	free(tmp);
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's arch__choose_best_symbol, the last rule: a kernel syscall alias yields */
static int sys_alias(const char *name)
{
	return !strncmp(name, "SyS", 3) || !strncmp(name, "compat_SyS", 10);
}

/* perf's (s64)(end - start); a wrapped length counts as negative */
static int64_t perf_len(const struct sym_entry *e)
{
	return sym_wrapped(e) ? -1 : (int64_t)e->size;
}

/* perf's choose_best_symbol (on the names as shown): 1 if @a stays, 0 if @b replaces it */
static int keep_first(struct sym_table *t, const struct sym_entry *a, const struct sym_entry *b)
{
	int64_t la = perf_len(a), lb = perf_len(b);
	int ba = sym_bind(a) & ~SYM_FLAGS, bb = sym_bind(b) & ~SYM_FLAGS;
	const char *na, *nb;
	size_t ua, ub, sa, sb;

	if (lb == 0 && la > 0)
		return 1;
	if (la == 0 && lb > 0)
		return 0;
	if ((ba == BIND_WEAK) != (bb == BIND_WEAK))
		return bb == BIND_WEAK;
	if ((ba == BIND_GLOBAL) != (bb == BIND_GLOBAL))
		return ba == BIND_GLOBAL;
	if (!strcmp(sym_table_name(t, a), sym_table_name(t, b)))
		return !sys_alias(sym_table_name(t, a));    /* one name (.symtab and .dynsym) */
	na = sym_table_shown(t, a);
	nb = sym_table_shown(t, b);
	if (!na || !nb)
		return 1;
	ua = underscores(na);
	ub = underscores(nb);
	if (ua != ub)
		return ub > ua;
	sa = strlen(na);
	sb = strlen(nb);
	if (sa != sb)
		return sa > sb;
	return !sys_alias(na);
}

int sym_table_finish(struct sym_table *t)
{
	size_t i, n = 0;

	if (t->nr == 0)
		return 0;
	if (t->sorted != t->nr)
		sort_new(t);
	/* symbols__fixup_end, is_kallsyms false */
	for (i = 0; i + 1 < t->nr; i++)
		if (zero_size(&t->syms[i]))
			set_end(&t->syms[i], t->syms[i + 1].start);
	if (zero_size(&t->syms[t->nr - 1])) {
		uint64_t s = t->syms[t->nr - 1].start;
		uint64_t e = ((s + 4095) & ~4095ULL) + 4096;

		set_end(&t->syms[t->nr - 1], e > s ? e : UINT64_MAX);
	}
	/* symbols__fixup_duplicate */
	for (i = 0; i < t->nr; i++) {
		if (n && t->syms[n - 1].start == t->syms[i].start) {
			int first = keep_first(t, &t->syms[n - 1], &t->syms[i]);

			if (t->tracking)      /* perf's rb_erase, in the same order */
				log_erase(t, first ? &t->syms[i] : &t->syms[n - 1]);
			if (!first)
				t->syms[n - 1] = t->syms[i];
			continue;
		}
		t->syms[n++] = t->syms[i];
	}
	t->nr = n;
	t->sorted = n;
	return 0;
}

int sym_table_sort(struct sym_table *t)
{
	sort_new(t);
	t->sorted = t->nr;
	return 0;
}

/* the end of what @e holds: a zero-size symbol holds its start */
static uint64_t reach(const struct sym_entry *e)
{
	if (sym_wrapped(e))
		return e->start;      /* nothing, but the walks turn at its start */
	return e->size ? sym_end(e) : e->start + (e->start != UINT64_MAX);
}

static int add_piece(struct sym_table *t, size_t *cap, uint64_t start, uint32_t idx)
{
	if (t->npieces && t->pieces[t->npieces - 1].idx == idx)
		return 0;
	if (grow(&t->pieces, cap, t->npieces, sizeof(*t->pieces), 16))
		return -1;
	t->pieces[t->npieces++] = (struct sym_piece){ start, idx };
	return 0;
}

/* where symbol @item ends, for the tree's walk */
static uint64_t end_of(const void *ctx, uint32_t item)
{
	return sym_end(&((const struct sym_table *)ctx)->syms[item]);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* @sp's symbols overlap: a piece from each place any of them starts or
 * stops, with the symbol perf's tree @rb finds there */
static int add_cluster(struct sym_table *t, const struct sym_rb *rb, size_t *cap,
		       const struct sym_span *sp)
{
	size_t nb = 0;
	int err = 0;
	uint64_t *b = malloc(2 * (sp->to - sp->from) * sizeof(*b));

	if (!b)
		return -1;
	for (size_t k = sp->from; k < sp->to; k++) {
		b[nb++] = t->syms[k].start;
		if (reach(&t->syms[k]) < sp->end)
			b[nb++] = reach(&t->syms[k]);
	}
	qsort(b, nb, sizeof(*b), cmp_u64);
	for (size_t k = 0; k < nb && !err; k++)
		if (!k || b[k] != b[k - 1])
			err = add_piece(t, cap, b[k], sym_rb_find(rb, b[k], end_of, t));
	free(b);
	return err ? -1 : add_piece(t, cap, sp->end, SYM_PIECE_OUT);
}

static int add_span(struct sym_table *t, size_t *cap, size_t from, size_t to, uint64_t end)
{
	if (grow(&t->spans, cap, t->nspans, sizeof(*t->spans), 8))
		return -1;
	t->spans[t->nspans++] = (struct sym_span){ t->syms[from].start, end, (uint32_t)from,
						   (uint32_t)to };
	return 0;
}

void sym_table_seal(struct sym_table *t)
{
	size_t cap = 0;

	if (!t->tracking)
		return;
	if (t->sorted != t->nr) {
		untrack(t);
		return;
	}
	for (size_t i = 0, j; i < t->nr; i = j) {
		uint64_t end = reach(&t->syms[i]);

		for (j = i + 1; j < t->nr && t->syms[j].start < end; j++)
			if (reach(&t->syms[j]) > end)
				end = reach(&t->syms[j]);
		if (j - i > 1 && add_span(t, &cap, i, j, end)) {
			untrack(t);           /* no memory: the plain search's answers */
			return;
		}
	}
	if (!t->nspans) {
		untrack(t);           /* nothing overlaps: the plain search is perf's answer */
	} else if (t->nerased && t->nerased < t->erased_cap) {
		/* kept until a lookup falls in an overlap, maybe for good: no spare room */
		struct sym_erase *e = realloc(t->erased, t->nerased * sizeof(*e));

		if (e) {
			t->erased = e;
			t->erased_cap = t->nerased;
		}
	}
}

/* perf's tree as the table's loading left it: every entry inserted in seq
 * order, the erases among them where they came; 0 or -1 */
static int replay(const struct sym_table *t, struct sym_rb *rb)
{
	uint32_t n = t->next_seq, ins = 0;
	uint64_t *starts = malloc(n * sizeof(*starts) + 1);
	unsigned char *have = calloc(n + 1, 1);
	int err = !starts || !have;

	for (size_t i = 0; !err && i < t->nr; i++) {
		starts[sym_seq(&t->syms[i])] = t->syms[i].start;
		have[sym_seq(&t->syms[i])] = 1;
	}
	for (size_t i = 0; !err && i < t->nerased; i++) {
		starts[t->erased[i].seq] = t->erased[i].start;
		have[t->erased[i].seq] = 1;
	}
	for (uint32_t s = 0; !err && s < n; s++)
		err = !have[s];           /* an entry gone some other way: no answer */
	for (size_t i = 0; !err && i <= t->nerased; i++) {
		uint32_t upto = i < t->nerased ? t->erased[i].inserted : n;

		for (; !err && ins < upto; ins++)
			err = sym_rb_insert(rb, ins, starts[ins]);
		if (!err && i < t->nerased)
			sym_rb_erase(rb, t->erased[i].seq);
	}
	free(starts);
	free(have);
	return err ? -1 : 0;
}

/* the first lookup where symbols overlap: perf's answers for every overlap */
static void answer_overlaps(struct sym_table *t)
{
	struct sym_rb rb;
	size_t cap = 0;

	sym_rb_init(&rb);
	if (!replay(t, &rb)) {
		for (size_t i = 0; i < t->nr; i++)
			sym_rb_set(&rb, sym_seq(&t->syms[i]), (uint32_t)i);
		for (size_t i = 0; i < t->nspans; i++)
			if (add_cluster(t, &rb, &cap, &t->spans[i])) {
				drop_pieces(t);   /* no memory: the plain search's answers */
				break;
			}
	}
	sym_rb_free(&rb);
	untrack(t);
}

/* whether @addr lies in an overlap not yet answered */
static int in_span(const struct sym_table *t, uint64_t addr)
{
	size_t a = last_starting(t->spans, t->nspans, sizeof(*t->spans), addr);

	return a < t->nspans && addr < t->spans[a].end;
}

const struct sym_entry *sym_table_find(struct sym_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->sorted, a;

	if (in_span(t, addr))
		answer_overlaps(t);

	a = last_starting(t->pieces, t->npieces, sizeof(*t->pieces), addr);
	if (a < t->npieces && t->pieces[a].idx != SYM_PIECE_OUT)
		return t->pieces[a].idx == SYM_PIECE_NONE ? NULL : &t->syms[t->pieces[a].idx];
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sym_entry *s = &t->syms[mid];
		uint64_t end = sym_end(s);

		if (addr < s->start)
			hi = mid;
		else if (addr > end || (addr == end && addr != s->start))
			lo = mid + 1;
		else
			return s;
	}
	return NULL;
}
