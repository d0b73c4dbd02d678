/* idtable.h - per-tracepoint-id state: a table that grows to the ids it is asked for. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef IDTABLE_H
#define IDTABLE_H

#include <stddef.h>

#define IDTABLE_MAX_ID (1 << 20)

struct idtable {
	unsigned char *items;
	size_t nr;        /* slots */
	size_t elem;      /* bytes per slot */
};

/** idtable_init - an empty table of @elem-byte slots */
void idtable_init(struct idtable *t, size_t elem);
/** idtable_slot - the zero-initialised slot of @id; NULL for a negative or
 * absurd id (>= IDTABLE_MAX_ID) or when out of memory */
void *idtable_slot(struct idtable *t, int id);
/** idtable_at - slot @i (< t->nr) for iterating */
static inline void *idtable_at(const struct idtable *t, size_t i)
{
	return t->items + i * t->elem;
}
void idtable_free(struct idtable *t);

#endif
