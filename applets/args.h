/* args.h - one small option parser for every applet: a table of {short, long, kind, help}. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ARGS_H
#define ARGS_H

#include <stdio.h>

enum opt_kind {
	OPT_FLAG,    /* int: set to 1 (counted when repeated) */
	OPT_STR,     /* const char *: the argument */
	OPT_LIST,    /* struct opt_list: appended */
	OPT_UINT,    /* unsigned long: a decimal number */
	OPT_OPTSTR,  /* const char *: the argument after '=', or "" when none */
	OPT_END
};

struct opt_list {
	const char **items;
	int nr;
};

struct opt {
	char short_name;        /* 0 for long only */
	const char *long_name;  /* NULL for short only */
	enum opt_kind kind;
	void *dest;
	const char *argname;    /* for help: "FILE" */
	const char *help;
};

#define OPT_TABLE_END { 0, NULL, OPT_END, NULL, NULL, NULL }

struct applet_help {
	const char *name;
	const char *usage;      /* "[-i FILE] [--header]" */
	const char *summary;    /* one paragraph */
	const struct opt *opts;
};

/**
 * args_parse - parse argv[1..] against @h->opts, stopping at the first
 * operand or after "--". Prints its own message for bad options.
 * Returns the index of the first operand, -1 on a bad option (exit 1),
 * or -2 when --help was given (usage printed to stdout, exit 0).
 */
int args_parse(const struct applet_help *h, int argc, char **argv);
void args_usage(FILE *fp, const struct applet_help *h);

#endif
