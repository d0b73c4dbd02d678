/* test_args.c - the applets' option parser (applets/args.c): short and long
 * forms, attached and separate arguments, counted flags, lists, numbers,
 * "--", operands, --help, and each way a command line can be wrong. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "args.h"
#include "unit.h"

static struct {
	int all, verbose;
	const char *input;
	unsigned long pages;
	struct opt_list events;
} o;

static const struct opt opts[] = {
	{ 'a', "all", OPT_FLAG, &o.all, NULL, "a flag" },
	{ 'v', NULL, OPT_FLAG, &o.verbose, NULL, "a short-only flag" },
	{ 'i', "input", OPT_STR, &o.input, "FILE", "a string" },
	{ 'm', "mmap-pages", OPT_UINT, &o.pages, "N", "a number" },
	{ 'e', "event", OPT_LIST, &o.events, "E", "a list" },
	OPT_TABLE_END
};

static const struct applet_help help = { "test", "[-a] [-i FILE]", "A test.", opts };

/* parse the words of @line (space-separated), after a fresh o */
static int parse(const char *line)
{
	static char buf[256];
	char *argv[32];
	int argc = 0;

	free(o.events.items);
	memset(&o, 0, sizeof(o));
	snprintf(buf, sizeof(buf), "test %s", line);
	for (char *w = strtok(buf, " "); w && argc < 31; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	return args_parse(&help, argc, argv);
}

int main(void)
{
	T_EQ(parse("-i f.data x"), 3, "-i FILE: the operand after it is first");
	T_STR(o.input, "f.data", "-i FILE");
	T(parse("-if.data") == 2 && !strcmp(o.input, "f.data"), "-iFILE attached");
	T(parse("--input f.data") == 3 && !strcmp(o.input, "f.data"), "--input FILE");
	T(parse("--input=f.data") == 2 && !strcmp(o.input, "f.data"), "--input=FILE");
	T(parse("--input=") == 2 && o.input && !*o.input, "--input= gives an empty string");
	T(parse("-a -a --all -v") == 5 && o.all == 3 && o.verbose == 1, "flags count repeats");
	T(parse("-e a:b --event c:d -ee:f") == 6 && o.events.nr == 3 &&
	  !strcmp(o.events.items[2], "e:f"), "a list keeps every value in order");
	T(parse("-m 16") == 3 && o.pages == 16, "-m 16");
	T(parse("--mmap-pages=0x10") == 2 && o.pages == 16, "numbers take 0x");
	T_EQ(parse("-m 12x"), -1, "-m 12x: not a number");
	T_EQ(parse("-m -1"), -1, "-m -1: not a number");
	T_EQ(parse("-m x"), -1, "-m x: not a number");
	T_EQ(parse("-m 99999999999999999999999"), -1, "-m past unsigned long: refused");
	T(parse("-a -- -i x") == 3 && o.all == 1 && !o.input, "-- ends the options");
	T(parse("- -a") == 1 && !o.all, "- alone is an operand");
	T_EQ(parse("x -a"), 1, "options stop at the first operand");
	T_EQ(parse(""), 1, "no words: the first operand is past the end");
	T_EQ(parse("-x"), -1, "-x: unknown");
	T_EQ(parse("--inputs f"), -1, "--inputs: no prefix matching");
	T_EQ(parse("-i"), -1, "-i at the end: needs an argument");
	T_EQ(parse("--all=1"), -1, "--all=1: a flag takes no argument");
	T_EQ(parse("-ax"), -1, "-ax: a flag takes nothing attached");
	T_EQ(parse("-v --help"), -2, "--help anywhere before the operands");
	T_EQ(parse("-h"), -2, "-h");
	free(o.events.items);
	return done();
}
