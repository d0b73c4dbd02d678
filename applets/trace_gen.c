/* trace_gen.c - trace-gen: placeholder that answers --help and says it is not built yet. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include "applets.h"
#include "args.h"

static const struct opt no_opts[] = { OPT_TABLE_END };
static const struct applet_help help = {
	"trace-gen", "-g python|perl [-i FILE]",
	"Write a starter Python or Perl script with one handler per event type\nfound in a recording. Not in this build yet: it arrives with the engines.",
	no_opts
};

int trace_gen_main(int argc, char **argv)
{
	int r = args_parse(&help, argc, argv);

	if (r == -2)
		return 0;
	fprintf(stderr, "trace-gen: not implemented in this build yet (see --help)\n");
	return 2;
}
