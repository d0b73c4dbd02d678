/* report_compat.c - what perf script 6.1's own options do before the
 * samples: -l, --list-dlfilters, --itrace's check, --dlfilter, --stitch-lbr. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "applets.h"
#include "perfdata/pd_evsel.h"
#include "perfdata/pd_format.h"
#include "report/report_compat.h"
#include "util/itrace_opts.h"
#include "xfuncs.h"

int report_compat_early(const struct perf_compat *pc)
{
	if (pc->itrace && itrace_opts_valid(pc->itrace)) {
		/* perf 6.1: util/auxtrace.c itrace_do_parse_synth_opts (pr_err),
		 * then the usage and status 129 */
		perf_msg("Bad Instruction Tracing options '%s'\n", pc->itrace);
		return 129;
	}
	if (pc->list) {
		char *av[] = { (char *)"trace-list", NULL };

		return applet_find("trace-list")->main(1, av);
	}
	if (pc->list_dlfilters) {
		/* perf lists the .so files of its dlfilters folder: this build has none */
		printf("List of available dlfilters:\n");
		return 0;
	}
	return -1;
}

static FILE *xed_pipe;

static void xed_wait(void)
{
	fflush(stdout);
	close(STDOUT_FILENO);
	pclose(xed_pipe);
}

int report_compat_xed(void)
{
	/* perf 6.1: builtin-script.c parse_xed, force_pager's command */
	xed_pipe = popen("xed -F insn: -A -64 | less", "w");
	if (!xed_pipe || dup2(fileno(xed_pipe), STDOUT_FILENO) < 0) {
		perror_msg("--xed");
		return -1;
	}
	atexit(xed_wait);
	return 0;
}

int report_compat_fields(const struct perf_compat *pc, struct opt_list *fields, int *nsecs)
{
	const char *add[3];
	const char **items;
	int n = 0;

	if (pc->insn_trace) {
		if (!strcmp(pc->insn_trace, "disasm")) {
			/* perf 6.1: builtin-script.c parse_output_fields (pr_err):
			 * Debian's perf has no disasm field */
			perf_msg("Invalid field requested.\n");
			return 129;
		}
		if (*pc->insn_trace && strcmp(pc->insn_trace, "raw")) {
			/* perf 6.1: builtin-script.c parse_insn_trace (pr_err) */
			perf_msg("Only accept raw|disasm\n");
			return 129;
		}
		add[n++] = "+insn,-event,-period";
	}
	if (pc->call_trace)
		add[n++] = "-ip,-addr,-event,-period,+callindent";
	if (pc->call_ret_trace)
		add[n++] = "-ip,-addr,-event,-period,+callindent,+flags";
	if (!n)
		return 0;
	items = malloc((size_t)(fields->nr + n) * sizeof(*items));
	if (!items) {
		error_msg("out of memory");
		return 1;
	}
	memcpy(items, add, (size_t)n * sizeof(*items));
	if (fields->nr)
		memcpy(items + n, fields->items, (size_t)fields->nr * sizeof(*items));
	free(fields->items);
	fields->items = items;
	fields->nr += n;
	*nsecs = 1;
	return 0;
}

int report_compat_check(const struct perf_compat *pc, struct pd_session *s)
{
	if (!pc->stitch_lbr)
		return -1;
	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);

		if ((e->sample_type & PD_S_CALLCHAIN) && (e->sample_type & PD_S_BRANCH_STACK) &&
		    (e->sattr.branch_sample_type & (1ULL << 11)))     /* CALL_STACK */
			return -1;
	}
	/* perf 6.1: builtin-script.c cmd_script (pr_warning); it goes on */
	perf_msg("Can't find LBR callchain. Switch off --stitch-lbr.\n"
		 "Please apply --call-graph lbr when recording.\n");
	return -1;
}
