/* report_export.c - trace-report --export: pick the export engine by the
 * target's scheme and hand it every event (docs/export.md). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_session.h"
#include "report/report_export.h"
#include "report/report_run.h"
#include "xfuncs.h"

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
	struct report_run x = { 0 };
	char *shown;

	if (!ops) {
		error_msg("--export %s: not a target (sqlite:FILE, json:FILE, json:-, "
			  "clickhouse://[USER[:PASSWORD]@]HOST[:PORT][,HOST[:PORT]...]/DB)", target);
		return 1;
	}
	st.session = s;
	st.target = rest;
	st.input = path;
	x.ops = ops;
	x.st = &st;
	x.interrupt_is_error = 1;
	report_run(&x, s);
	shown = redact(target);
	if (x.r)      /* the reader's errors read as the print path's */
		error_msg_at(x.engine_failed ? shown : path, x.r, &x.err);
	if (x.stop_r)
		error_msg_at(shown, x.stop_r, &x.stop_err);
	if (!strcmp(target, "json:-") && ((x.engine_failed && x.r == TB_ERR_IO) ||
					   x.stop_r == TB_ERR_IO))
		stdout_error_shown();     /* said: the exit's stdout check need not */
	free(shown);
	return x.r || x.stop_r ? 1 : 0;
}
