/* python_gen.c - trace-gen -g python: a starter script with one handler per
 * event type of a recording, printing every field (perf trace -g python). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "engine.h"
#include "tp_fields.h"

static const char *const keywords[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
	"continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
	"global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
	"raise", "return", "try", "while", "with", "yield", NULL
};

/* A field name usable as a parameter (keywords get a trailing '_'). */
static void param(FILE *f, const char *name)
{
	fputs(name, f);
	for (int i = 0; keywords[i]; i++)
		if (!strcmp(name, keywords[i]))
			fputc('_', f);
}

static int write_handler(void *ctx, struct tep_event *tp, const struct tp_layout *l)
{
	FILE *f = ctx;

	(void)tp;
	fprintf(f, "def %s(event_name, context, common_cpu,\n"
		   "\t\tcommon_secs, common_nsecs, common_pid, common_comm,\n"
		   "\t\tcommon_callchain", l->handler);
	for (size_t i = 0; i < l->nr; i++) {
		fputs(i % 4 == 0 ? ",\n\t\t" : ", ", f);
		param(f, l->fields[i].name);
	}
	fputs("):\n", f);
	fputs("\tprint_header(event_name, common_cpu, common_secs, common_nsecs,\n"
	      "\t\tcommon_pid, common_comm)\n\n", f);
	fputs("\tprint(\"", f);
	for (size_t i = 0; i < l->nr; i++)
		fprintf(f, "%s%s=%%s", i ? ", " : "", l->fields[i].name);
	fputs("\" % \\\n\t\t(", f);
	for (size_t i = 0; i < l->nr; i++) {
		const struct tp_field *t = &l->fields[i];

		if (i)
			fputs(i % 3 == 0 ? ",\n\t\t" : ", ", f);
		if (t->is_flag)
			fprintf(f, "flag_str(\"%s\", \"%s\", ", l->handler, t->name);
		else if (t->is_symbolic)
			fprintf(f, "symbol_str(\"%s\", \"%s\", ", l->handler, t->name);
		else
			fputs("str(", f);
		param(f, t->name);
		fputs(")", f);
	}
	fputs(l->nr == 1 ? ",))\n\n" : "))\n\n", f);
	return 0;
}

int python_generate(const struct engine_gen *g, struct tb_err *err)
{
	FILE *f = fopen(g->output, "w");

	if (!f)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot create %s: %m", g->output);
	fputs("# trace-gen starter script: one handler per event type of the recording.\n"
	      "# Run it with: trace-report -s THIS_FILE [-i perf.data]\n"
	      "# Handler arguments are described in tracebox's scripts/python/README.md.\n\n"
	      "import os\nimport sys\n\n"
	      "sys.path.append(os.environ['PERF_EXEC_PATH'] + \\\n"
	      "\t'/scripts/python/Perf-Trace-Util/lib/Perf/Trace')\n\n"
	      "from perf_trace_context import *\nfrom Core import *\n\n\n"
	      "def trace_begin():\n\tprint(\"in trace_begin\")\n\n"
	      "def trace_end():\n\tprint(\"in trace_end\")\n\n", f);
	if (tp_for_each_layout(g->session, write_handler, f)) {
		fclose(f);
		return TB_ERR_NOMEM;
	}
	fputs("def trace_unhandled(event_name, context, event_fields_dict):\n"
	      "\tprint(' '.join(['%s=%s' % (k, str(v)) for k, v in sorted(event_fields_dict.items())]))\n\n"
	      "def print_header(event_name, cpu, secs, nsecs, pid, comm):\n"
	      "\tprint(\"%-20s %5u %05u.%09u %8u %-20s \" % \\\n"
	      "\t\t(event_name, cpu, secs, nsecs, pid, comm), end=\"\")\n", f);
	if (fclose(f))
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "writing %s: %m", g->output);
	return 0;
}
