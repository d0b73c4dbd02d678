/* ptrmap.h - a name index per string address (and a flag): for strings that
 * live as long as the map's user, such as the symbol names a machine
 * hands out, whose address then names them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PTRMAP_H
#define PTRMAP_H

#include <stddef.h>
#include <stdint.h>

struct ptrmap_ent {
	const void *p;             /* NULL: empty */
	uint32_t flag, id;
};

struct ptrmap {
	struct ptrmap_ent *e;
	size_t nr, cap;            /* cap: a power of two */
};

/**
 * ptrmap_slot - the id of (@p, @flag): *@fresh 0 when known, 1 when just
 * added (the caller sets the id). NULL when out of memory.
 */
uint32_t *ptrmap_slot(struct ptrmap *m, const void *p, uint32_t flag, int *fresh);
void ptrmap_free(struct ptrmap *m);

#endif
