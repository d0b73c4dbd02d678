/* report_srccode.h - -F srccode: the source line of each sample, once per line a thread runs (perf's print_srccode). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_SRCCODE_H
#define REPORT_SRCCODE_H

#include <stddef.h>
#include <stdint.h>

struct report_print;
struct pd_event;

/* the last source line printed per thread (perf's thread->srccode_state) */
struct rp_srcstate {
	int32_t tid;
	int used;
	unsigned line;
	char *file;
};

/** rp_srccode - after a sample's lines: "|LINE     TEXT" when its thread
 * runs another source line than it last printed */
void rp_srccode(struct report_print *p, const struct pd_event *ev);
/** rp_srccode_free - the per-thread states */
void rp_srccode_free(struct report_print *p);

#endif
