/* sym_rbtree.h - perf's symbol red-black tree replayed, for the shape: which of overlapping symbols perf's lookup finds. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_RBTREE_H
#define SYM_RBTREE_H

#include <stddef.h>
#include <stdint.h>

#define SYM_RB_NONE UINT32_MAX

/*
 * perf 6.1 keeps a DSO's symbols in a red-black tree keyed by start (an
 * equal start goes right) and looks an address up by walking it from the
 * root with symbols__find's rule. Where symbols overlap (a zero-size
 * _init stretched over the PLT, a label inside a sized function), the
 * walk stops at the first symbol on its path that holds the address, so
 * the answer depends on the tree's shape. That shape is fixed by the
 * order of the inserts and erases; this tree repeats them with the same
 * algorithm (lib/rbtree.c's cases) so its walk ends where perf's does.
 * Nodes are named by dense ids (the symbols' insertion order).
 */
struct sym_rb_node {                   /* 24 bytes: a big library has 100,000 */
	uint64_t start;
	uint32_t child[2];         /* left, right */
	uint32_t parent_red;       /* the parent's id (31 bits), red in bit 31 */
	uint32_t item;             /* the caller's number for the node (sym_rb_set) */
};

struct sym_rb {
	struct sym_rb_node *n;
	size_t cap;
	uint32_t root;
};

void sym_rb_init(struct sym_rb *rb);
void sym_rb_free(struct sym_rb *rb);
/** sym_rb_insert - node @id (below 2^31 - 1) keyed @start; 0 or -1 (ENOMEM) */
int sym_rb_insert(struct sym_rb *rb, uint32_t id, uint64_t start);
/** sym_rb_erase - take node @id out, rebalancing as lib/rbtree.c's rb_erase does */
void sym_rb_erase(struct sym_rb *rb, uint32_t id);
/** sym_rb_set - node @id's number for the caller, which sym_rb_find returns */
static inline void sym_rb_set(struct sym_rb *rb, uint32_t id, uint32_t item)
{
	rb->n[id].item = item;
}
/**
 * sym_rb_find - the item of the node perf's symbols__find stops at for
 * @addr, or SYM_RB_NONE; a node's end is @end_of(@ctx, its item)
 */
uint32_t sym_rb_find(const struct sym_rb *rb, uint64_t addr,
		     uint64_t (*end_of)(const void *ctx, uint32_t item), const void *ctx);

#endif
