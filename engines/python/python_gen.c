/* python_gen.c - trace-gen -g python: a starter script with one handler per
 * event type of a recording, printing every field (perf trace -g python). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include "engine_core.h"

/* What a field's parameter cannot be called: Python's keywords and
 * __debug__ (no name can be bound to it), and every global a generated
 * handler calls, which a parameter of that name would hide (a field
 * named print: "'int' object is not callable"). Such a parameter is NAME_;
 * the printed label keeps the field's name. */
static const char *const reserved[] = {
	"False", "None", "True", "and", "as", "assert", "async", "await", "break", "class",
	"continue", "def", "del", "elif", "else", "except", "finally", "for", "from",
	"global", "if", "import", "in", "is", "lambda", "nonlocal", "not", "or", "pass",
	"raise", "return", "try", "while", "with", "yield", "__debug__",
	"print", "str", "print_header", "flag_str", "symbol_str", NULL
};

static void write_handler(FILE *f, const struct ec_gen_event *e)
{
	size_t nr = e->dec->nr;

	fprintf(f, "def %s(event_name, context, common_cpu,\n"
		   "\t\tcommon_secs, common_nsecs, common_pid, common_comm,\n"
		   "\t\tcommon_callchain", e->handler);
	for (size_t i = 0; i < nr; i++)
		fprintf(f, "%s%s", i % 4 == 0 ? ",\n\t\t" : ", ", e->params[i]);
	fputs("):\n", f);
	fputs("\tprint_header(event_name, common_cpu, common_secs, common_nsecs,\n"
	      "\t\tcommon_pid, common_comm)\n\n", f);
	fputs("\tprint(\"", f);
	for (size_t i = 0; i < nr; i++)
		fprintf(f, "%s%s=%%s", i ? ", " : "", e->labels[i]);
	fputs("\" % \\\n\t\t(", f);
	for (size_t i = 0; i < nr; i++) {
		const struct tp_field *t = &e->dec->fields[i];

		if (i)
			fputs(i % 3 == 0 ? ",\n\t\t" : ", ", f);
		if (t->is_flag)
			fprintf(f, "flag_str(\"%s\", \"%s\", %s)", e->handler, e->labels[i],
				e->params[i]);
		else if (t->is_symbolic)
			fprintf(f, "symbol_str(\"%s\", \"%s\", %s)", e->handler, e->labels[i],
				e->params[i]);
		else
			fprintf(f, "str(%s)", e->params[i]);
	}
	fputs(nr == 1 ? ",))\n\n" : "))\n\n", f);
}

static const struct ec_gen_lang python_lang = {
	.sep = "__",
	.reserved = reserved,
	.head = "# trace-gen starter script: one handler per event type of the recording.\n"
		"# Run it with: trace-report -s THIS_FILE [-i perf.data]\n"
		"# Handler arguments are described in tracebox's scripts/python/README.md.\n\n"
		"import os\nimport sys\n\n"
		"sys.path.append(os.environ['PERF_EXEC_PATH'] + \\\n"
		"\t'/scripts/python/Perf-Trace-Util/lib/Perf/Trace')\n\n"
		"from perf_trace_context import *\nfrom Core import *\n\n\n"
		"def trace_begin():\n\tprint(\"in trace_begin\")\n\n"
		"def trace_end():\n\tprint(\"in trace_end\")\n\n",
	.tail = "def trace_unhandled(event_name, context, event_fields_dict):\n"
		"\tprint(' '.join(['%s=%s' % (k, str(v)) for k, v in sorted(event_fields_dict.items())]))\n\n"
		"def print_header(event_name, cpu, secs, nsecs, pid, comm):\n"
		"\tprint(\"%-20s %5u %05u.%09u %8u %-20s \" % \\\n"
		"\t\t(event_name, cpu, secs, nsecs, pid, comm), end=\"\")\n",
	.event = write_handler,
};

int python_generate(const struct engine_gen *g, struct tb_err *err)
{
	return ec_generate(g, &python_lang, err);
}
