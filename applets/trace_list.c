/* trace_list.c - trace-list: placeholder that answers --help and says it is not built yet. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include "applets.h"
#include "args.h"

static const struct opt no_opts[] = { OPT_TABLE_END };
static const struct applet_help help = {
	"trace-list", "[--events [GLOB]]",
	"List the canned trace scripts with their arguments and descriptions.\nNot in this build yet: the script engines arrive with the Python engine.",
	no_opts
};

int trace_list_main(int argc, char **argv)
{
	int r = args_parse(&help, argc, argv);

	if (r == -2)
		return 0;
	fprintf(stderr, "trace-list: not implemented in this build yet (see --help)\n");
	return 2;
}
