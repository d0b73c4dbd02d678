/* sym_rbtree.c - perf's symbol red-black tree replayed: the textbook insert and erase cases, as lib/rbtree.c takes them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "symbols/sym_rbtree.h"

#define NIL SYM_RB_NONE
#define RED 0x80000000u
#define NO_PARENT 0x7fffffffu     /* NIL in the 31 bits of parent_red */

void sym_rb_init(struct sym_rb *rb)
{
	memset(rb, 0, sizeof(*rb));
	rb->root = NIL;
}

void sym_rb_free(struct sym_rb *rb)
{
	free(rb->n);
	sym_rb_init(rb);
}

static int is_red(const struct sym_rb *rb, uint32_t x)
{
	return x != NIL && (rb->n[x].parent_red & RED);
}

static void set_red(struct sym_rb *rb, uint32_t x, int red)
{
	rb->n[x].parent_red = (rb->n[x].parent_red & ~RED) | (red ? RED : 0);
}

static uint32_t parent(const struct sym_rb *rb, uint32_t x)
{
	uint32_t p = rb->n[x].parent_red & ~RED;

	return p == NO_PARENT ? NIL : p;
}

static void set_parent(struct sym_rb *rb, uint32_t x, uint32_t p)
{
	rb->n[x].parent_red = (rb->n[x].parent_red & RED) | (p == NIL ? NO_PARENT : p);
}

/* @p's child @old becomes @new (the root when @p is NIL) */
static void change_child(struct sym_rb *rb, uint32_t p, uint32_t old, uint32_t new)
{
	if (p == NIL)
		rb->root = new;
	else
		rb->n[p].child[rb->n[p].child[1] == old] = new;
	if (new != NIL)
		set_parent(rb, new, p);
}

/* @x's child on side !@d takes its place; @x becomes that child's child
 * on side @d (d 0: lib/rbtree.c's left rotation, 1: its right) */
static void rotate(struct sym_rb *rb, uint32_t x, int d)
{
	struct sym_rb_node *n = rb->n;
	uint32_t y = n[x].child[!d];

	n[x].child[!d] = n[y].child[d];
	if (n[y].child[d] != NIL)
		set_parent(rb, n[y].child[d], x);
	change_child(rb, parent(rb, x), x, y);
	n[y].child[d] = x;
	set_parent(rb, x, y);
}

/* after an insert: a red node under a red parent is mended upward */
static void insert_fixup(struct sym_rb *rb, uint32_t z)
{
	struct sym_rb_node *n = rb->n;

	while (is_red(rb, parent(rb, z))) {
		uint32_t p = parent(rb, z), g = parent(rb, p);
		int side = n[g].child[1] == p;    /* the parent's side under g */
		uint32_t u = n[g].child[!side];

		if (is_red(rb, u)) {                  /* the uncle red: recolour, go up */
			set_red(rb, p, 0);
			set_red(rb, u, 0);
			set_red(rb, g, 1);
			z = g;
			continue;
		}
		if (z == n[p].child[!side]) {     /* the inner grandchild: turn it outward */
			rotate(rb, p, side);
			z = p;
			p = parent(rb, z);
		}
		set_red(rb, p, 0);
		set_red(rb, g, 1);
		rotate(rb, g, !side);
		break;
	}
	set_red(rb, rb->root, 0);
}

int sym_rb_insert(struct sym_rb *rb, uint32_t id, uint64_t start)
{
	uint32_t p = NIL, cur = rb->root;
	int side = 0;

	if (id >= NO_PARENT)
		return -1;
	if (id >= rb->cap) {
		size_t cap = rb->cap ? rb->cap : 256;
		struct sym_rb_node *nn;

		while (cap <= id)
			cap *= 2;
		if (!(nn = realloc(rb->n, cap * sizeof(*nn))))
			return -1;
		rb->n = nn;
		rb->cap = cap;
	}
	while (cur != NIL) {                  /* perf's __symbols__insert: equal goes right */
		p = cur;
		side = !(start < rb->n[cur].start);
		cur = rb->n[cur].child[side];
	}
	rb->n[id] = (struct sym_rb_node){ .start = start, .child = { NIL, NIL }, .item = NIL };
	set_parent(rb, id, p);
	set_red(rb, id, 1);
	if (p == NIL)
		rb->root = id;
	else
		rb->n[p].child[side] = id;
	insert_fixup(rb, id);
	return 0;
}

/* after an erase took a black node: @p's child @x (maybe NIL) is a black short */
static void erase_fixup(struct sym_rb *rb, uint32_t x, uint32_t p)
{
	struct sym_rb_node *n = rb->n;

	while (p != NIL && !is_red(rb, x)) {
		/* x's side; lib/rbtree.c's test, as x is NIL at first */
		int side = n[p].child[1] == x;
		uint32_t w = n[p].child[!side], near, far;

		if (is_red(rb, w)) {                  /* a red sibling: rotate it up */
			set_red(rb, w, 0);
			set_red(rb, p, 1);
			rotate(rb, p, side);
			w = n[p].child[!side];
		}
		near = n[w].child[side];
		far = n[w].child[!side];
		if (!is_red(rb, near) && !is_red(rb, far)) {    /* both nephews black */
			set_red(rb, w, 1);
			x = p;
			p = parent(rb, x);
			continue;
		}
		if (!is_red(rb, far)) {               /* the near nephew red: turn it outward
						       * (the colours are set below) */
			rotate(rb, w, !side);
			w = n[p].child[!side];
			far = n[w].child[!side];
		}
		set_red(rb, w, is_red(rb, p));
		set_red(rb, p, 0);
		set_red(rb, far, 0);
		rotate(rb, p, side);
		x = rb->root;
		break;
	}
	if (x != NIL)
		set_red(rb, x, 0);
}

void sym_rb_erase(struct sym_rb *rb, uint32_t z)
{
	struct sym_rb_node *n = rb->n;
	uint32_t x, xp;
	int black_gone;

	if (z >= rb->cap)
		return;
	if (n[z].child[0] == NIL || n[z].child[1] == NIL) {     /* one child or none: it moves up */
		x = n[z].child[n[z].child[0] == NIL];
		xp = parent(rb, z);
		black_gone = !is_red(rb, z);
		change_child(rb, xp, z, x);
	} else {                              /* two: the successor takes z's place and colour */
		uint32_t y = n[z].child[1];

		while (n[y].child[0] != NIL)
			y = n[y].child[0];
		black_gone = !is_red(rb, y);
		x = n[y].child[1];
		if (parent(rb, y) == z) {
			xp = y;
		} else {
			xp = parent(rb, y);
			change_child(rb, xp, y, x);
			n[y].child[1] = n[z].child[1];
			set_parent(rb, n[y].child[1], y);
		}
		change_child(rb, parent(rb, z), z, y);
		n[y].child[0] = n[z].child[0];
		set_parent(rb, n[y].child[0], y);
		set_red(rb, y, is_red(rb, z));
	}
	if (black_gone)
		erase_fixup(rb, x, xp);
}

uint32_t sym_rb_find(const struct sym_rb *rb, uint64_t addr,
		     uint64_t (*end_of)(const void *ctx, uint32_t item), const void *ctx)
{
	uint32_t cur = rb->root;

	while (cur != NIL) {                  /* symbols__find's rule */
		const struct sym_rb_node *s = &rb->n[cur];
		uint64_t end = end_of(ctx, s->item);

		if (addr < s->start)
			cur = s->child[0];
		else if (addr > end || (addr == end && addr != s->start))
			cur = s->child[1];
		else
			return s->item;
	}
	return NIL;
}
