/* tep_log.c - libtraceevent's warnings on stderr as perf script 6.1 prints
 * them: perf's own copy of the library (tools/lib/traceevent, parse-utils.c
 * __vwarning) prints "libtraceevent: <strerror(errno)>" when errno is set,
 * clears errno, then "  <message>". perf reaches its first warning with the
 * ENOENT of its start-up in errno, and warns with errno 0 after that: the
 * first warning of a run gets the perror line, the others do not.
 * libtraceevent 1.7.1 calls tep_vprint (a weak symbol) for every message
 * at or above the level set with tep_set_loglevel: this definition wins. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <traceevent/event-parse.h>
#include "tep_log.h"
#include "tep_workarounds.h"

static int warned;

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt,
	       va_list ap);

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt,
	       va_list ap)
{
	(void)level;
	fflush(stdout);
	if (print_err && !warned++)
		fprintf(stderr, "%s: No such file or directory\n", name);
	fprintf(stderr, "  ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	return 0;
}

void tep_log_like_perf(void)
{
	tepw_set_loglevel(TEP_LOG_WARNING);
}
