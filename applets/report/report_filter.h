/* report_filter.h - trace-report's sample filters (--pid, --tid, --comm, -C, --time), one consumer in front of the printer or the script. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_FILTER_H
#define REPORT_FILTER_H

#include <stddef.h>
#include <stdint.h>
#include "perfdata/pd_session.h"
#include "report/report_time.h"

#define REPORT_MAX_CPUS 4096     /* perf's MAX_NR_CPUS */

struct report_side;
struct report_dump;
struct report_select;
struct report_dlfilter;

struct report_filter {
	/* the options as given, NULL when absent (set before init) */
	const char *pid_str, *tid_str, *comm_str, *cpu_str, *time_str;
	struct report_side *side; /* print these non-sample records (NULL: none) */
	struct report_dump *dump; /* -D: dump every record (NULL: no) */
	struct report_select *select; /* -d, -S, --dsos, --switch-on/off (NULL: none) */
	int show_round;           /* --show-round-events: a line per FINISHED_ROUND */
	int keep_guest;           /* a --guest* option: a guest's samples are kept */
	struct report_dlfilter *dlfilter; /* --dlfilter (NULL: none) */
	/* called before side or dump lines go out, so that a printer with a
	 * buffer of its own writes what it holds first (NULL: none) */
	void (*flush)(void *ctx);
	void *flush_ctx;
	/* parsed by report_filter_init */
	long *pids, *tids;
	size_t nr_pids, nr_tids;
	char **comms;
	size_t nr_comms;
	unsigned char *cpu_map;   /* bitmap, REPORT_MAX_CPUS bits, or NULL */
	struct report_range *ranges;
	int nr_ranges;
	struct pd_consumer next;  /* where what passes goes */
	int samples_pass;         /* report_filter_wrap: nothing above looks at a sample */
};

/**
 * report_filter_init - parse the options perf's way (perf script 6.1:
 * comma lists; --time START,STOP with several ranges separated by spaces,
 * or the percent forms P%, P%/N, A%-B% and their comma lists, against the
 * recording's first and last sample times; -C needs cpu in the samples)
 * Returns 0, or -1 after printing what is wrong.
 */
int report_filter_init(struct report_filter *f, struct pd_session *s);
/** report_filter_wrap - make @out the consumer that filters, then calls @next */
void report_filter_wrap(struct report_filter *f, const struct pd_consumer *next,
			struct pd_consumer *out);
/** report_filter_keeps - whether sample @ev passes @ctx's (a struct
 * report_filter) --time, -C, --comm, --pid, --tid and perf's selections,
 * for a consumer that must see every sample but counts only these */
int report_filter_keeps(void *ctx, const struct pd_event *ev);
void report_filter_free(struct report_filter *f);

#endif
