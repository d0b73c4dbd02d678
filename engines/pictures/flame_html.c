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
};

/* [name, kind, value, [children], before?]: a merged frame's name is
 * minus the number of frames it stands for. */
static int node(struct writer *w, uint32_t i);

static int children(struct writer *w, uint32_t i)
{
	struct ft_merged m;
	uint32_t *kids;
	size_t nr;
	int r = ft_children(w->t, i, w->min, &kids, &nr, &m);

	if (r)
		return r;
	fputc('[', w->f);
	for (size_t k = 0; k < nr && !r; k++) {
		if (k)
			fputc(',', w->f);
		r = node(w, kids[k]);
	}
	free(kids);
	if (m.nr && !r) {
		fprintf(w->f, "%s[-%zu,%d,%" PRIu64 ",[]", nr ? "," : "", m.nr, FT_MERGED, m.value);
		if (w->diff)
			fprintf(w->f, ",%" PRIu64, m.before);
		fputc(']', w->f);
	}
	fputc(']', w->f);
	return r;
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

	w.min = min > 0 ? (uint64_t)min + ((double)(uint64_t)min < min) : 0;
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
