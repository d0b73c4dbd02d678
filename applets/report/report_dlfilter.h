/* report_dlfilter.h - --dlfilter: perf's dlfilter API (perf_dlfilter.h), a shared object that drops samples and may print, in the dynamic build. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_DLFILTER_H
#define REPORT_DLFILTER_H

#include "perfdata/pd_session.h"

struct report_dlfilter;

/**
 * report_dlfilter_open - load @path, hand it @args (--dlarg) and call its
 * start(); perf's message and status on a file dlopen refuses, one line in
 * the static build (which cannot load it). Returns 0 with *@out, or the
 * exit status after printing.
 */
int report_dlfilter_open(struct report_dlfilter **out, const char *path, char **args, int nargs,
			 struct pd_session *s);
/** report_dlfilter_early - filter_event_early: whether it drops @ev (1) */
int report_dlfilter_early(struct report_dlfilter *f, const struct pd_event *ev);
/** report_dlfilter_event - filter_event, after perf's own filters: 1 drops @ev */
int report_dlfilter_event(struct report_dlfilter *f, const struct pd_event *ev);
/** report_dlfilter_close - stop() and unload; NULL does nothing */
void report_dlfilter_close(struct report_dlfilter *f);

#endif
