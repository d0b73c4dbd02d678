/* flame_html.h - a flame tree as one self-contained interactive HTML page. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef FLAME_HTML_H
#define FLAME_HTML_H

#include <stdio.h>
#include "engine.h"
#include "pictures/flame_tree.h"

/**
 * flame_write_html - @t drawn as @pic says (title, width, minimum frame
 * width, inverted, colours; a differential when the nodes carry before
 * values, pic->before set) into @f. Returns 0, TB_ERR_NOMEM or TB_ERR_IO.
 */
int flame_write_html(FILE *f, const struct ft_tree *t, const struct engine_picture *pic);

#endif
