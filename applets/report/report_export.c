/* report_export.c - trace-report --export: pick the export engine by the
 * target's scheme and hand it every event (docs/export.md). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfdata/pd_session.h"
#include "report/report_export.h"
#include "report/report_run.h"
#include "util/io.h"
#include "xfuncs.h"

/* The most a password file may hold */
#define PASSWORD_MAX 4096

/* The password in @file (its first line; the rest of the file ignored),
 * only when the file is its owner's alone, as libpq takes ~/.pgpass.
 * Returns it malloc'd, or NULL after one line saying why. */
static char *read_password_file(const char *file)
{
	struct tb_err err = { 0 };
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd = open_regular(file, PASSWORD_MAX, &st, &err), ok = 0;

	if (fd < 0) {
		error_msg("%s", err.msg);
		return NULL;
	}
	if (st.st_mode & (S_IRWXG | S_IRWXO)) {
		error_msg("%s: group or others may access it (mode %04o): a password file must be "
			  "private (chmod 600 %s)", file, (unsigned)(st.st_mode & 07777), file);
	} else if (read_all(fd, PASSWORD_MAX, &buf, &len)) {
		perror_msg("%s", file);
	} else {
		buf[strcspn(buf, "\r\n")] = 0;
		ok = 1;
	}
	close(fd);
	if (buf && !ok) {
		explicit_bzero(buf, len);
		free(buf);
		buf = NULL;
	}
	return buf;
}

int report_run_export(struct pd_session *s, const char *path, const char *target,
		      const char *password_file)
{
	const char *rest;
	const struct engine_ops *ops = export_find(target, &rest);
	struct engine_start st = { 0 };
	struct report_run x = { 0 };
	char *shown = export_shown(target), *pass = NULL;

	if (!shown) {
		error_msg("out of memory");
		return 1;
	}
	if (!ops) {
		error_msg("--export %s: not a target (sqlite:FILE, json:FILE, json:-, "
			  "clickhouse://[USER[:PASSWORD]@]HOST[:PORT][,HOST[:PORT]...]/DB)", shown);
		free(shown);
		return 1;
	}
	if (password_file && strncasecmp(target, "clickhouse://", 13)) {
		error_msg("--export-password-file is for --export clickhouse://...");
		free(shown);
		return 1;
	}
	if (password_file && !(pass = read_password_file(password_file))) {
		free(shown);
		return 1;
	}
	st.password = pass ? pass : getenv("CLICKHOUSE_PASSWORD");
	st.password_file = password_file;
	st.session = s;
	st.target = rest;
	st.input = path;
	x.ops = ops;
	x.st = &st;
	x.interrupt_is_error = 1;
	report_run(&x, s);
	if (pass) {
		explicit_bzero(pass, strlen(pass));
		free(pass);
	}
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
