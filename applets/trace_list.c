/* trace_list.c - trace-list: the canned trace scripts, or (--events) the
 * tracepoints this kernel offers. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include "applets.h"
#include "args.h"
#include "tracefs.h"
#include "xfuncs.h"

static struct {
	int events;
} o;

static const struct opt list_opts[] = {
	{ 0, "events", OPT_FLAG, &o.events, NULL,
	  "list the tracepoints (SYSTEM:EVENT) this kernel offers, optionally matching GLOB" },
	OPT_TABLE_END
};

static const struct applet_help list_help = {
	"trace-list", "[--events [GLOB]]",
	"List the canned trace scripts with their arguments and descriptions, as\n"
	"'perf trace -l' does; with --events, the tracepoints of this kernel\n"
	"(from tracefs), sorted, e.g. trace-list --events 'sched:*'.",
	list_opts
};

static void print_name(void *ctx, const char *name)
{
	(void)ctx;
	puts(name);
}

int trace_list_main(int argc, char **argv)
{
	struct tb_err err = { 0 };
	char tfs[512];
	int first;
	long n;

	memset(&o, 0, sizeof(o));
	first = args_parse(&list_help, argc, argv);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (!o.events) {
		fprintf(stderr, "trace-list: no canned scripts in this build yet (they come with "
				"the script engines); try --events\n");
		return 1;
	}
	if (argc - first > 1) {
		fprintf(stderr, "trace-list: --events takes one GLOB at most\n");
		return 1;
	}
	if (tracefs_find(tfs, sizeof(tfs), &err)) {
		fprintf(stderr, "trace-list: %s\n", err.msg);
		return 1;
	}
	xstdout_buffer();
	n = tracefs_list_events(tfs, first < argc ? argv[first] : NULL, print_name, NULL, &err);
	if (n < 0) {
		fprintf(stderr, "trace-list: %s\n", err.msg);
		return 1;
	}
	if (n == 0 && first < argc) {
		fprintf(stderr, "trace-list: no tracepoint matches '%s'\n", argv[first]);
		return 1;
	}
	return 0;
}
