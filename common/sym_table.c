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
	for (size_t i = 0; i < t->dm_slots; i++)
		free((char *)t->dm[i].shown);
	free(t->dm);
	free(t->syms);
	free(t->strs);
	sym_table_init(t);
}

const char *sym_table_shown(struct sym_table *t, const struct sym_entry *e)
{
	const char *raw = t->strs + e->name;
	size_t mask, i;
	char *d;

	if (!t->demangle || (e->bind & SYM_FINAL_NAME))
		return raw;
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
			return t->dm[i].shown ? t->dm[i].shown : raw;
	d = t->demangle(raw);
	t->dm[i].name = e->name + 1;
	t->dm[i].shown = d;     /* NULL: the raw name (the arena may still move) */
	t->dm_used++;
	return d ? d : raw;
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

static inline int before(const struct sym_entry *x, const struct sym_entry *y)
{
	return x->start < y->start || (x->start == y->start && x->seq < y->seq);
}

/* by (start, seq): a quicksort with inline compares (qsort's copies of
 * 32-byte elements cost more than the sort) */
static void sort_entries(struct sym_entry *v, size_t n)
{
	while (n > 16) {
		struct sym_entry p, tmp;
		size_t i = 0, j = n - 1, mid = n / 2;

		/* median of three as the pivot */
		if (before(&v[mid], &v[0]))
			tmp = v[mid], v[mid] = v[0], v[0] = tmp;
		if (before(&v[n - 1], &v[0]))
			tmp = v[n - 1], v[n - 1] = v[0], v[0] = tmp;
		if (before(&v[n - 1], &v[mid]))
			tmp = v[n - 1], v[n - 1] = v[mid], v[mid] = tmp;
		p = v[mid];
		for (;;) {
			while (before(&v[i], &p))
				i++;
			while (before(&p, &v[j]))
				j--;
			if (i >= j)
				break;
			tmp = v[i], v[i] = v[j], v[j] = tmp;
			i++;
			j--;
		}
		/* recurse into the smaller part, loop on the larger */
		if (j + 1 < n - j - 1) {
			sort_entries(v, j + 1);
			v += j + 1;
			n -= j + 1;
		} else {
			sort_entries(v + j + 1, n - j - 1);
			n = j + 1;
		}
	}
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

static size_t underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol (on the names as shown): 1 if @a stays, 0 if @b replaces it */
static int keep_first(struct sym_table *t, const struct sym_entry *a, const struct sym_entry *b)
{
	uint64_t la = a->end - a->start, lb = b->end - b->start;
	int ba = a->bind & ~SYM_FINAL_NAME, bb = b->bind & ~SYM_FINAL_NAME;
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
	if (!strcmp(t->strs + a->name, t->strs + b->name))
		return 1;         /* one name (.symtab and .dynsym): a tie, the first stays */
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
	return 1;
}

int sym_table_finish(struct sym_table *t)
{
	size_t i, n = 0;

	if (t->nr == 0)
		return 0;
	if (t->sorted != t->nr)
		sort_entries(t->syms, t->nr);
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
	sort_entries(t->syms, t->nr);
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
