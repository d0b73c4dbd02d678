/* perl_gen.c - trace-gen -g perl: a starter script with one handler per
 * event type of a recording, printing every field (perf trace -g perl). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "engine.h"
#include "tp_fields.h"

static int write_handler(void *ctx, struct tep_event *tp, const struct tp_layout *l)
{
	FILE *f = ctx;
	char name[300];

	snprintf(name, sizeof(name), "%s::%s", tp->system, tp->name);
	fprintf(f, "sub %s\n{\n\tmy ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,\n"
		   "\t    $common_pid, $common_comm, $common_callchain", name);
	for (size_t i = 0; i < l->nr; i++)
		fprintf(f, i % 4 == 0 ? ",\n\t    $%s" : ", $%s", l->fields[i].name);
	fputs(") = @_;\n\n\tprint_header($event_name, $common_cpu, $common_secs, $common_nsecs,\n"
	      "\t\t     $common_pid, $common_comm);\n\n\tprintf(\"", f);
	for (size_t i = 0; i < l->nr; i++)
		fprintf(f, "%s%s=%%s", i ? ", " : "", l->fields[i].name);
	fputs("\\n\"", f);
	for (size_t i = 0; i < l->nr; i++) {
		const struct tp_field *t = &l->fields[i];

		fputs(i % 3 == 0 ? ",\n\t       " : ", ", f);
		if (t->is_flag)
			fprintf(f, "flag_str(\"%s\", \"%s\", $%s)", name, t->name, t->name);
		else if (t->is_symbolic)
			fprintf(f, "symbol_str(\"%s\", \"%s\", $%s)", name, t->name, t->name);
		else if (t->kind == TP_ARRAY)
			fprintf(f, "join(\",\", @{$%s})", t->name);
		else
			fprintf(f, "$%s", t->name);
	}
	fputs(");\n}\n\n", f);
	return 0;
}

int perl_generate(const struct engine_gen *g, struct tb_err *err)
{
	FILE *f = fopen(g->output, "w");

	if (!f)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot create %s: %m", g->output);
	fputs("# trace-gen starter script: one handler per event type of the recording.\n"
	      "# Run it with: trace-report -s THIS_FILE [-i perf.data]\n"
	      "# Handler arguments are described in tracebox's scripts/perl/README.md.\n\n"
	      "use lib \"$ENV{'PERF_EXEC_PATH'}/scripts/perl/Perf-Trace-Util/lib\";\n"
	      "use lib \"./Perf-Trace-Util/lib\";\n"
	      "use Perf::Trace::Core;\nuse Perf::Trace::Context;\nuse Perf::Trace::Util;\n\n"
	      "sub trace_begin\n{\n\tprint \"in trace_begin\\n\";\n}\n\n"
	      "sub trace_end\n{\n\tprint \"in trace_end\\n\";\n}\n\n", f);
	if (tp_for_each_layout(g->session, write_handler, f)) {
		fclose(f);
		return TB_ERR_NOMEM;
	}
	fputs("sub trace_unhandled\n{\n\tmy ($event_name, $context, $common_cpu, $common_secs,\n"
	      "\t    $common_nsecs, $common_pid, $common_comm, $common_callchain) = @_;\n\n"
	      "\tprint_header($event_name, $common_cpu, $common_secs, $common_nsecs,\n"
	      "\t\t     $common_pid, $common_comm);\n\tprint \"\\n\";\n}\n\n"
	      "sub print_header\n{\n\tmy ($event_name, $cpu, $secs, $nsecs, $pid, $comm) = @_;\n\n"
	      "\tprintf(\"%-20s %5u %05u.%09u %8u %-20s \",\n"
	      "\t       $event_name, $cpu, $secs, $nsecs, $pid, $comm);\n}\n", f);
	if (fclose(f))
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "writing %s: %m", g->output);
	return 0;
}
