/* flame_fold.c - a flame tree's folded lines (stackcollapse.py's output),
 * the differential mark from a second tree, and the pruned copy a picture
 * draws. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "pictures/flame_tree.h"

/* The path of @node below the root, "a;b;c", malloc'd (NULL: no memory). */
static char *path_of(const struct ft_tree *t, uint32_t node)
{
	size_t len = 0, depth = 0, at;
	char *s;

	for (uint32_t i = node; i; i = ft_node(t, i)->parent, depth++)
		len += strlen(ft_name(t, ft_node(t, i)->name)) + 1;
	if (!(s = malloc(len + 1)))
		return NULL;
	at = len ? len - 1 : 0;
	s[at] = 0;
	for (uint32_t i = node; i; i = ft_node(t, i)->parent) {
		const char *nm = ft_name(t, ft_node(t, i)->name);
		size_t n = strlen(nm);

		at -= n;
		memcpy(s + at, nm, n);
		if (at)
			s[--at] = ';';
	}
	return s;
}

struct line {
	char *path;
	uint64_t count;
};

static int by_path(const void *a, const void *b)
{
	return strcmp(((const struct line *)a)->path, ((const struct line *)b)->path);
}

int ft_write_folded(const struct ft_tree *t, FILE *f)
{
	size_t nr = 0, n = ft_nr_nodes(t);
	struct line *lines = calloc(n ? n : 1, sizeof(*lines));
	int r = 0;

	if (!lines)
		return TB_ERR_NOMEM;
	for (uint32_t i = 1; i < n; i++) {
		if (!ft_node(t, i)->self)
			continue;
		if (!(lines[nr].path = path_of(t, i))) {
			r = TB_ERR_NOMEM;
			goto out;
		}
		lines[nr++].count = ft_node(t, i)->self;
	}
	qsort(lines, nr, sizeof(*lines), by_path);
	for (size_t i = 0; i < nr && !r; i++)
		if (fprintf(f, "%s %" PRIu64 "\n", lines[i].path, lines[i].count) < 0)
			r = TB_ERR_IO;
out:
	for (size_t i = 0; i < nr; i++)
		free(lines[i].path);
	free(lines);
	return r;
}

int ft_diff(struct ft_tree *t, const struct ft_tree *before)
{
	size_t n = ft_nr_nodes(t);
	uint32_t *twin = calloc(n, sizeof(*twin));   /* the node's twin in before */

	if (!twin)
		return TB_ERR_NOMEM;
	ft_set_before(t, 0, ft_total(before));
	/* parents come before their children: a node's twin is its parent
	 * twin's child of the same name */
	for (uint32_t i = 1; i < n; i++) {
		const struct ft_node *nd = ft_node(t, i);
		int64_t m = 0;

		if (!nd->parent || twin[nd->parent])
			m = ft_find_child(before, twin[nd->parent], ft_name(t, nd->name));
		twin[i] = m > 0 ? (uint32_t)m : 0;
		ft_set_before(t, i, m > 0 ? ft_node(before, (uint32_t)m)->value : 0);
	}
	free(twin);
	return 0;
}

static int by_name(const void *a, const void *b, void *t)
{
	const struct ft_tree *tree = t;

	return strcmp(ft_name(tree, ft_node(tree, *(const uint32_t *)a)->name),
		      ft_name(tree, ft_node(tree, *(const uint32_t *)b)->name));
}

int ft_children(const struct ft_tree *t, uint32_t i, uint64_t min, uint32_t **kids, size_t *nr,
		struct ft_merged *m)
{
	size_t n = 0;

	memset(m, 0, sizeof(*m));
	*nr = 0;
	if (min < 1)
		min = 1;
	for (uint32_t c = ft_node(t, i)->child; c; c = ft_node(t, c)->sibling)
		n++;
	if (!(*kids = malloc((n ? n : 1) * sizeof(**kids))))
		return TB_ERR_NOMEM;
	for (uint32_t c = ft_node(t, i)->child; c; c = ft_node(t, c)->sibling) {
		const struct ft_node *nd = ft_node(t, c);

		if (!nd->value)       /* an off-CPU task still away at the end */
			continue;
		if (nd->value >= min) {
			(*kids)[(*nr)++] = c;
		} else {
			m->nr++;
			m->value += nd->value;
			m->before += nd->before;
		}
	}
	if (m->value < min)
		memset(m, 0, sizeof(*m));
	qsort_r(*kids, *nr, sizeof(**kids), by_name, (void *)t);
	return 0;
}
