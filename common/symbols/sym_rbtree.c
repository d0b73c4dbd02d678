/* sym_rbtree.c - perf's symbol red-black tree replayed: the textbook insert and erase cases, as lib/rbtree.c takes them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "symbols/sym_rbtree.h"

#define NIL SYM_RB_NONE

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
	return x != NIL && rb->n[x].red;
}

/* @parent's child @old becomes @new (the root when @parent is NIL) */
static void change_child(struct sym_rb *rb, uint32_t parent, uint32_t old, uint32_t new)
{
	if (parent == NIL)
		rb->root = new;
	else if (rb->n[parent].left == old)
		rb->n[parent].left = new;
	else
		rb->n[parent].right = new;
	if (new != NIL)
		rb->n[new].parent = parent;
}

/* @x's right child takes its place; @x becomes that child's left */
static void rotate_left(struct sym_rb *rb, uint32_t x)
{
	struct sym_rb_node *n = rb->n;
	uint32_t y = n[x].right;

	n[x].right = n[y].left;
	if (n[y].left != NIL)
		n[n[y].left].parent = x;
	change_child(rb, n[x].parent, x, y);
	n[y].left = x;
	n[x].parent = y;
}

static void rotate_right(struct sym_rb *rb, uint32_t x)
{
	struct sym_rb_node *n = rb->n;
	uint32_t y = n[x].left;

	n[x].left = n[y].right;
	if (n[y].right != NIL)
		n[n[y].right].parent = x;
	change_child(rb, n[x].parent, x, y);
	n[y].right = x;
	n[x].parent = y;
}

/* after an insert: a red node under a red parent is mended upward */
static void insert_fixup(struct sym_rb *rb, uint32_t z)
{
	struct sym_rb_node *n = rb->n;

	while (is_red(rb, n[z].parent)) {
		uint32_t p = n[z].parent, g = n[p].parent;
		int left = n[g].left == p;
		uint32_t u = left ? n[g].right : n[g].left;

		if (is_red(rb, u)) {                  /* the uncle red: recolour, go up */
			n[p].red = 0;
			n[u].red = 0;
			n[g].red = 1;
			z = g;
			continue;
		}
		if (z == (left ? n[p].right : n[p].left)) {     /* the inner grandchild */
			if (left)
				rotate_left(rb, p);
			else
				rotate_right(rb, p);
			z = p;
			p = n[z].parent;
		}
		n[p].red = 0;
		n[g].red = 1;
		if (left)
			rotate_right(rb, g);
		else
			rotate_left(rb, g);
		break;
	}
	n[rb->root].red = 0;
}

int sym_rb_insert(struct sym_rb *rb, uint32_t id, uint64_t start)
{
	uint32_t parent = NIL, cur = rb->root;
	int go_left = 0;

	if (id == NIL)
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
		parent = cur;
		go_left = start < rb->n[cur].start;
		cur = go_left ? rb->n[cur].left : rb->n[cur].right;
	}
	rb->n[id] = (struct sym_rb_node){ .start = start, .end = start, .left = NIL, .right = NIL,
					  .parent = parent, .item = NIL, .red = 1 };
	if (parent == NIL)
		rb->root = id;
	else if (go_left)
		rb->n[parent].left = id;
	else
		rb->n[parent].right = id;
	insert_fixup(rb, id);
	return 0;
}

/* after an erase took a black node: @parent's child @x (maybe NIL) is a black short */
static void erase_fixup(struct sym_rb *rb, uint32_t x, uint32_t parent)
{
	struct sym_rb_node *n = rb->n;

	while (parent != NIL && !is_red(rb, x)) {
		int left = n[parent].right != x;  /* lib/rbtree.c's test: x is NIL at first */
		uint32_t w = left ? n[parent].right : n[parent].left;
		uint32_t near, far;

		if (is_red(rb, w)) {                  /* a red sibling: rotate it up */
			n[w].red = 0;
			n[parent].red = 1;
			if (left)
				rotate_left(rb, parent);
			else
				rotate_right(rb, parent);
			w = left ? n[parent].right : n[parent].left;
		}
		near = left ? n[w].left : n[w].right;
		far = left ? n[w].right : n[w].left;
		if (!is_red(rb, near) && !is_red(rb, far)) {    /* both nephews black */
			n[w].red = 1;
			x = parent;
			parent = n[x].parent;
			continue;
		}
		if (!is_red(rb, far)) {               /* the near nephew red: turn it outward
						       * (the colours are set below) */
			if (left)
				rotate_right(rb, w);
			else
				rotate_left(rb, w);
			w = left ? n[parent].right : n[parent].left;
			far = left ? n[w].right : n[w].left;
		}
		n[w].red = n[parent].red;
		n[parent].red = 0;
		n[far].red = 0;
		if (left)
			rotate_left(rb, parent);
		else
			rotate_right(rb, parent);
		x = rb->root;
		break;
	}
	if (x != NIL)
		n[x].red = 0;
}

void sym_rb_erase(struct sym_rb *rb, uint32_t z)
{
	struct sym_rb_node *n = rb->n;
	uint32_t x, xparent;
	int black_gone;

	if (z >= rb->cap)
		return;
	if (n[z].left == NIL || n[z].right == NIL) {     /* one child or none: it moves up */
		x = n[z].left == NIL ? n[z].right : n[z].left;
		xparent = n[z].parent;
		black_gone = !n[z].red;
		change_child(rb, xparent, z, x);
	} else {                              /* two: the successor takes z's place and colour */
		uint32_t y = n[z].right;

		while (n[y].left != NIL)
			y = n[y].left;
		black_gone = !n[y].red;
		x = n[y].right;
		if (n[y].parent == z) {
			xparent = y;
		} else {
			xparent = n[y].parent;
			change_child(rb, xparent, y, x);
			n[y].right = n[z].right;
			n[n[y].right].parent = y;
		}
		change_child(rb, n[z].parent, z, y);
		n[y].left = n[z].left;
		n[n[y].left].parent = y;
		n[y].red = n[z].red;
	}
	if (black_gone)
		erase_fixup(rb, x, xparent);
}

uint32_t sym_rb_find(const struct sym_rb *rb, uint64_t addr)
{
	uint32_t cur = rb->root;

	while (cur != NIL) {                  /* symbols__find's rule */
		const struct sym_rb_node *s = &rb->n[cur];

		if (addr < s->start)
			cur = s->left;
		else if (addr > s->end || (addr == s->end && addr != s->start))
			cur = s->right;
		else
			return s->item;
	}
	return NIL;
}
