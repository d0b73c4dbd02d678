/* test_flame_tree.c - the flame tree of the pictures (common/pictures/):
 * paths merged by name, values up the tree, folded lines sorted as
 * stackcollapse.py sorts them, the differential's before values, the
 * children a picture draws and the narrow ones merged, names made valid
 * UTF-8, and the escaping of text into HTML and JSON-in-HTML. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include "unit.h"
#include "pictures/flame_tree.h"
#include "pictures/pic_escape.h"
#include "pictures/tidmap.h"
#include "pictures/utf8.h"

/* Add the stack "a;b;c" (root first) with weight @w; returns its node. */
static int64_t add(struct ft_tree *t, const char *stack, uint64_t w)
{
	uint32_t names[16];
	uint8_t kinds[16];
	size_t n = 0;
	struct tb_err err = { 0 };
	int64_t node, name;

	for (const char *p = stack; n < 16; n++) {
		const char *q = strchr(p, ';');

		if ((name = ft_intern(t, p, q ? (size_t)(q - p) : strlen(p))) < 0)
			return name;
		names[n] = (uint32_t)name;
		kinds[n] = FT_USER;
		if (!q) {
			n++;
			break;
		}
		p = q + 1;
	}
	node = ft_path_from(t, 0, names, kinds, n, NULL, &err);
	if (node > 0)
		ft_credit(t, (uint32_t)node, w);
	return node;
}

/* The folded lines of @t, NUL-terminated in a static buffer. */
static const char *folded(const struct ft_tree *t)
{
	static char buf[4096];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	ft_write_folded(t, f);
	fclose(f);
	return buf;
}

static void test_tree(void)
{
	struct ft_tree *t = ft_new("all");
	int64_t ab = add(t, "p;a;b", 3);

	T(ab > 0 && add(t, "p;a;b", 2) == ab, "the same path is the same node");
	add(t, "p;a", 1);
	add(t, "p;c;d", 4);
	add(t, "q;a;b", 5);
	T_EQ(ft_total(t), 15, "the root holds every weight");
	T_EQ(ft_node(t, (uint32_t)ab)->value, 5, "a node's value: its stacks");
	T_EQ(ft_node(t, ft_node(t, (uint32_t)ab)->parent)->value, 6, "its parent's: its own and its children's");
	T_EQ(ft_node(t, ft_node(t, (uint32_t)ab)->parent)->self, 1, "the parent's self: the stacks ending there");
	T_STR(folded(t), "p;a 1\np;a;b 5\np;c;d 4\nq;a;b 5\n", "folded lines sorted by path, counts summed");
	T_EQ(ft_nr_names(t), 7, "names interned once: all p a b c d q");
	ft_free(t);
}

static void test_diff(void)
{
	struct ft_tree *before = ft_new("all"), *after = ft_new("all");
	int64_t hot, cold, fresh;

	add(before, "p;main;hot", 8);
	add(before, "p;main;cold", 2);
	hot = add(after, "p;main;hot", 2);
	cold = add(after, "p;main;cold", 8);
	fresh = add(after, "p;other", 5);
	T(!ft_diff(after, before), "the diff is made");
	T_EQ(ft_node(after, 0)->before, 10, "the root's before: the first profile's total");
	T_EQ(ft_node(after, (uint32_t)hot)->before, 8, "a frame's before: the same path's value there");
	T_EQ(ft_node(after, (uint32_t)cold)->before, 2, "another's");
	T_EQ(ft_node(after, (uint32_t)fresh)->before, 0, "a path the first profile lacks: 0");
	T_EQ(ft_node(after, ft_node(after, (uint32_t)hot)->parent)->before, 10, "main's: all of it");
	ft_free(before);
	ft_free(after);
}

