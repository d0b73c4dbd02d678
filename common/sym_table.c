/* sym_table.c - a DSO's symbol array: add, fix ends and duplicates as
 * perf 6.1's symbols__fixup_end / symbols__fixup_duplicate do, look up
 * by binary search with perf's symbols__find rule. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "sym_table.h"

#define BIND_GLOBAL 1
#define BIND_WEAK   2

void sym_table_init(struct sym_table *t)
{
	memset(t, 0, sizeof(*t));
}

void sym_table_free(struct sym_table *t)
{
	free(t->syms);
	free(t->strs);
	sym_table_init(t);
}

int sym_table_add(struct sym_table *t, uint64_t start, uint64_t len, int bind,
		  const char *name, size_t name_len)
{
	struct sym_entry *e;

	if (t->nr == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 256;
		struct sym_entry *ns = realloc(t->syms, cap * sizeof(*ns));

		if (!ns)
			return -1;
		t->syms = ns;
		t->cap = cap;
	}
	if (name_len >= UINT32_MAX / 2 || t->strs_len + name_len + 1 >= UINT32_MAX)
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
	e = &t->syms[t->nr];
	e->start = start;
	e->end = len ? start + len : start;
	if (e->end < start)
		e->end = UINT64_MAX;
	e->name = (uint32_t)t->strs_len;
	e->seq = t->next_seq++;
	e->bind = (uint8_t)bind;
	memcpy(t->strs + t->strs_len, name, name_len);
	t->strs[t->strs_len + name_len] = 0;
	t->strs_len += name_len + 1;
	t->nr++;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct sym_entry *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol: 1 if @a stays, 0 if @b replaces it */
static int keep_first(const struct sym_table *t, const struct sym_entry *a,
		      const struct sym_entry *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	const char *na = t->strs + a->name, *nb = t->strs + b->name;
	size_t ua, ub, sa, sb;

	if (lb == 0 && la > 0)
		return 1;
	if (la == 0 && lb > 0)
		return 0;
	if ((a->bind == BIND_WEAK) != (b->bind == BIND_WEAK))
		return b->bind == BIND_WEAK;
	if ((a->bind == BIND_GLOBAL) != (b->bind == BIND_GLOBAL))
		return a->bind == BIND_GLOBAL;
	ua = underscores(na);
	ub = underscores(nb);
	if (ua != ub)
		return ub > ua;
	sa = strlen(na);
	sb = strlen(nb);
	if (sa != sb)
		return sa > sb;
	return 1;
}

int sym_table_finish(struct sym_table *t)
{
	size_t i, n = 0;

	if (t->nr == 0)
		return 0;
	if (t->sorted != t->nr)
		qsort(t->syms, t->nr, sizeof(*t->syms), cmp_entry);
	/* symbols__fixup_end, is_kallsyms false */
	for (i = 0; i + 1 < t->nr; i++)
		if (t->syms[i].end == t->syms[i].start)
			t->syms[i].end = t->syms[i + 1].start;
	if (t->syms[t->nr - 1].end == t->syms[t->nr - 1].start) {
		uint64_t s = t->syms[t->nr - 1].start;
		uint64_t e = ((s + 4095) & ~4095ULL) + 4096;

		t->syms[t->nr - 1].end = e > s ? e : UINT64_MAX;
	}
	/* symbols__fixup_duplicate */
	for (i = 0; i < t->nr; i++) {
		if (n && t->syms[n - 1].start == t->syms[i].start) {
			if (!keep_first(t, &t->syms[n - 1], &t->syms[i]))
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
	qsort(t->syms, t->nr, sizeof(*t->syms), cmp_entry);
	t->sorted = t->nr;
	return 0;
}

const struct sym_entry *sym_table_find(const struct sym_table *t, uint64_t addr)
{
	size_t lo = 0, hi = t->sorted;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct sym_entry *s = &t->syms[mid];

		if (addr < s->start)
			hi = mid;
		else if (addr > s->end || (addr == s->end && addr != s->start))
			lo = mid + 1;
		else
			return s;
	}
	return NULL;
}
