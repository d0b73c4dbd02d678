/* tp_fastfmt.h - a fast path for rendering simple tracepoint print formats. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TP_FASTFMT_H
#define TP_FASTFMT_H

#include <stddef.h>

struct tep_event;
struct tpf_prog;

/*
 * libtraceevent renders an event by calling vsnprintf once per argument;
 * that dominates the cost of printing a recording. Most events print
 * integers and strings of plain fields ("NR %ld (%lx, ...)", "comm=%s
 * pid=%d"): for those, tpf_compile() turns libtraceevent's parsed print
 * format (event->print_fmt: format text and argument tree, so no second
 * print-fmt parser) into a little program that renders the same bytes
 * directly. Anything else (flags, symbols, pointers, casts, helpers, '*'
 * widths, precisions) makes tpf_compile() return NULL: the caller then
 * uses tep_print_event() as before. tpf_render() returns -1 for a record
 * whose fields do not lie inside it, again leaving it to libtraceevent.
 */
struct tpf_prog *tpf_compile(struct tep_event *ev);
void tpf_free(struct tpf_prog *p);

/**
 * tpf_render - render one record's raw data
 * @buf, @cap: output; the text is not NUL-terminated
 * Returns the length written, or -1 (fall back to libtraceevent).
 */
int tpf_render(const struct tpf_prog *p, const unsigned char *data, int size,
	       char *buf, size_t cap);

#endif
