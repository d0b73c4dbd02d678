/* tep_workarounds.h - keep hostile tracing data away from libtraceevent bugs. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TEP_WORKAROUNDS_H
#define TEP_WORKAROUNDS_H

/*
 * Each function below guards one group of upstream libtraceevent bugs,
 * seen in 1.7.1 (the release Debian 12 ships, which tracebox links) and
 * noted by the fuzz campaigns as still present in 1.8.4. The "FIGURES #N"
 * tags are the bug numbers of tests/fuzz/FIGURES.md, whose reproducers
 * tests/fuzz.test replays. Once the libtraceevent tracebox links fixes a
 * bug, drop its workaround and the call to it in tracing_data.c; the
 * reproducers must still pass.
 *
 * Call order, for each part of a HEADER_TRACING_DATA payload:
 *   event format:   a private copy of the text, NUL-terminated with two
 *                   bytes of room; tepw_format_text(), then
 *                   tepw_cut_print_fmt(), then tep_parse_format()
 *   every format:   tepw_check_common_type() once they are all parsed
 *   printk formats: tepw_printk_lines(), then tep_parse_printk_formats()
 *   saved cmdlines: tepw_cmdline_lines(), then tep_parse_saved_cmdlines()
 */

#include <stddef.h>
#include <stdint.h>
#include "util/tb_err.h"

#include <traceevent/event-parse.h>

struct tep_handle;

size_t tepw_format_text(char *text, size_t len);
/** tepw_print_fmt_tabs - a raw tab in the print fmt's strings becomes "\t"
 * (libtraceevent 1.7.1 fails on it); @text has room for 2 * @len + 2 bytes */
size_t tepw_print_fmt_tabs(char *text, size_t len);

/** tepw_set_loglevel - tep_set_loglevel(@level), kept so that the probes
 * above, which parse cut texts, can silence libtraceevent and restore it */
void tepw_set_loglevel(enum tep_loglevel level);
size_t tepw_cut_print_fmt(char *text, size_t len, int long_size, const char *sys);
int tepw_check_common_type(struct tep_handle *tep, uint64_t base, struct tb_err *err);
void tepw_printk_lines(char *text);
void tepw_cmdline_lines(char *text);

#endif
