/* perl_gen.c - trace-gen -g perl: a starter script with one handler per
 * event type of a recording, printing every field (perf trace -g perl). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include "engine_core.h"

/* What a field's parameter cannot be called: "my $_" does not compile.
 * Perl's sigils keep every other name apart from the subs a handler
 * calls (print_header, flag_str, join...). */
static const char *const reserved[] = { "_", NULL };

/* Perl's parser takes identifiers of some 250 bytes ("Identifier too
 * long"): a longer field's parameter is cut (and told apart by ec_params),
 * a longer handler is defined through its glob, which takes any length. */
#define MAX_IDENT 200

static void write_handler(FILE *f, const struct ec_gen_event *e)
{
	size_t nr = e->dec->nr;

	if (strlen(e->handler) > MAX_IDENT)
		fprintf(f, "*{'%s'} = sub\n", e->handler);
	else
		fprintf(f, "sub %s\n", e->handler);
	fprintf(f, "{\n\tmy ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,\n"
		   "\t    $common_pid, $common_comm, $common_callchain");
	for (size_t i = 0; i < nr; i++)
		fprintf(f, i % 4 == 0 ? ",\n\t    $%s" : ", $%s", e->params[i]);
	fputs(") = @_;\n\n\tprint_header($event_name, $common_cpu, $common_secs, $common_nsecs,\n"
	      "\t\t     $common_pid, $common_comm);\n\n\tprintf(\"", f);
	for (size_t i = 0; i < nr; i++)
		fprintf(f, "%s%s=%%s", i ? ", " : "", e->labels[i]);
	fputs("\\n\"", f);
	for (size_t i = 0; i < nr; i++) {
		const struct tp_field *t = &e->dec->fields[i];

		fputs(i % 3 == 0 ? ",\n\t       " : ", ", f);
		if (t->is_flag)
			fprintf(f, "flag_str(\"%s\", \"%s\", $%s)", e->handler, e->labels[i],
				e->params[i]);
		else if (t->is_symbolic)
			fprintf(f, "symbol_str(\"%s\", \"%s\", $%s)", e->handler, e->labels[i],
				e->params[i]);
		else if (t->kind == TP_ARRAY)
			fprintf(f, "join(\",\", @{$%s})", e->params[i]);
		else
			fprintf(f, "$%s", e->params[i]);
	}
	fputs(strlen(e->handler) > MAX_IDENT ? ");\n};\n\n" : ");\n}\n\n", f);
}

static const struct ec_gen_lang perl_lang = {
	.sep = "::",
	.reserved = reserved,
	.max_ident = MAX_IDENT,
	.head = "# trace-gen starter script: one handler per event type of the recording.\n"
		"# Run it with: trace-report -s THIS_FILE [-i perf.data]\n"
		"# Handler arguments are described in tracebox's scripts/perl/README.md.\n\n"
		"use lib \"$ENV{'PERF_EXEC_PATH'}/scripts/perl/Perf-Trace-Util/lib\";\n"
		"use lib \"./Perf-Trace-Util/lib\";\n"
		"use Perf::Trace::Core;\nuse Perf::Trace::Context;\nuse Perf::Trace::Util;\n\n"
		"sub trace_begin\n{\n\tprint \"in trace_begin\\n\";\n}\n\n"
		"sub trace_end\n{\n\tprint \"in trace_end\\n\";\n}\n\n",
	.tail = "sub trace_unhandled\n{\n\tmy ($event_name, $context, $common_cpu, $common_secs,\n"
		"\t    $common_nsecs, $common_pid, $common_comm, $common_callchain) = @_;\n\n"
		"\tprint_header($event_name, $common_cpu, $common_secs, $common_nsecs,\n"
		"\t\t     $common_pid, $common_comm);\n\tprint \"\\n\";\n}\n\n"
		"sub print_header\n{\n\tmy ($event_name, $cpu, $secs, $nsecs, $pid, $comm) = @_;\n\n"
		"\tprintf(\"%-20s %5u %05u.%09u %8u %-20s \",\n"
		"\t       $event_name, $cpu, $secs, $nsecs, $pid, $comm);\n}\n",
	.event = write_handler,
};

int perl_generate(const struct engine_gen *g, struct tb_err *err)
{
	return ec_generate(g, &perl_lang, err);
}