static void test_children(void)
{
	struct ft_tree *t = ft_new("all");
	struct ft_merged m;
	uint32_t *kids;
	size_t nr;
	int64_t p;

	add(t, "p;zeta", 50);
	add(t, "p;alpha", 30);
	add(t, "p;n1", 4);
	add(t, "p;n2", 3);
	add(t, "p;n3", 3);
	p = ft_node(t, (uint32_t)add(t, "p;n4", 0))->parent;
	T(!ft_children(t, (uint32_t)p, 10, &kids, &nr, &m), "children listed");
	T(nr == 2 && !strcmp(ft_name(t, ft_node(t, kids[0])->name), "alpha") &&
	  !strcmp(ft_name(t, ft_node(t, kids[1])->name), "zeta"), "the wide ones, sorted by name");
	T(m.nr == 3 && m.value == 10, "the narrow ones merged into one of their sum (%zu, %llu)", m.nr,
	  (unsigned long long)m.value);
	free(kids);
	T(!ft_children(t, (uint32_t)p, 11, &kids, &nr, &m), "children listed");
	T(nr == 2 && m.nr == 0 && m.value == 0, "narrow ones that together stay narrow: not drawn");
	free(kids);
	T(!ft_children(t, (uint32_t)p, 0, &kids, &nr, &m), "children listed");
	T(nr == 5 && m.nr == 0, "minimum 0: all but the one of no value (%zu)", nr);
	free(kids);
	ft_free(t);
}

static void test_names(void)
{
	struct ft_tree *t = ft_new("all");
	int64_t n = add(t, "p;bad\xff;", 1);
	char out[16];

	T(n > 0 && !strcmp(ft_name(t, ft_node(t, ft_node(t, (uint32_t)n)->parent)->name),
			   "bad\xef\xbf\xbd"), "an invalid byte becomes U+FFFD");
	T_STR(ft_name(t, ft_node(t, (uint32_t)n)->name), "", "an empty name stays empty");
	T(utf8_valid("\xc3\xa9\xe2\x82\xac", 5) && !utf8_valid("\xc3", 1) && !utf8_valid("\xed\xa0\x80", 3),
	  "UTF-8: whole sequences valid, a cut one and a surrogate not");
	T(utf8_clean("ab\0c", 4, out, 15) == 6 && !memcmp(out, "ab\xef\xbf\xbd" "c", 6), "a NUL becomes U+FFFD");
	T(utf8_clean("\xe2\x82\xac\xe2\x82\xac", 6, out, 5) == 3, "cut at a character, never inside one");
	ft_free(t);
}

static const char *escaped(void (*fn)(FILE *, const char *), const char *s)
{
	static char buf[512];
	FILE *f = fmemopen(buf, sizeof(buf) - 1, "w");

	fn(f, s);
	fclose(f);
	return buf;
}

static void test_escape(void)
{
	T_STR(escaped(pic_html_text, "<a href='x'>&\"</a>"),
	      "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;", "HTML: every markup character a reference");
	T_STR(escaped(pic_html_text, "a\x01\xff"), "a\xef\xbf\xbd\xef\xbf\xbd", "HTML: controls and bad bytes as U+FFFD");
	T_STR(escaped(pic_json_string, "</script><!--&"),
	      "\"\\u003c/script\\u003e\\u003c!--\\u0026\"", "JSON in HTML: < > & as \\u escapes");
	T_STR(escaped(pic_json_string, "q\"\\\n"), "\"q\\\"\\\\\\u000a\"", "JSON: quote, backslash, newline");
	T_STR(escaped(pic_json_string, "\xe2\x80\xa8\xe2\x80\xa9\xff"), "\"\\u2028\\u2029\\ufffd\"",
	      "JSON: the line separators and a bad byte escaped");
}

static void test_tidmap(void)
{
	struct tidmap m;
	int ok = 1;

	tidmap_init(&m, sizeof(uint64_t));
	for (uint32_t i = 0; i < 5000; i++)
		*(uint64_t *)tidmap_get(&m, i * 7919u + 0xfffff000u, 1) = i;
	for (uint32_t i = 0; i < 5000; i++) {
		uint64_t *v = tidmap_get(&m, i * 7919u + 0xfffff000u, 0);

		ok &= v && *v == i;
	}
	T(ok, "5,000 thread ids (wrapping past 2^32) keep their values through growth");
	T(!tidmap_get(&m, 3, 0), "an unknown id: none, not made");
	tidmap_free(&m);
}

int main(void)
{
	test_tree();
	test_diff();
	test_children();
	test_names();
	test_escape();
	test_tidmap();
	return done();
}
