/* trace_gen.c - trace-gen: write a starter Python or Perl script with one
 * handler per event type of a recording (perf trace -g). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "applets.h"
#include "args.h"
#include "engine.h"
#include "perfdata/pd_session.h"
#include "xfuncs.h"

static struct {
	const char *lang, *input, *output;
} o;

static const struct opt gen_opts[] = {
	{ 'g', "gen-script", OPT_STR, &o.lang, "LANG", "python (py) or perl (pl)" },
	{ 'i', "input", OPT_STR, &o.input, "FILE", "recording to read (default perf.data)" },
	{ 'o', "output", OPT_STR, &o.output, "FILE",
	  "script to write, - for stdout (default perf-script.py or perf-script.pl)" },
	OPT_TABLE_END
};

static const struct applet_help gen_help = {
	"trace-gen", "-g python|perl [-i FILE] [-o SCRIPT]",
	"Write a starter trace script with one handler for every event type in the\n"
	"recording, printing every field (flag_str/symbol_str for flag and\n"
	"symbolic fields). Run unchanged with trace-report -s SCRIPT, it prints\n"
	"every event; edit it into the report you need.",
	gen_opts
};

int trace_gen_main(int argc, char **argv)
{
	const struct engine_ops *ops;
	struct pd_session *s = NULL;
	struct engine_gen g;
	struct tb_err err = { 0 };
	char out[256];
	const char *path;
	int first, fd, r;

	memset(&o, 0, sizeof(o));
	first = args_parse(&gen_help, argc, argv);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (first < argc || !o.lang) {
		error_msg("%s (try --help)",
			o.lang ? "unexpected argument" : "which language? give -g python or -g perl");
		return 1;
	}
	ops = engine_find(o.lang);
	if (!ops) {
		error_msg("unknown language '%s' (python, perl)", o.lang);
		return 1;
	}
	snprintf(out, sizeof(out), "perf-script%s", ops->ext);
	path = o.input ? o.input : "perf.data";
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(STDIN_FILENO);
	if (fd < 0) {
		perror_msg("%s", path);
		return 1;
	}
	if ((r = pd_session_open(&s, path, fd, &err))) {
		error_msg_at(path, r, &err);
		return 1;
	}
	g.session = s;
	g.output = o.output ? o.output : out;
	g.log = engine_log;
	g.log_ctx = NULL;
	r = ops->generate(&g, &err);
	pd_session_close(s);
	if (r) {
		error_msg_at(g.output, r, &err);
		if (r == TB_ERR_IO && !strcmp(g.output, "-"))
			stdout_error_shown();
		return 1;
	}
	if (strcmp(g.output, "-"))
		printf("generated %s script: %s\n", ops->name, g.output);
	return 0;
}
