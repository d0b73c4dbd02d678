/* trace_record.c - trace-record: placeholder that answers --help and says it is not built yet. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include "applets.h"
#include "args.h"

static const struct opt no_opts[] = { OPT_TABLE_END };
static const struct applet_help help = {
	"trace-record", "[-a] [-e SYSTEM:EVENT]... [-o FILE] [-- COMMAND ARGS]",
	"Record tracepoints with perf_event_open into a perf.data file that\n'perf script' reads. Not in this build yet: use 'perf record -e SYS:EVENT'\nand read the result with trace-report.",
	no_opts
};

int trace_record_main(int argc, char **argv)
{
	int r = args_parse(&help, argc, argv);

	if (r == -2)
		return 0;
	fprintf(stderr, "trace-record: not implemented in this build yet (see --help)\n");
	return 2;
}
