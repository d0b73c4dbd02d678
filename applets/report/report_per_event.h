/* report_per_event.h - --per-event-dump: each event's printed samples in a file of its own, INPUT.EVENT.dump, as perf script writes them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_PER_EVENT_H
#define REPORT_PER_EVENT_H

#include <stdint.h>
#include <stdio.h>
#include "perfdata/pd_session.h"
#include "report/report_state.h"

struct report_per_event {
	struct report_print *pr;
	struct pd_session *session;
	FILE **files;             /* one per attr, in attr order */
	char **names;
	uint64_t *samples;
	size_t nr;
};

/**
 * report_per_event_open - create INPUT.EVENT.dump for every attr (a
 * symlink there is not followed; an event name holding '/' is refused).
 * Prints what went wrong; returns 0 or -1.
 */
int report_per_event_open(struct report_per_event *pe, struct report_print *pr,
			  struct pd_session *s, const char *input);
/** report_per_event_sample - pd_consumer.sample: print @ev into its event's file */
int report_per_event_sample(void *ctx, const struct pd_event *ev);
/**
 * report_per_event_close - close the files and say, as perf does, how much
 * went into each. Returns 0, or -1 when a write failed (said).
 */
int report_per_event_close(struct report_per_event *pe);

#endif
