/* tc_html.h - a timechart model as one self-contained interactive HTML page. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TC_HTML_H
#define TC_HTML_H

#include <stdio.h>
#include "engine.h"
#include "pictures/tc_model.h"

/**
 * tc_write_html - @m (finished) drawn as @pic says (title, width, arrows
 * at first) into @f: the model as JSON data, then timechart.js, which
 * draws it. Returns 0, TB_ERR_NOMEM or TB_ERR_IO.
 */
int tc_write_html(FILE *f, const struct tc_model *m, const struct engine_picture *pic);

#endif
