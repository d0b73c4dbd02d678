/* tidmap.c - thread id to per-thread state, by open addressing. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "pictures/tidmap.h"

void tidmap_init(struct tidmap *m, size_t elem)
{
	memset(m, 0, sizeof(*m));
	m->elem = elem;
	m->stride = (8 + elem + 7) & ~(size_t)7;
}

static uint64_t *key_at(const struct tidmap *m, size_t i)
{
	return (uint64_t *)(m->slots + i * m->stride);
}

static size_t home(uint32_t tid, size_t cap)
{
	return (size_t)((tid * 0x9e3779b97f4a7c15ULL) >> 20) & (cap - 1);
}

static int grow(struct tidmap *m)
{
	size_t cap = m->cap ? 2 * m->cap : 64;
	unsigned char *n = calloc(cap, m->stride), *old = m->slots;

	if (!n)
		return -1;
	for (size_t i = 0; i < m->cap; i++) {
		uint64_t k = *key_at(m, i);
		size_t j;

		if (!k)
			continue;
		for (j = home((uint32_t)(k - 1), cap); *(uint64_t *)(n + j * m->stride);
		     j = (j + 1) & (cap - 1))
			;
		memcpy(n + j * m->stride, old + i * m->stride, m->stride);
	}
	free(old);
	m->slots = n;
	m->cap = cap;
	return 0;
}

void *tidmap_get(struct tidmap *m, uint32_t tid, int create)
{
	size_t j;

	if (create && 2 * (m->nr + 1) > m->cap && grow(m))
		return NULL;
	if (!m->cap)
		return NULL;
	for (j = home(tid, m->cap); *key_at(m, j); j = (j + 1) & (m->cap - 1))
		if (*key_at(m, j) == (uint64_t)tid + 1)
			return m->slots + j * m->stride + 8;
	if (!create)
		return NULL;
	*key_at(m, j) = (uint64_t)tid + 1;
	m->nr++;
	return m->slots + j * m->stride + 8;
}

void *tidmap_each(const struct tidmap *m, size_t i, uint32_t *tid)
{
	uint64_t k = i < m->cap ? *key_at(m, i) : 0;

	if (!k)
		return NULL;
	*tid = (uint32_t)(k - 1);
	return m->slots + i * m->stride + 8;
}

void tidmap_free(struct tidmap *m)
{
	free(m->slots);
	memset(m, 0, sizeof(*m));
}
