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
	else if (rb->n[p].left == old)
		rb->n[p].left = new;
	else
		rb->n[p].right = new;
	if (new != NIL)
		set_parent(rb, new, p);
}

/* @x's right child takes its place; @x becomes that child's left */
static void rotate_left(struct sym_rb *rb, uint32_t x)
{
	struct sym_rb_node *n = rb->n;
	uint32_t y = n[x].right;

	n[x].right = n[y].left;
	if (n[y].left != NIL)
		set_parent(rb, n[y].left, x);
	change_child(rb, parent(rb, x), x, y);
	n[y].left = x;
	set_parent(rb, x, y);
}

static void rotate_right(struct sym_rb *rb, uint32_t x)
{
	struct sym_rb_node *n = rb->n;
	uint32_t y = n[x].left;

	n[x].left = n[y].right;
	if (n[y].right != NIL)
		set_parent(rb, n[y].right, x);
	change_child(rb, parent(rb, x), x, y);
	n[y].right = x;
	set_parent(rb, x, y);
}

/* after an insert: a red node under a red parent is mended upward */
static void insert_fixup(struct sym_rb *rb, uint32_t z)
{
	struct sym_rb_node *n = rb->n;

	while (is_red(rb, parent(rb, z))) {
		uint32_t p = parent(rb, z), g = parent(rb, p);
		int left = n[g].left == p;
		uint32_t u = left ? n[g].right : n[g].left;

		if (is_red(rb, u)) {                  /* the uncle red: recolour, go up */
			set_red(rb, p, 0);
			set_red(rb, u, 0);
			set_red(rb, g, 1);
			z = g;
			continue;
		}
		if (z == (left ? n[p].right : n[p].left)) {     /* the inner grandchild */
			if (left)
				rotate_left(rb, p);
			else
				rotate_right(rb, p);
			z = p;
			p = parent(rb, z);
		}
		set_red(rb, p, 0);
		set_red(rb, g, 1);
		if (left)
			rotate_right(rb, g);
		else
			rotate_left(rb, g);
		break;
	}
	set_red(rb, rb->root, 0);
}

int sym_rb_insert(struct sym_rb *rb, uint32_t id, uint64_t start)
{
	uint32_t p = NIL, cur = rb->root;
	int go_left = 0;

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
		go_left = start < rb->n[cur].start;
		cur = go_left ? rb->n[cur].left : rb->n[cur].right;
	}
	rb->n[id] = (struct sym_rb_node){ .start = start, .left = NIL, .right = NIL, .item = NIL };
	set_parent(rb, id, p);
	set_red(rb, id, 1);
	if (p == NIL)
		rb->root = id;
	else if (go_left)
		rb->n[p].left = id;
	else
		rb->n[p].right = id;
	insert_fixup(rb, id);
	return 0;
}

/* after an erase took a black node: @p's child @x (maybe NIL) is a black short */
static void erase_fixup(struct sym_rb *rb, uint32_t x, uint32_t p)
{
	struct sym_rb_node *n = rb->n;

	while (p != NIL && !is_red(rb, x)) {
		int left = n[p].right != x;       /* lib/rbtree.c's test: x is NIL at first */
		uint32_t w = left ? n[p].right : n[p].left;
		uint32_t near, far;

		if (is_red(rb, w)) {                  /* a red sibling: rotate it up */
			set_red(rb, w, 0);
			set_red(rb, p, 1);
			if (left)
				rotate_left(rb, p);
			else
				rotate_right(rb, p);
			w = left ? n[p].right : n[p].left;
		}
		near = left ? n[w].left : n[w].right;
		far = left ? n[w].right : n[w].left;
		if (!is_red(rb, near) && !is_red(rb, far)) {    /* both nephews black */
			set_red(rb, w, 1);
			x = p;
			p = parent(rb, x);
			continue;
		}
		if (!is_red(rb, far)) {               /* the near nephew red: turn it outward
						       * (the colours are set below) */
			if (left)
				rotate_right(rb, w);
			else
				rotate_left(rb, w);
			w = left ? n[p].right : n[p].left;
			far = left ? n[w].right : n[w].left;
		}
		set_red(rb, w, is_red(rb, p));
		set_red(rb, p, 0);
		set_red(rb, far, 0);
		if (left)
			rotate_left(rb, p);
		else
			rotate_right(rb, p);
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
	if (n[z].left == NIL || n[z].right == NIL) {     /* one child or none: it moves up */
		x = n[z].left == NIL ? n[z].right : n[z].left;
		xp = parent(rb, z);
		black_gone = !is_red(rb, z);
		change_child(rb, xp, z, x);
	} else {                              /* two: the successor takes z's place and colour */
		uint32_t y = n[z].right;

		while (n[y].left != NIL)
			y = n[y].left;
		black_gone = !is_red(rb, y);
		x = n[y].right;
		if (parent(rb, y) == z) {
			xp = y;
		} else {
			xp = parent(rb, y);
			change_child(rb, xp, y, x);
			n[y].right = n[z].right;
			set_parent(rb, n[y].right, y);
		}
		change_child(rb, parent(rb, z), z, y);
		n[y].left = n[z].left;
		set_parent(rb, n[y].left, y);
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
			cur = s->left;
		else if (addr > end || (addr == end && addr != s->start))
			cur = s->right;
		else
			return s->item;
	}
	return NIL;
}
