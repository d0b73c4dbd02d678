/* applets.c - the sorted applet table and its lookup (toybox toy_find style). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "applets.h"

const struct applet applet_table[] = {
	{ "trace-gen",    trace_gen_main,    "write a starter Python or Perl script for a recording" },
	{ "trace-list",   trace_list_main,   "list canned trace scripts and tracepoints" },
	{ "trace-record", trace_record_main, "record tracepoints into a perf.data file" },
	{ "trace-report", trace_report_main, "print a recording's events, or run a script on them" },
};
const int applet_count = sizeof(applet_table) / sizeof(applet_table[0]);

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct applet *)elem)->name);
}

const struct applet *applet_find(const char *name)
{
	return bsearch(name, applet_table, (size_t)applet_count, sizeof(applet_table[0]),
		       cmp_name);
}
