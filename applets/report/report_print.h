/* report_print.h - trace-report's default output: one perf-script line per event. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_PRINT_H
#define REPORT_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include "report/report_state.h"

struct pd_session;
struct pd_event;

/** report_print_init - perf's default fields for @s (no -F) */
int report_print_init(struct report_print *p, struct pd_session *s, FILE *out, int nsecs);
/**
 * report_print_setup - the options that shape the lines, before the first sample
 * @fields: the -F arguments, in order (may be 0 of them)
 * @no_callchain: -G; @max_stack: --max-stack (127 by default)
 * Returns 0, or -1 after printing perf's message for a bad combination.
 */
int report_print_setup(struct report_print *p, const char **fields, int nr_fields,
		       int reltime, int deltatime, int no_callchain, unsigned long max_stack);
/** report_print_sample - pd_consumer callback: print one event */
int report_print_sample(void *ctx, const struct pd_event *ev);
/** report_print_flush - write out what is buffered: another printer (the
 * --show-*-events records, -D) is about to write to the same FILE */
void report_print_flush(void *p);
/** report_print_finish - write out what is buffered; frees the buffer. 0 or -1 */
int report_print_finish(struct report_print *p);

#endif
