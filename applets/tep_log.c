/* tep_log.c - libtraceevent's warnings on stderr as perf script 6.1 prints
 * them: perf's own copy of the library (tools/lib/traceevent, parse-utils.c
 * __vwarning) prints "libtraceevent: <strerror(errno)>" when errno is set,
 * clears errno, then "  <message>". perf reaches its first warning with the
 * ENOENT of its start-up in errno, and warns with errno 0 after that: the
 * first warning of a run gets the perror line, the others do not.
 * libtraceevent 1.7.1 calls tep_vprint (a weak symbol) for every message
 * at or above the level set with tep_set_loglevel: this definition wins.
 * The lines are kept until the applet knows the run is good: a bad file
 * still gets its one line (tep_log_flush). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "tep_log.h"
#include "tracepoint/tep_workarounds.h"
#include "xfuncs.h"

#define KEEP_MAX (64u << 10)     /* bytes of warnings kept; the rest are dropped */

static char *kept;
static size_t nkept, nwarned;

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt,
	       va_list ap);

static void keep(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void keep(const char *fmt, ...)
{
	va_list ap;
	char line[1024];
	int n;

	va_start(ap, fmt);
	n = vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n >= sizeof(line))
		n = sizeof(line) - 1;
	if (!kept)
		kept = malloc(KEEP_MAX);
	if (!kept || nkept + (size_t)n > KEEP_MAX)
		return;
	memcpy(kept + nkept, line, (size_t)n);
	nkept += (size_t)n;
}

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt,
	       va_list ap)
{
	char msg[1000];

	(void)level;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (print_err && !nwarned++)
		keep("%s: No such file or directory\n", name);
	keep("  %s\n", msg);
	return 0;
}

void tep_log_like_perf(void)
{
	tepw_set_loglevel(TEP_LOG_WARNING);
}

void tep_log_flush(int print)
{
	if (print && nkept) {
		fflush(stdout);
		/* perf 6.1: tools/lib/traceevent/parse-utils.c __vwarning (its
		 * "libtraceevent: " perror line, then "  message") */
		perf_msg("%.*s", (int)nkept, kept);
	}
	nkept = 0;
}
