/* report_side.h - trace-report --show-*-events: non-sample records printed among the samples. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_SIDE_H
#define REPORT_SIDE_H

#include <stdio.h>

struct pd_session;
struct pd_record;

/* Which --show-* options were given. */
struct report_side_opts {
	int task, mmap, lost, swtch, ns, cgroup, bpf;
};

struct rf_config;

struct report_side {
	struct pd_session *session;
	FILE *out;
	int nsecs;           /* --ns */
	int latency;         /* -L: perf's latency_format columns */
	const struct rf_config *rf; /* the printer's fields (NULL: perf's defaults) */
	unsigned types;      /* bit per PERF_RECORD_* type to print */
};

/** report_side_types - the record types the options ask for (0: none) */
unsigned report_side_types(const struct report_side_opts *o);
/** report_side_cpu - the cpu perf filters a record by (-C): its sample_id's,
 * or 0 when its attr has no sample_id_all */
int report_side_cpu(const struct pd_record *r);
/** report_side_record - print @r if its type is asked for; 0, or
 * TB_ERR_STOP after saying why (a record too short for its body) */
int report_side_record(struct report_side *sd, const struct pd_record *r);
/** report_side_body - what perf_event__fprintf prints after "PERF_RECORD_X"
 * for @r, reading no further than @end (the record less its sample_id);
 * 0 or TB_ERR_STOP as above */
int report_side_body(FILE *fp, const struct pd_record *r, size_t end);

#endif
