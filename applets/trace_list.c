/* trace_list.c - trace-list: the canned trace scripts, or (--events) the
 * tracepoints this kernel offers. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "applets.h"
#include "args.h"
#include "catalogue.h"
#include "tracepoint/tracefs.h"
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

/* Every canned script of every language, listed as perf trace -l does. */
static int list_scripts(void)
{
	const char *dir = scripts_dir();
	struct cat_entry *all;
	size_t nr;

	if (!have_scripts()) {
		no_scripts_msg();
		return 1;
	}
	if (cat_list(dir, &all, &nr)) {
		error_msg("out of memory");
		return 1;
	}
	printf("List of available trace scripts:\n");
	for (size_t i = 0; i < nr; i++) {
		char *first = xasprintf("%s %s", all[i].name, all[i].args ? all[i].args : "");

		printf("  %-36s %s\n", first, all[i].desc ? all[i].desc : "");
		free(first);
	}
	cat_list_free(all, nr);
	printf("\nBuilt-in pictures (trace-report NAME, NAME --help for its options):\n");
	printf("  %-36s %s\n", "flamegraph [--offcpu] [--diff BEFORE]",
	       "stacks as one interactive HTML flame graph, or --folded");
	printf("  %-36s %s\n", "timechart", "CPUs and tasks over time, as one interactive HTML page");
	printf("\nBuilt-in recordings for them (trace-record NAME [-- COMMAND]):\n");
	printf("  %-36s %s\n", "offcpu", "-a --self -g -e sched:sched_switch (off-CPU flame graphs)");
	printf("  %-36s %s\n", "timechart", "-a --self, sched_switch, sched_wakeup(_new), process_exit");
	return 0;
}

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
	if (!o.events)
		return first < argc ? (error_msg("unexpected argument '%s'",
					       argv[first]), 1) : list_scripts();
	if (argc - first > 1) {
		error_msg("--events takes one GLOB at most");
		return 1;
	}
	if (tracefs_find(tfs, sizeof(tfs), &err)) {
		error_msg("%s", err.msg);
		return 1;
	}
	xstdout_buffer();
	n = tracefs_list_events(tfs, first < argc ? argv[first] : NULL, print_name, NULL, &err);
	if (n < 0) {
		error_msg("%s", err.msg);
		return 1;
	}
	if (n == 0 && first < argc) {
		error_msg("no tracepoint matches '%s'", argv[first]);
		return 1;
	}
	return 0;
}
