/* flame_tree.c - stacks merged into one tree of frames, interned names,
 * folded lines, the differential mark and the pruning for pictures. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "pictures/flame_tree.h"
#include "pictures/utf8.h"

/* An open-addressing table of uint32 slots (0: empty) over keys the
 * caller hashes and compares. */
struct slots {
	uint32_t *v;
	size_t cap;                /* a power of two */
};

struct ft_tree {
	struct ft_node *nodes;
	size_t nr, cap;
	char *text;                /* the names, NUL-terminated, one after another */
	size_t text_len, text_cap;
	uint32_t *name_off;        /* per name: its offset in text */
	size_t nr_names, names_cap;
	struct slots by_name;      /* name index + 1 */
	struct slots by_edge;      /* node index (the child) */
};

static uint64_t hash_bytes(const char *p, size_t n)
{
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 1099511628211ULL;
	return h ^ (h >> 29);
}

static uint64_t hash_edge(uint32_t parent, uint32_t name)
{
	uint64_t h = ((uint64_t)parent << 32 | name) * 0x9e3779b97f4a7c15ULL;

	return h ^ (h >> 31);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap ? *cap : 64;
	void *q;

	if (need <= *cap)
		return 0;
	while (c < need)
		c *= 2;
	if (!(q = realloc(*p, c * elem)))
		return -1;
	*p = q;
	*cap = c;
	return 0;
}

static int slots_init(struct slots *s, size_t cap)
{
	s->cap = cap;
	s->v = calloc(cap, sizeof(*s->v));
	return s->v ? 0 : -1;
}

const char *ft_name(const struct ft_tree *t, uint32_t i)
{
	return i < t->nr_names ? t->text + t->name_off[i] : "";
}

static uint64_t name_hash_of(const struct ft_tree *t, uint32_t i)
{
	const char *s = ft_name(t, i);

	return hash_bytes(s, strlen(s));
}

static uint64_t edge_hash_of(const struct ft_tree *t, uint32_t node)
{
	return hash_edge(t->nodes[node].parent, t->nodes[node].name);
}

/* Double @s's slots when half full, re-placing every entry by @rehash. */
static int slots_fit(struct slots *s, size_t used, const struct ft_tree *t, uint32_t bias,
		     uint64_t (*rehash)(const struct ft_tree *, uint32_t))
{
	struct slots n;

	if (2 * (used + 1) <= s->cap)
		return 0;
	if (slots_init(&n, s->cap * 2))
		return -1;
	for (size_t i = 0; i < s->cap; i++) {
		size_t j;

		if (!s->v[i])
			continue;
		for (j = rehash(t, s->v[i] - bias) & (n.cap - 1); n.v[j]; j = (j + 1) & (n.cap - 1))
			;
		n.v[j] = s->v[i];
	}
	free(s->v);
	*s = n;
	return 0;
}

/* The index of the name @p (@n bytes, valid UTF-8), added if new; -1: no memory. */
static int64_t intern(struct ft_tree *t, const char *p, size_t n)
{
	size_t j;

	if (slots_fit(&t->by_name, t->nr_names, t, 1, name_hash_of))
		return -1;
	for (j = hash_bytes(p, n) & (t->by_name.cap - 1); t->by_name.v[j];
	     j = (j + 1) & (t->by_name.cap - 1)) {
		const char *s = ft_name(t, t->by_name.v[j] - 1);

		if (!strncmp(s, p, n) && !s[n])
			return t->by_name.v[j] - 1;
	}
	if (grow((void **)&t->text, &t->text_cap, t->text_len + n + 1, 1) ||
	    grow((void **)&t->name_off, &t->names_cap, t->nr_names + 1, sizeof(uint32_t)))
		return -1;
	memcpy(t->text + t->text_len, p, n);
	t->text[t->text_len + n] = 0;
	t->name_off[t->nr_names] = (uint32_t)t->text_len;
	t->text_len += n + 1;
	t->by_name.v[j] = (uint32_t)++t->nr_names;
	return (int64_t)t->nr_names - 1;
}

/* The name index of raw bytes @p: made valid UTF-8 and cut to FT_MAX_NAME. */
static int64_t intern_raw(struct ft_tree *t, const char *p, size_t n)
{
	char buf[FT_MAX_NAME + 4];
	size_t k;

	if (n <= FT_MAX_NAME && utf8_valid(p, n) && !memchr(p, 0, n))
		return intern(t, p, n);
	k = utf8_clean(p, n, buf, FT_MAX_NAME);
	return intern(t, buf, k);
}

