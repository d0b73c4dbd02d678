/* sym_srccache.c - an open-addressing table per DSO of what sym_srcline.c answered, so each address's DWARF is read once. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "symbols/sym_dso.h"
#include "symbols/sym_srccache.h"

#define SRC_MAX (1u << 20)        /* addresses kept per DSO */

static size_t slot_of(uint64_t off, size_t cap)
{
	return (size_t)((off * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

/* the table twice as large, every entry moved; -1 on ENOMEM */
static int grow(struct sym_dso *d)
{
	size_t cap = d->src_cap ? 2 * d->src_cap : 1024;
	struct sym_srcent *t = calloc(cap, sizeof(*t));

	if (!t)
		return -1;
	for (size_t i = 0; i < d->src_cap; i++) {
		size_t j;

		if (!d->src[i].used)
			continue;
		for (j = slot_of(d->src[i].off, cap); t[j].used; j = (j + 1) & (cap - 1))
			;
		t[j] = d->src[i];
	}
	free(d->src);
	d->src = t;
	d->src_cap = cap;
	return 0;
}

struct sym_srcent *sym_srccache_slot(struct sym_dso *d, uint64_t off)
{
	size_t j;

	if (d->src_cap) {
		for (j = slot_of(off, d->src_cap); d->src[j].used; j = (j + 1) & (d->src_cap - 1))
			if (d->src[j].off == off)
				return &d->src[j];
	}
	if (d->src_n >= SRC_MAX || ((d->src_n + 1) * 2 > d->src_cap && grow(d)))
		return NULL;
	for (j = slot_of(off, d->src_cap); d->src[j].used; j = (j + 1) & (d->src_cap - 1))
		;
	memset(&d->src[j], 0, sizeof(d->src[j]));
	d->src[j].off = off;
	d->src[j].used = 1;
	d->src_n++;
	return &d->src[j];
}

void sym_srccache_free(struct sym_dso *d)
{
	for (size_t i = 0; i < d->src_cap; i++) {
		struct sym_srcent *e = &d->src[i];

		free(e->line);
		for (size_t k = 0; k < e->nr_inl; k++) {
			free(e->inl[k].name);
			free(e->inl[k].line);
		}
		free(e->inl);
	}
	free(d->src);
	d->src = NULL;
	d->src_cap = d->src_n = 0;
}
