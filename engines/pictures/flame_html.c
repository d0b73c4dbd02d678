/* flame_html.c - a flame tree written as one HTML page: the tree as JSON
 * data (children sorted by name; frames narrower than the minimum width
 * merged into one), then flame.js, which draws it as SVG and makes it
 * interactive. Every name reaches the page as an escaped JSON string. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "pictures/flame_html.h"
#include "pictures/pic_assets.h"
#include "pictures/pic_escape.h"
#include "pictures/pictures.h"

struct writer {
	FILE *f;
	const struct ft_tree *t;
	uint64_t min;              /* the least value drawn as a frame of its own */
	int diff;
	uint32_t *order;           /* scratch: children of one node */
};

static int by_name(const void *a, const void *b, void *t)
{
	const struct ft_tree *tree = t;

	return strcmp(ft_name(tree, ft_node(tree, *(const uint32_t *)a)->name),
		      ft_name(tree, ft_node(tree, *(const uint32_t *)b)->name));
}

/* [name, kind, value, [children], before?]: a merged frame's name is
 * minus the number of frames it stands for. */
static int node(struct writer *w, uint32_t i);

static int children(struct writer *w, uint32_t i)
{
	const struct ft_node *nd = ft_node(w->t, i);
	size_t nr = 0, shown = 0, merged = 0;
	uint64_t mv = 0, mb = 0;
	uint32_t *kids;

	for (uint32_t c = nd->child; c; c = ft_node(w->t, c)->sibling)
		nr++;
	if (!(kids = malloc((nr ? nr : 1) * sizeof(*kids))))
		return TB_ERR_NOMEM;
	nr = 0;
	for (uint32_t c = nd->child; c; c = ft_node(w->t, c)->sibling)
		kids[nr++] = c;
	qsort_r(kids, nr, sizeof(*kids), by_name, (void *)w->t);
	fputc('[', w->f);
	for (size_t k = 0; k < nr; k++) {
		const struct ft_node *c = ft_node(w->t, kids[k]);
		int r;

		if (c->value < w->min) {
			merged++;
			mv += c->value;
			mb += c->before;
			continue;
		}
		if (shown++)
			fputc(',', w->f);
		if ((r = node(w, kids[k]))) {
			free(kids);
			return r;
		}
	}
	if (merged && mv >= w->min && mv) {
		fprintf(w->f, "%s[-%zu,%d,%" PRIu64 ",[]", shown ? "," : "", merged, FT_MERGED, mv);
		if (w->diff)
			fprintf(w->f, ",%" PRIu64, mb);
		fputc(']', w->f);
	}
	fputc(']', w->f);
	free(kids);
	return 0;
}

static int node(struct writer *w, uint32_t i)
{
	const struct ft_node *nd = ft_node(w->t, i);
	int r;

	fprintf(w->f, "[%" PRIu32 ",%d,%" PRIu64 ",", nd->name, nd->kind, nd->value);
	if ((r = children(w, i)))
		return r;
	if (w->diff)
		fprintf(w->f, ",%" PRIu64, nd->before);
	fputc(']', w->f);
	return 0;
}

static const char *default_title(const struct engine_picture *pic)
{
	if (pic->before)
		return "Differential Flame Graph";
	return pic->offcpu ? "Off-CPU Time Flame Graph" : "Flame Graph";
}

int flame_write_html(FILE *f, const struct ft_tree *t, const struct engine_picture *pic)
{
	struct writer w = { .f = f, .t = t, .diff = pic->before != NULL };
	const char *title = pic->title ? pic->title : default_title(pic);
	double min = pic->width ? pic->minwidth / pic->width * (double)ft_total(t) : 0;
	int r;

	/* a frame of no value (an off-CPU task still away at the end) is none */
	w.min = min > 1 ? (uint64_t)min + ((double)(uint64_t)min < min) : 1;
	pic_page_begin(f, title, pic_asset_flame_js_sha256, pic_asset_flame_css,
		       pic_asset_flame_css_sha256);
	fputs("{\"title\":", f);
	pic_json_string(f, title);
	fprintf(f, ",\"unit\":\"%s\",\"width\":%u,\"inverted\":%d,\"colors\":\"%s\",\"diff\":%d,"
		"\"kinds\":[\"root\",\"comm\",\"user\",\"kernel\",\"inline\",\"jit\",\"merged\"],"
		"\"names\":[", pic->offcpu ? "us" : "samples", pic->width, pic->inverted,
		pic->hot ? "hot" : "kind", w.diff);
	for (size_t i = 0; i < ft_nr_names(t); i++) {
		if (i)
			fputc(',', f);
		pic_json_string(f, ft_name(t, (uint32_t)i));
	}
	fputs("],\"root\":", f);
	r = node(&w, 0);
	fputs("}", f);
	pic_page_end(f, pic_asset_flame_js);
	return r ? r : ferror(f) ? TB_ERR_IO : 0;
}
