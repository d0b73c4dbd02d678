/* report_export.h - trace-report --export: load a recording into SQLite, ClickHouse or JSON. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_EXPORT_H
#define REPORT_EXPORT_H

struct pd_session;

/**
 * report_run_export - export @s (read from @path) to @target
 * ("sqlite:FILE", "json:FILE|-", "clickhouse://..."); ClickHouse's password
 * from @password_file (NULL: none; the file must be private), else from
 * CLICKHOUSE_PASSWORD when the URL holds none. Prints errors (one line
 * each, a password never); returns the exit status.
 */
int report_run_export(struct pd_session *s, const char *path, const char *target,
		      const char *password_file);

#endif
