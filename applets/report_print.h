/* report_print.h - trace-report's default output: one perf-script line per event. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_PRINT_H
#define REPORT_PRINT_H

#include <stdio.h>

struct pd_session;
struct pd_event;

struct report_print {
	FILE *out;
	struct pd_session *session;
	int nsecs;             /* --ns: nanosecond timestamps */
	int name_width;        /* 0 until the first sample */
	int show_comm, show_tid, show_cpu, show_time;
};

int report_print_init(struct report_print *p, struct pd_session *s, FILE *out, int nsecs);
/** report_print_sample - pd_consumer callback: print one event */
int report_print_sample(void *ctx, const struct pd_event *ev);

#endif
