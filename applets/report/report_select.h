/* report_select.h - perf script's other sample selections: -d (order check only), -S/--addr-range, --dsos, --switch-on/--switch-off. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_SELECT_H
#define REPORT_SELECT_H

#include <stddef.h>
#include <stdint.h>
#include "perfdata/pd_session.h"

struct report_select {
	/* the options as given (set before init) */
	int debug_mode, show_on_off;
	const char *sym_str, *dso_str, *on_str, *off_str;
	const char *graph_function; /* --graph-function: only call/return samples */
	unsigned long addr_range;
	/* parsed by report_select_init */
	struct pd_session *session;
	char **syms, **dsos;
	size_t nr_syms, nr_dsos;
	uint64_t *addrs;          /* the -S entries that are numbers */
	size_t nr_addrs;
	const struct pd_evsel *on, *off;
	int discarding;
	uint64_t last_time, nr_misordered;
};

/** report_select_init - parse the lists and find the switch events, perf's
 * way; prints what is wrong and returns its exit status, else 0 */
int report_select_init(struct report_select *sel, struct pd_session *s);
/** report_select_debug - -d: count a sample out of time order and drop
 * every sample (1); 0 without -d */
int report_select_debug(struct report_select *sel, const struct pd_event *ev);
/** report_select_drop - whether -S, --dsos or the event switch drop @ev */
int report_select_drop(struct report_select *sel, const struct pd_event *ev);
/** report_select_end - -d's count, as perf prints it at the end */
void report_select_end(const struct report_select *sel);
void report_select_free(struct report_select *sel);

#endif
