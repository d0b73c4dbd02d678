/* report_header.h - trace-report --header: the recording's header as perf script prints it. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_HEADER_H
#define REPORT_HEADER_H

#include <stdio.h>

struct pd_session;

/** report_print_header - the --header lines, equal to perf script 6.1's
 * (plus tracebox's syscall map line); @path ("-": stdin) is stat()ed for
 * "captured on"; @only: --header-only (in pipe mode perf then prints no
 * feature); @full: -I, the topology features in full */
void report_print_header(FILE *out, struct pd_session *s, const char *path, int only, int full);

#endif
