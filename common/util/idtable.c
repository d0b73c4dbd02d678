/* idtable.c - per-tracepoint-id state, grown on demand. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "util/idtable.h"

void idtable_init(struct idtable *t, size_t elem)
{
	memset(t, 0, sizeof(*t));
	t->elem = elem;
}

void *idtable_slot(struct idtable *t, int id)
{
	if (id < 0 || id >= IDTABLE_MAX_ID)
		return NULL;
	if ((size_t)id >= t->nr) {
		size_t n = (size_t)id + 64;
		unsigned char *items = realloc(t->items, n * t->elem);

		if (!items)
			return NULL;
		memset(items + t->nr * t->elem, 0, (n - t->nr) * t->elem);
		t->items = items;
		t->nr = n;
	}
	return t->items + (size_t)id * t->elem;
}

void idtable_free(struct idtable *t)
{
	free(t->items);
	t->items = NULL;
	t->nr = 0;
}
