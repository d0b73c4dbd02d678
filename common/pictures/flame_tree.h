/* flame_tree.h - stacks merged into one tree of frames (a flame graph's
 * shape): names interned and made valid UTF-8, a value per frame, the
 * folded lines perf's stackcollapse.py prints, and a differential mark. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FLAME_TREE_H
#define FLAME_TREE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "util/tb_err.h"

/* What a frame is, for colours: its name decides identity, not its kind. */
enum ft_kind { FT_ROOT, FT_COMM, FT_USER, FT_KERNEL, FT_INLINE, FT_JIT, FT_MERGED, FT_NR_KINDS };

/* The most nodes a tree holds (a profile past it is refused, not truncated) */
#define FT_MAX_NODES (1u << 24)
/* The longest name kept whole (longer names are cut there, on a character) */
#define FT_MAX_NAME 4096

struct ft_node {
	uint32_t name;             /* index into the names */
	uint32_t parent;           /* the root is its own parent (node 0) */
	uint32_t child, sibling;   /* first child, next sibling; 0: none */
	uint8_t kind;              /* enum ft_kind */
	uint64_t value;            /* its own and its children's */
	uint64_t self;             /* stacks ending here */
	uint64_t before;           /* --diff: the value of the same path in the other tree */
};

struct ft_tree;

/** ft_new - an empty tree (just the root, named @root_name); NULL when out of memory */
struct ft_tree *ft_new(const char *root_name);
void ft_free(struct ft_tree *t);

/** ft_intern - the index of the name @p (@n bytes, not NUL-terminated;
 * made valid UTF-8, cut at FT_MAX_NAME bytes), or TB_ERR_NOMEM */
int64_t ft_intern(struct ft_tree *t, const char *p, size_t n);
/**
 * ft_path_from - the node at the end of the path @names (name indices of
 * ft_intern, root first, @n of them) below node @from, made as needed with
 * @kinds; a node's kind is the first one it got. @nodes (NULL: not wanted)
 * gets the node of each step.
 * Returns the node (> 0), or TB_ERR_NOMEM / TB_ERR_FORMAT (too many nodes)
 * with @err set.
 */
int64_t ft_path_from(struct ft_tree *t, uint32_t from, const uint32_t *names,
		     const uint8_t *kinds, size_t n, uint32_t *nodes, struct tb_err *err);
/** ft_credit - add @w to @node's self and to the value of it and every ancestor */
void ft_credit(struct ft_tree *t, uint32_t node, uint64_t w);

/** ft_node - node @i (0 is the root), NULL past the last */
const struct ft_node *ft_node(const struct ft_tree *t, uint32_t i);
size_t ft_nr_nodes(const struct ft_tree *t);
/** ft_name - the name of index @i (valid UTF-8, NUL-terminated) */
const char *ft_name(const struct ft_tree *t, uint32_t i);
size_t ft_nr_names(const struct ft_tree *t);
/** ft_total - the root's value */
uint64_t ft_total(const struct ft_tree *t);

/**
 * ft_write_folded - every path with a self count as "a;b;c COUNT\n" lines
 * (the root's name left out), sorted by the path as Python sorts strings,
 * to @f. Returns 0, TB_ERR_NOMEM or TB_ERR_IO.
 */
int ft_write_folded(const struct ft_tree *t, FILE *f);

/**
 * ft_diff - set every node's before to the value of the node at the same
 * path (by names) in @before, 0 where it has none. 0 or TB_ERR_NOMEM.
 */
int ft_diff(struct ft_tree *t, const struct ft_tree *before);
/** ft_find_child - the child of @parent named @name, or -1 */
int64_t ft_find_child(const struct ft_tree *t, uint32_t parent, const char *name);
/** ft_set_before - set node @i's before to @v */
void ft_set_before(struct ft_tree *t, uint32_t i, uint64_t v);

/* The frames a node's narrow children make together in a picture. */
struct ft_merged {
	size_t nr;                 /* children merged (0: none drawn) */
	uint64_t value, before;
};

/**
 * ft_children - the children of node @i a picture draws: those of value
 * at least @min (and never one of value 0), sorted by name, in *@kids
 * (malloc'd, *@nr of them); the narrower ones summed in @m, drawn as one
 * frame when together they reach @min (else @m->nr is 0 and nothing is
 * drawn for them). Returns 0 or TB_ERR_NOMEM.
 */
int ft_children(const struct ft_tree *t, uint32_t i, uint64_t min, uint32_t **kids, size_t *nr,
		struct ft_merged *m);

#endif
