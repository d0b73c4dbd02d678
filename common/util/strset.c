/* strset.c - a set of strings, each kept once, found by an FNV-1a hash:
 * KSYMBOL records name up to one map each, and a recording can hold a
 * hundred thousand of them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "util/strset.h"

static uint64_t hash(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 0x100000001b3ULL;
	return h;
}

/* the slot holding @s, or the empty one where it would go */
static uint32_t *slot_of(const struct strset *set, const char *s)
{
	size_t mask = set->nr_slots - 1, i = hash(s) & mask;

	while (set->slots[i] && strcmp(set->items[set->slots[i] - 1], s))
		i = (i + 1) & mask;
	return &set->slots[i];
}

/* twice the slots, every item placed again; -1 when out of memory */
static int grow_slots(struct strset *set)
{
	size_t n = set->nr_slots ? set->nr_slots * 2 : 64;
	uint32_t *old = set->slots;

	if (n > UINT32_MAX || !(set->slots = calloc(n, sizeof(*set->slots)))) {
		set->slots = old;
		return -1;
	}
	set->nr_slots = n;
	for (size_t i = 0; i < set->nr; i++)
		*slot_of(set, set->items[i]) = (uint32_t)(i + 1);
	free(old);
	return 0;
}

const char *strset_add(struct strset *set, const char *s)
{
	uint32_t *slot;

	if ((set->nr + 1) * 2 > set->nr_slots && grow_slots(set))
		return NULL;
	slot = slot_of(set, s);
	if (*slot)
		return set->items[*slot - 1];
	if (set->nr == set->items_cap) {
		size_t cap = set->items_cap ? set->items_cap * 2 : 16;
		char **ni = realloc(set->items, cap * sizeof(*ni));

		if (!ni)
			return NULL;
		set->items = ni;
		set->items_cap = cap;
	}
	if (!(set->items[set->nr] = strdup(s)))
		return NULL;
	*slot = (uint32_t)++set->nr;
	return set->items[set->nr - 1];
}

void strset_free(struct strset *set)
{
	for (size_t i = 0; i < set->nr; i++)
		free(set->items[i]);
	free(set->items);
	free(set->slots);
	memset(set, 0, sizeof(*set));
}
