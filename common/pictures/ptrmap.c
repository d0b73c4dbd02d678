/* ptrmap.c - (address, flag) to a name index, by open addressing. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include "pictures/ptrmap.h"

static size_t home(const void *p, uint32_t flag, size_t cap)
{
	uint64_t h = ((uintptr_t)p ^ flag) * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 17) & (cap - 1);
}

static int grow(struct ptrmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 1024;
	struct ptrmap_ent *n = calloc(cap, sizeof(*n));

	if (!n)
		return -1;
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->e[i].p)
			continue;
		for (j = home(m->e[i].p, m->e[i].flag, cap); n[j].p; j = (j + 1) & (cap - 1))
			;
		n[j] = m->e[i];
	}
	free(m->e);
	m->e = n;
	m->cap = cap;
	return 0;
}

uint32_t *ptrmap_slot(struct ptrmap *m, const void *p, uint32_t flag, int *fresh)
{
	size_t j;

	if (2 * (m->nr + 1) > m->cap && grow(m))
		return NULL;
	for (j = home(p, flag, m->cap); m->e[j].p; j = (j + 1) & (m->cap - 1))
		if (m->e[j].p == p && m->e[j].flag == flag) {
			*fresh = 0;
			return &m->e[j].id;
		}
	m->e[j].p = p;
	m->e[j].flag = flag;
	m->nr++;
	*fresh = 1;
	return &m->e[j].id;
}

void ptrmap_free(struct ptrmap *m)
{
	free(m->e);
	m->e = NULL;
	m->nr = m->cap = 0;
}
