/* report_script.h - trace-report's script mode: run an engine over a recording. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_SCRIPT_H
#define REPORT_SCRIPT_H

struct pd_session;
struct report_filter;

/** report_list_languages - "-s lang": the engines of this build */
void report_list_languages(void);

/**
 * report_run_script - run [lang:]SPEC with @argc/@argv (argv[0] = script)
 * over @s, the samples passing @filter (report_filter.h) only; @warn
 * (or NULL) when the reading ends, before the script's trace_end. Prints
 * errors; returns the exit status.
 */
int report_run_script(struct pd_session *s, const char *path, const char *spec, int argc,
		      char **argv, struct report_filter *filter,
		      void (*warn)(struct pd_session *s));

#endif
