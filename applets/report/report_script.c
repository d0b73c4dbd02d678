/* report_script.c - trace-report -s: pick the engine, run the script over
 * every event, stop cleanly on SIGINT or a script error. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "catalogue.h"
#include "engine.h"
#include "util/payload.h"
#include "perfdata/pd_session.h"
#include "report/report_filter.h"
#include "report/report_script.h"
#include "report/report_stat.h"
#include "xfuncs.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

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

static void log_stderr(void *ctx, const char *text)
{
	(void)ctx;
	fflush(stdout);
	fputs(text, stderr);
}

struct run_ctx {
	const struct engine_ops *ops;
	struct engine_run *run;
	struct tb_err *err;
};

static int on_event(void *ctx, const struct pd_event *ev)
{
	struct run_ctx *c = ctx;

	if (interrupted)
		return TB_ERR_STOP;
	return c->ops->event(c->run, ev, c->err);
}

/* perf stat record data: the engine's stat callbacks, else perf's table */
static int on_stat(void *ctx, const struct pd_stat_round *r)
{
	struct run_ctx *c = ctx;

	if (interrupted)
		return TB_ERR_STOP;
	if (c->ops->stat)
		return c->ops->stat(c->run, r, c->err);
	/* no fflush: perf's table sits in stdio's buffer behind the script's
	 * own output, and so does ours */
	return report_stat_table(NULL, r);
}

int report_run_script(struct pd_session *s, const char *path, const char *spec, int argc,
		      char **argv, struct report_filter *filter)
{
	const char *script;
	const struct engine_ops *ops = cat_lang(spec, &script);
	struct engine_start st = { 0 };
	struct tb_err err = { 0 }, stop_err = { 0 };
	struct run_ctx rc = { 0 };
	struct pd_consumer c = { 0 }, head;
	struct sigaction sa, old;
	char *exec_path;
	int r, r2, exit_status = -1;

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
	st.log = log_stderr;
	st.exit_status = &exit_status;
	rc.ops = ops;
	rc.err = &err;
	r = ops->start(&rc.run, &st, &err);
	if (!r) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigint;
		sigaction(SIGINT, &sa, &old);
		c.ctx = &rc;
		c.sample = on_event;
		c.stat_round = on_stat;
		report_filter_wrap(filter, &c, &head);
		r = pd_session_process(s, &head, &err);
		sigaction(SIGINT, &old, NULL);
		if (r == TB_ERR_STOP && interrupted && !err.code)
			r = 0;     /* SIGINT: stop reading, still run trace_end */
	}
	r2 = ops->stop && rc.run ? ops->stop(rc.run, &stop_err) : 0;
	fflush(stdout);
	free(exec_path);
	if (exit_status >= 0)
		return exit_status;     /* the script ended the run itself */
	if (r)
		report_err(err.code == TB_ERR_STOP || !err.has_offset ? script : path,
			   r, &err);
	else if (r2)
		report_err(script, r2, &stop_err);
	return r || r2 ? 1 : 0;
}
