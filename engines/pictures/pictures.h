/* pictures.h - the picture engines: a flame graph of the samples' stacks
 * (or of the time tasks spend switched out) and a scheduling timeline,
 * each one self-contained HTML file (docs/pictures.md). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PICTURES_H
#define PICTURES_H

#include <stdio.h>
#include "engine.h"

int flame_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
int flame_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
int flame_stop(struct engine_run *run, struct tb_err *err);
int tc_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
int tc_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
int tc_stop(struct engine_run *run, struct tb_err *err);

/**
 * pic_open - @path for writing a picture ("-": stdout), through a
 * temporary file beside it that pic_close renames into place only when
 * everything was written. Returns the stream or NULL with @err set (its
 * message without the path: the applet names it).
 */
FILE *pic_open(const char *path, char **tmp, struct tb_err *err);
/** pic_close - finish what pic_open began: 0, or TB_ERR_IO with @err set
 * (the temporary file removed, @path untouched); @failed: remove only */
int pic_close(FILE *f, const char *path, char *tmp, int failed, struct tb_err *err);

/**
 * pic_page_begin - an HTML page up to its data: the Content-Security-Policy
 * that lets only @js (and the style @css) run, by their hashes, the
 * escaped @title, the style, and the opening of the data element
 * (<script type="application/json" id="tb-data">).
 */
void pic_page_begin(FILE *f, const char *title, const char *js_sha, const char *css,
		    const char *css_sha);
/** pic_page_end - the data element's end, the script @js, the page's end */
void pic_page_end(FILE *f, const char *js);

#endif
