/* tep_log.h - libtraceevent's warnings printed as perf script prints them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TEP_LOG_H
#define TEP_LOG_H

/** tep_log_like_perf - from now on, libtraceevent's warnings (a format
 * calling a function it does not know...) go to stderr as perf prints them */
void tep_log_like_perf(void);
/** tep_log_flush - print the warnings kept so far (@print), or drop them
 * (a run that fails says one line) */
void tep_log_flush(int print);

#endif
