/* report_export.c - trace-report --export: pick the export engine by the
 * target's scheme and hand it every event (docs/export.md). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine.h"
#include "perfdata/pd_session.h"
#include "report/report_export.h"
#include "xfuncs.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

static void log_stderr(void *ctx, const char *text)
{
	(void)ctx;
	fputs(text, stderr);
}

struct export_ctx {
	const struct engine_ops *ops;
	struct engine_run *run;
	struct tb_err *err;
	int engine_failed;         /* the error is the engine's, not the reader's */
};

static int on_event(void *ctx, const struct pd_event *ev)
{
	struct export_ctx *c = ctx;

	if (interrupted)
		return TB_ERR_STOP;
	int r = c->ops->event(c->run, ev, c->err);

	c->engine_failed = r != 0;
	return r;
}

/* @target for messages: a URL's password left out */
static char *redact(const char *target)
{
	const char *at = strchr(target, '@'), *ss = strstr(target, "://");
	const char *colon = ss && at ? memchr(ss + 3, ':', (size_t)(at - ss - 3)) : NULL;

	if (!colon)
		return xasprintf("%s", target);
	return xasprintf("%.*s%s", (int)(colon - target), target, at);
}

int report_run_export(struct pd_session *s, const char *path, const char *target)
{
	const char *rest;
	const struct engine_ops *ops = export_find(target, &rest);
	struct engine_start st = { 0 };
	struct tb_err err = { 0 }, stop_err = { 0 };
	struct export_ctx ec = { 0 };
	struct pd_consumer c = { 0 };
	struct sigaction sa, old;
	int r, r2, failed = 0, exit_status = -1;
	char *shown;

	if (!ops) {
		error_msg("--export %s: not a target (sqlite:FILE, json:FILE, json:-, "
			  "clickhouse://[USER[:PASSWORD]@]HOST[:PORT][,HOST[:PORT]...]/DB)", target);
		return 1;
	}
	st.session = s;
	st.target = rest;
	st.input = path;
	st.failed = &failed;
	st.log = log_stderr;
	st.exit_status = &exit_status;
	ec.ops = ops;
	ec.err = &err;
	r = ops->start(&ec.run, &st, &err);
	ec.engine_failed = r != 0;
	if (!r) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigint;
		sigaction(SIGINT, &sa, &old);
		c.ctx = &ec;
		c.sample = on_event;
		r = pd_session_process(s, &c, &err);
		sigaction(SIGINT, &old, NULL);
		if (r == TB_ERR_STOP && interrupted && !err.code)
			err.code = r, snprintf(err.msg, sizeof(err.msg), "interrupted");
	}
	/* a damaged recording keeps its intact events, marked incomplete */
	failed = r != 0;
	r2 = ec.run ? ops->stop(ec.run, &stop_err) : 0;
	shown = redact(target);
	if (r)      /* the reader's errors read as the print path's */
		report_err(ec.engine_failed ? shown : path, r, &err);
	if (r2)
		report_err(shown, r2, &stop_err);
	free(shown);
	return r || r2 ? 1 : 0;
}
