/* record_events.h - trace-record's -e list as recorder events: tracepoints, perf's event names, the default event, the dummy. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RECORD_EVENTS_H
#define RECORD_EVENTS_H

#include <stddef.h>
#include "args.h"
#include "record/recorder.h"

struct rec_evlist {
	struct rec_event *evs;
	size_t nr;
	int oom;
};

/** record_events_has_tracepoint - whether a -e item names a tracepoint (SYS:EVENT) */
int record_events_has_tracepoint(const struct opt_list *specs);
/**
 * record_events_resolve - every -e item (comma lists split) as an event:
 * SYS:EVENT (globs) through tracefs @tfs, or a hardware/software event by
 * perf's name; none: perf's default event (cycles:P). @system_wide adds
 * perf's dummy:HG after them when the recording is a profile (see
 * record_events_profile; @callchain_or_data: -g or -d). Prints its own
 * message; 0 or -1.
 */
int record_events_resolve(const char *tfs, const struct opt_list *specs, int system_wide,
			  int callchain_or_data, struct rec_evlist *x);
/**
 * record_events_profile - whether the recording is a profile (a non-
 * tracepoint event, or @callchain_or_data: -g, -d), which follows mmaps
 * as perf does; a system-wide tracepoint-only recording does not (README)
 */
int record_events_profile(const struct rec_evlist *x, int callchain_or_data);
/** record_event_name - the event's name for the file ("sys:event",
 * "cpu-clock:ppp"...), allocated */
char *record_event_name(const struct rec_event *e);
void record_events_free(struct rec_evlist *x);

#endif
