/* report_script.c - trace-report -s: pick the engine and run the script
 * (report_run.c), report what went wrong; -s lang lists the engines. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "catalogue.h"
#include "engine.h"
#include "util/payload.h"
#include "perfdata/pd_session.h"
#include "report/report_run.h"
#include "report/report_script.h"
#include "xfuncs.h"

void report_list_languages(void)
{
	const struct engine_ops *const *e = engine_list();

	printf("Scripting language extensions (used in -s [lang:]script.[ext]):\n\n");
	for (int i = 0; e[i]; i++) {
		printf("  %-42s [%s]%s%s\n", e[i]->name, e[i]->ext + 1,
		       e[i]->unavailable ? "  " : "", e[i]->unavailable ? e[i]->unavailable : "");
		printf("  %-42s [%s]\n", e[i]->alias, e[i]->ext + 1);
	}
}

int report_run_script(struct pd_session *s, const char *path, const char *spec, int argc,
		      char **argv, struct report_filter *filter,
		      void (*warn)(struct pd_session *s))
{
	const char *script;
	const struct engine_ops *ops = cat_lang(spec, &script);
	struct engine_start st = { 0 };
	struct report_run x = { 0 };
	char *exec_path;

	if (!ops)
		ops = engine_for_file(script);
	if (!ops) {
		error_msg("%s: no engine for this script (name a language "
				"with -s LANG:FILE; -s lang lists them)", script);
		return 1;
	}
	if (!vfile_readable(script)) {
		perror_msg("%s: cannot read the script", script);
		return 1;
	}
	/* no tree on disk: PERF_EXEC_PATH names the payload's (payload.h) */
	exec_path = scripts_dir() ? xasprintf("%s/..", scripts_dir()) : xasprintf(PAYLOAD_ROOT);
	setenv("TRACEBOX_SCRIPTS", scripts_dir() ? scripts_dir() : PAYLOAD_ROOT "/scripts", 1);
	argv[0] = (char *)script;
	st.script = script;
	st.argc = argc;
	st.argv = argv;
	st.session = s;
	st.exec_path = exec_path;
	x.ops = ops;
	x.st = &st;
	x.filter = filter;
	x.stat_rounds = 1;
	x.after_reading = warn;
	report_run(&x, s);
	fflush(stdout);
	free(exec_path);
	if (x.exit_status >= 0)
		return x.exit_status;     /* the script ended the run itself */
	if (x.r)
		error_msg_at(x.err.code == TB_ERR_STOP || !x.err.has_offset ? script : path,
			   x.r, &x.err);
	else if (x.stop_r)
		error_msg_at(script, x.stop_r, &x.stop_err);
	return x.r || x.stop_r ? 1 : 0;
}
