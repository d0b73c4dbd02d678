/* main.c - the tracebox multicall dispatcher: picks an applet from
 * basename(argv[0]) or from the first argument (BusyBox style). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <malloc.h>
#include <stdio.h>
#include <string.h>
#include "applets.h"
#include "xfuncs.h"

static void list_applets(FILE *fp)
{
	fprintf(fp, "usage: tracebox APPLET [ARGS...]   (or run a link named after the applet)\n\n"
		    "tracebox records kernel tracepoints into perf.data files and reports\n"
		    "on them, printing events or running Python and Perl trace scripts.\n\n"
		    "applets:\n");
	for (int i = 0; i < applet_count; i++)
		fprintf(fp, "  %-14s %s\n", applet_table[i].name, applet_table[i].summary);
	fprintf(fp, "\n'tracebox APPLET --help' describes each one.\n");
}

/* Run @a, then check stdout: a write error fails the applet (xexit). */
static void __attribute__((noreturn)) run(const struct applet *a, int argc, char **argv)
{
	applet_name = a->name;
	/* one malloc arena for every thread: what the reader and read-ahead
	 * threads free serves the printing thread's next allocations
	 * (report-stacks' peak RSS 26.1 -> 25.4 MiB, no slower); glibc's */
#ifdef M_ARENA_MAX
	mallopt(M_ARENA_MAX, 1);
#endif
	xexit(a->main(argc, argv));
}

int main(int argc, char **argv)
{
	const char *base = argc > 0 && argv[0] ? argv[0] : "tracebox";
	const struct applet *a;

	if (strrchr(base, '/'))
		base = strrchr(base, '/') + 1;
	a = applet_find(base);
	if (a)
		run(a, argc, argv);
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		list_applets(stdout);
		xexit(0);
	}
	a = applet_find(argv[1]);
	if (!a) {
		error_msg("applet not found: %s", argv[1]);
		list_applets(stderr);
		return 127;
	}
	run(a, argc - 1, argv + 1);
}