/* A new node @name of @kind under @parent; -1: no memory, -2: too many. */
static int64_t add_node(struct ft_tree *t, uint32_t parent, uint32_t name, uint8_t kind)
{
	struct ft_node *nd;

	if (t->nr >= FT_MAX_NODES)
		return -2;
	if (grow((void **)&t->nodes, &t->cap, t->nr + 1, sizeof(*t->nodes)))
		return -1;
	nd = &t->nodes[t->nr];
	memset(nd, 0, sizeof(*nd));
	nd->name = name;
	nd->parent = parent;
	nd->kind = kind;
	if (t->nr) {
		nd->sibling = t->nodes[parent].child;
		t->nodes[parent].child = (uint32_t)t->nr;
	}
	return (int64_t)t->nr++;
}

struct ft_tree *ft_new(const char *root_name)
{
	struct ft_tree *t = calloc(1, sizeof(*t));
	int64_t name;

	if (!t || slots_init(&t->by_name, 64) || slots_init(&t->by_edge, 64) ||
	    (name = intern_raw(t, root_name, strlen(root_name))) < 0 ||
	    add_node(t, 0, (uint32_t)name, FT_ROOT) < 0) {
		ft_free(t);
		return NULL;
	}
	return t;
}

void ft_free(struct ft_tree *t)
{
	if (!t)
		return;
	free(t->nodes);
	free(t->text);
	free(t->name_off);
	free(t->by_name.v);
	free(t->by_edge.v);
	free(t);
}

/* The child of @parent named @name, made with @kind when missing. */
static int64_t child(struct ft_tree *t, uint32_t parent, uint32_t name, uint8_t kind)
{
	size_t j;
	int64_t c;

	if (slots_fit(&t->by_edge, t->nr, t, 0, edge_hash_of))
		return -1;
	for (j = hash_edge(parent, name) & (t->by_edge.cap - 1); t->by_edge.v[j];
	     j = (j + 1) & (t->by_edge.cap - 1)) {
		const struct ft_node *nd = &t->nodes[t->by_edge.v[j]];

		if (nd->parent == parent && nd->name == name)
			return t->by_edge.v[j];
	}
	if ((c = add_node(t, parent, name, kind)) > 0)
		t->by_edge.v[j] = (uint32_t)c;
	return c;
}

int64_t ft_intern(struct ft_tree *t, const char *p, size_t n)
{
	int64_t name = intern_raw(t, p, n);

	return name < 0 ? TB_ERR_NOMEM : name;
}

int64_t ft_path_from(struct ft_tree *t, uint32_t from, const uint32_t *names,
		     const uint8_t *kinds, size_t n, uint32_t *nodes, struct tb_err *err)
{
	int64_t node = from;

	for (size_t i = 0; i < n; i++) {
		if ((node = child(t, (uint32_t)node, names[i], kinds[i])) == -1)
			return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		if (node == -2)
			return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
					  "more than %u frames in one picture", FT_MAX_NODES);
		if (nodes)
			nodes[i] = (uint32_t)node;
	}
	return node;
}

void ft_credit(struct ft_tree *t, uint32_t node, uint64_t w)
{
	t->nodes[node].self += w;
	for (;; node = t->nodes[node].parent) {
		t->nodes[node].value += w;
		if (!node)
			break;
	}
}

const struct ft_node *ft_node(const struct ft_tree *t, uint32_t i)
{
	return i < t->nr ? &t->nodes[i] : NULL;
}

size_t ft_nr_nodes(const struct ft_tree *t)
{
	return t->nr;
}

size_t ft_nr_names(const struct ft_tree *t)
{
	return t->nr_names;
}

uint64_t ft_total(const struct ft_tree *t)
{
	return t->nodes[0].value;
}

/* The index of the name @p, or -1 when the tree has no such name. */
static int64_t find_name(const struct ft_tree *t, const char *p)
{
	size_t n = strlen(p);

	for (size_t j = hash_bytes(p, n) & (t->by_name.cap - 1); t->by_name.v[j];
	     j = (j + 1) & (t->by_name.cap - 1))
		if (!strcmp(ft_name(t, t->by_name.v[j] - 1), p))
			return t->by_name.v[j] - 1;
	return -1;
}

int64_t ft_find_child(const struct ft_tree *t, uint32_t parent, const char *name)
{
	int64_t nm = find_name(t, name);

	if (nm < 0)
		return -1;
	for (size_t j = hash_edge(parent, (uint32_t)nm) & (t->by_edge.cap - 1); t->by_edge.v[j];
	     j = (j + 1) & (t->by_edge.cap - 1)) {
		const struct ft_node *nd = &t->nodes[t->by_edge.v[j]];

		if (nd->parent == parent && nd->name == (uint32_t)nm)
			return t->by_edge.v[j];
	}
	return -1;
}

void ft_set_before(struct ft_tree *t, uint32_t i, uint64_t v)
{
	t->nodes[i].before = v;
}
