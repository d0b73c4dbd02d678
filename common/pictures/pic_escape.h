/* pic_escape.h - text from a recording written into HTML and into JSON
 * inside HTML so that it stays text: nothing in it can end an element,
 * open a tag or run script. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PIC_ESCAPE_H
#define PIC_ESCAPE_H

#include <stdio.h>

/** pic_html_text - @s (any bytes up to its NUL) as HTML text or attribute
 * value: & < > " ' as references, invalid UTF-8 and controls as U+FFFD */
void pic_html_text(FILE *f, const char *s);
/**
 * pic_json_string - @s as a JSON string, quotes included, safe inside a
 * <script type="application/json"> element: < > & as \u003c \u003e \u0026,
 * controls, U+2028 and U+2029 as \uXXXX, invalid UTF-8 as \ufffd.
 */
void pic_json_string(FILE *f, const char *s);

#endif
