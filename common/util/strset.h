/* strset.h - a set of strings, each kept once: a name asked for again
 * gives the same pointer, valid until the set is freed. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef STRSET_H
#define STRSET_H

#include <stddef.h>
#include <stdint.h>

struct strset {
	char **items;       /* the copies, in the order added */
	size_t nr, items_cap;
	uint32_t *slots;    /* open addressing: an index into items + 1, 0 empty */
	size_t nr_slots;    /* a power of two, at least twice nr */
};

/** strset_add - the set's copy of @s, added if new; NULL when out of memory */
const char *strset_add(struct strset *set, const char *s);
void strset_free(struct strset *set);

#endif
