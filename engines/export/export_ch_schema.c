/* export_ch_schema.c - the ClickHouse exporter's schema: databases, the tables and
 * views each format needs on every server (the shards), columns checked against
 * what is there, old partitions of a recording dropped. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/export_ch.h"

static const char *ch_type(const struct ex_type *t, char *buf, size_t cap)
{
	if (t->kind == EX_STR || t->kind == EX_BYTES)
		return t->array ? "Array(String)" : "String";
	snprintf(buf, cap, "%s%s%d%s", t->array ? "Array(" : "", t->kind == EX_INT ? "Int" : "UInt",
		 t->bits, t->array ? ")" : "");
	return buf;
}

/* @xt's columns: @n, named and typed (a Native block's column header) */
static int cols_init(struct ch_table *xt, int n, const char *const *names,
		     const struct ex_type *types)
{
	char buf[32];

	xt->cols = calloc((size_t)n, sizeof(*xt->cols));
	if (!xt->cols)
		return -1;
	xt->nr_cols = n;
	for (int k = 0; k < n; k++) {
		const char *ty = ch_type(&types[k], buf, sizeof(buf));
		struct bytebuf *h = &xt->cols[k].head;

		put_len(h, strlen(names[k]));
		bb_put(h, names[k], strlen(names[k]));
		put_len(h, strlen(ty));
		bb_put(h, ty, strlen(ty));
		if (h->oom)
			return -1;
	}
	return 0;
}

void ch_cols_free(struct ch_table *xt)
{
	for (int k = 0; xt->cols && k < xt->nr_cols; k++) {
		bb_free(&xt->cols[k].data);
		bb_free(&xt->cols[k].ends);
		bb_free(&xt->cols[k].head);
	}
	free(xt->cols);
	bb_free(&xt->rows);
	free(xt->insert);
}

/* "db.`name`" into r->sql */
static void qname(struct engine_run *r, const char *db, const char *name)
{
	ch_sql_cat(r, db);
	ch_sql_cat(r, ".");
	ex_quote(&r->sql, name, '`');
}

/* @name's local table (and its Distributed table when sharded) on every
 * server, from @cols (the columns clause) and its partition key @key */
static int create(struct engine_run *r, const char *name, const char *cols, const char *key,
		  const char *order, struct tb_err *err)
{
	char label[EX_LABEL];
	int rc;

	ex_label(name, label);      /* for a message */
	for (int s = 0; s < r->nr_srv; s++) {
		r->sql.len = 0;
		ch_sql_cat(r, "CREATE TABLE IF NOT EXISTS ");
		qname(r, r->local, name);
		ch_sql_cat(r, " (");
		ch_sql_cat(r, cols);
		ch_sql_cat(r, ") ENGINE = MergeTree() PARTITION BY ");
		ch_sql_cat(r, key);
		ch_sql_cat(r, " ORDER BY (");
		ch_sql_cat(r, order);
		ch_sql_cat(r, ")");
		if ((rc = ch_query(r, s, ch_sql_done(r), label, err)))
			return rc;
		if (r->nr_srv == 1)
			continue;
		r->sql.len = 0;
		ch_sql_cat(r, "CREATE TABLE IF NOT EXISTS ");
		qname(r, r->db, name);
		ch_sql_cat(r, " AS ");
		qname(r, r->local, name);
		ch_sql_cat(r, " ENGINE = Distributed(");
		ch_sql_cat(r, r->cluster);
		ch_sql_cat(r, ", ");
		ch_sql_cat(r, r->local);
		ch_sql_cat(r, ", ");
		ex_quote(&r->sql, name, '`');
		ch_sql_cat(r, ", rand())");
		if ((rc = ch_query(r, s, ch_sql_done(r), label, err)))
			return rc;
	}
	return 0;
}

/* the view of @name's completed recordings, on every server, made anew
 * (a view's columns are fixed when it is made) */
static int view(struct engine_run *r, const char *name, const char *key, struct tb_err *err)
{
	char *vname, label[EX_LABEL];
	int rc = 0;

	if (asprintf(&vname, "done__%s", name) < 0)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	ex_label(vname, label);     /* for a message */
	for (int s = 0; s < r->nr_srv && !rc; s++) {
		r->sql.len = 0;
		ch_sql_cat(r, "DROP TABLE IF EXISTS ");
		qname(r, r->db, vname);
		if ((rc = ch_query(r, s, ch_sql_done(r), label, err)))
			break;
		r->sql.len = 0;
		ch_sql_cat(r, "CREATE VIEW ");
		qname(r, r->db, vname);
		ch_sql_cat(r, " AS SELECT * FROM ");
		qname(r, r->db, name);
		ch_sql_cat(r, " WHERE ");
		ch_sql_cat(r, key);
		ch_sql_cat(r, " GLOBAL IN (SELECT id FROM ");
		qname(r, r->db, "recordings");
		ch_sql_cat(r, " WHERE completed = 1)");
		rc = ch_query(r, s, ch_sql_done(r), label, err);
	}
	free(vname);
	return rc;
}

/* The columns of @name's local table on server @s (TabSeparated name, type lines). */
static int have_read(struct engine_run *r, int s, const char *name, struct tb_err *err)
{
	char *p, *line, *save = NULL, label[EX_LABEL];
	int rc;

	ex_have_free(&r->have);
	r->sql.len = 0;
	ch_sql_cat(r, "SELECT name, type FROM system.columns WHERE database = '");
	ch_sql_cat(r, r->local);
	ch_sql_cat(r, "' AND table = '");
	ch_sql_cat(r, name);       /* ex_table_of: [A-Za-z0-9_] only */
	ch_sql_cat(r, "' FORMAT TabSeparated");
	if ((rc = ch_query(r, s, ch_sql_done(r), ex_label(name, label), err)))
		return rc;
	bb_put(&r->resp.body, "", 1);
	if (r->resp.body.oom)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	p = (char *)r->resp.body.p;
	for (line = strtok_r(p, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *tab = strchr(line, '\t');

		if (!tab)
			continue;
		*tab = 0;
		if (ex_have_add(&r->have, line, tab + 1))
			return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	}
	return 0;
}

static int ch_have(void *ctx, const char *name, const struct ex_type *type)
{
	struct engine_run *r = ctx;
	char buf[32];

	return ex_have_check(&r->have, name, ch_type(type, buf, sizeof(buf)), 0);
}

/* the batch columns of a format's table: the common ones, then its fields' */
static int table_cols(struct ch_table *xt, const struct ex_table *t)
{
	size_t n = EX_NR_COMMON + t->dec->nr;
	const char **names = calloc(n, sizeof(*names));
	struct ex_type *types = calloc(n, sizeof(*types));
	int rc = -1;

	if (names && types) {
		for (size_t k = 0; k < n; k++) {
			names[k] = k < EX_NR_COMMON ? ex_common_names[k] : t->cols[k - EX_NR_COMMON];
			types[k] = k < EX_NR_COMMON ? ex_common_types[k] :
				   t->types[k - EX_NR_COMMON];
		}
		rc = cols_init(xt, (int)n, names, types);
	}
	free(names);
	free(types);
	return rc;
}

static const char *const common_cols =
	"`common_recording` UInt64, `common_time` UInt64, `common_cpu` Int32, `common_pid` Int32, "
	"`common_tid` Int32, `common_comm` String, `common_flags` UInt8, "
	"`common_preempt_count` UInt8";

/* The table of @t's format on every server: created, or given the columns it lacks. */
int ch_table_ready(struct engine_run *r, struct ex_table *t, struct tb_err *err)
{
	const struct tp_decoder *d = t->dec;
	struct ch_table *xt = calloc(1, sizeof(*xt));
	struct bytebuf cols = { 0 };
	char buf[32];
	int rc, altered = 0;

	if (!xt)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	t->target = xt;
	if ((rc = have_read(r, 0, t->name, err)) || (rc = ex_table_columns(t, ch_have, r, err)))
		goto out;
	bb_put(&cols, common_cols, strlen(common_cols));
	for (size_t i = 0; i < d->nr; i++) {
		bb_put(&cols, ", ", 2);
		ex_quote(&cols, t->cols[i], '`');
		bb_put(&cols, " ", 1);
		{
			const char *ty = ch_type(&t->types[i], buf, sizeof(buf));

			bb_put(&cols, ty, strlen(ty));
		}
	}
	bb_put(&cols, "", 1);
	if (cols.oom) {
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		goto out;
	}
	if ((rc = create(r, t->name, (const char *)cols.p, "common_recording",
			 "common_recording, common_time", err)))
		goto out;
	/* a table made by another kernel's format: the columns it lacks, on each server */
	for (int s = 0; s < r->nr_srv; s++) {
		if ((rc = have_read(r, s, t->name, err)))
			goto out;
		for (size_t i = 0; i < d->nr; i++) {
			if (ch_have(r, t->cols[i], &t->types[i]) > 0)
				continue;
			for (int dist = 0; dist < (r->nr_srv > 1 ? 2 : 1); dist++) {
				r->sql.len = 0;
				ch_sql_cat(r, "ALTER TABLE ");
				qname(r, dist ? r->db : r->local, t->name);
				ch_sql_cat(r, " ADD COLUMN ");
				ex_quote(&r->sql, t->cols[i], '`');
				ch_sql_cat(r, " ");
				ch_sql_cat(r, ch_type(&t->types[i], buf, sizeof(buf)));
				if ((rc = ch_query(r, s, ch_sql_done(r), t->label, err)))
					goto out;
			}
			altered = 1;
		}
	}
	(void)altered;
	if ((rc = view(r, t->name, "common_recording", err)))
		goto out;
	/* the INSERT, into the local table of the recording's shard */
	r->sql.len = 0;
	ch_sql_cat(r, "INSERT INTO ");
	qname(r, r->local, t->name);
	ch_sql_cat(r, " (`common_recording`, `common_time`, `common_cpu`, `common_pid`, `common_tid`, "
		"`common_comm`, `common_flags`, `common_preempt_count`");
	for (size_t i = 0; i < d->nr; i++) {
		ch_sql_cat(r, ", ");
		ex_quote(&r->sql, t->cols[i], '`');
	}
	ch_sql_cat(r, ") FORMAT Native");
	xt->insert = strdup(ch_sql_done(r));
	if (!xt->insert || table_cols(xt, t))
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	else
		t->ready = 1;
out:
	bb_free(&cols);
	ex_have_free(&r->have);
	return rc;
}

/* The shard of this recording: its id picks it. */
/* Drop the recording's partition (an earlier copy, whole or half) from every
 * table of ours, on every server: DROP PARTITION is synchronous in 18.16. */
static int drop_old(struct engine_run *r, struct tb_err *err)
{
	char id[32], *tables = NULL, *line, *save = NULL, label[EX_LABEL];
	int rc = 0;

	snprintf(id, sizeof(id), "%llu", (unsigned long long)r->x.rec.id);
	for (int s = 0; s < r->nr_srv && !rc; s++) {
		r->sql.len = 0;
		ch_sql_cat(r, "SELECT name FROM system.tables WHERE database = '");
		ch_sql_cat(r, r->local);
		ch_sql_cat(r, "' AND engine LIKE '%MergeTree' FORMAT TabSeparated");
		if ((rc = ch_query(r, s, ch_sql_done(r), NULL, err)))
			break;
		bb_put(&r->resp.body, "", 1);
		free(tables);
		tables = r->resp.body.oom ? NULL : strdup((const char *)r->resp.body.p);
		if (!tables) {
			rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
			break;
		}
		save = NULL;
		for (line = strtok_r(tables, "\n", &save); line && !rc;
		     line = strtok_r(NULL, "\n", &save)) {
			r->sql.len = 0;
			ch_sql_cat(r, "ALTER TABLE ");
			qname(r, r->local, line);
			ch_sql_cat(r, " DROP PARTITION ");
			ch_sql_cat(r, id);
			rc = ch_query(r, s, ch_sql_done(r), ex_label(line, label), err);
		}
	}
	free(tables);
	return rc;
}

static const char *const rec_cols =
	"`id` UInt64, `hostname` Nullable(String), `os_release` Nullable(String), "
	"`arch` Nullable(String), `nr_cpus` Nullable(Int64), `perf_version` Nullable(String), "
	"`cmdline` Nullable(String), `first_time` Nullable(UInt64), `last_time` Nullable(UInt64), "
	"`nr_events` UInt64, `clockid` Nullable(UInt32), `clock_wall_ns` Nullable(UInt64), "
	"`clock_ref_ns` Nullable(UInt64), `syscall_map` String, `completed` UInt8";

static int ready_one(void *r, struct ex_table *t, struct tb_err *err)
{
	return ch_table_ready(r, t, err);
}

/* The samples table (export_samples.c) and its view on every server. */
static int samples_ready(struct engine_run *r, struct tb_err *err)
{
	struct bytebuf cols = { 0 };
	char buf[32];
	int rc;

	for (int k = 0; k < EX_NR_SAMPLE; k++) {
		const char *ty = ch_type(&ex_sample_types[k], buf, sizeof(buf));

		ex_quote(&cols, ex_sample_names[k], '`');
		bb_put(&cols, " ", 1);
		bb_put(&cols, ty, strlen(ty));
		bb_put(&cols, k + 1 < EX_NR_SAMPLE ? ", " : "", k + 1 < EX_NR_SAMPLE ? 2 : 1);
	}
	if (cols.oom)
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	else if (!(rc = create(r, EX_SAMPLES, (const char *)cols.p, "common_recording",
			       "common_recording, common_time", err)))
		rc = view(r, EX_SAMPLES, "common_recording", err);
	bb_free(&cols);
	if (rc)
		return rc;
	r->samples.name = r->samples.label = EX_SAMPLES;
	r->samples.target = &r->samples_rows;
	r->sql.len = 0;
	ch_sql_cat(r, "INSERT INTO ");
	qname(r, r->local, EX_SAMPLES);
	ch_sql_cat(r, " FORMAT Native");
	r->samples_rows.insert = ch_sql_done(r) ? strdup((const char *)r->sql.p) : NULL;
	if (!r->samples_rows.insert ||
	    cols_init(&r->samples_rows, EX_NR_SAMPLE, ex_sample_names, ex_sample_types))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	r->samples.ready = 1;
	return 0;
}

/* The databases, the base tables, every format's table; the old copy dropped. */
int ch_open_target(struct engine_run *r, struct tb_err *err)
{
	int rc;

	ex_finish_id(&r->x);
	r->opened = 1;
	for (int s = 0; s < r->nr_srv; s++)
		for (int k = 0; k < (r->nr_srv > 1 ? 2 : 1); k++) {
			r->sql.len = 0;
			ch_sql_cat(r, "CREATE DATABASE IF NOT EXISTS ");
			ch_sql_cat(r, k ? r->local : r->db);
			if ((rc = ch_query(r, s, ch_sql_done(r), NULL, err)))
				return rc;
		}
	if ((rc = create(r, "recordings", rec_cols, "id", "id", err)) ||
	    (rc = create(r, "syscalls", "`recording` UInt64, `nr` UInt32, `name` String",
			 "recording", "recording, nr", err)) ||
	    (rc = create(r, "threads", "`recording` UInt64, `pid` Int32, `tid` Int32, "
			 "`comm` String", "recording", "recording, tid", err)) ||
	    (rc = create(r, EX_EVENTS, "`recording` UInt64, `perf_name` String, "
			 "`table_name` String", "recording", "recording, perf_name", err)) ||
	    (rc = create(r, EX_EVENT_COLUMNS, "`recording` UInt64, `table_name` String, "
			 "`field` String, `column_name` String", "recording",
			 "recording, table_name", err)) ||
	    (rc = view(r, "recordings", "id", err)) ||
	    (rc = view(r, "syscalls", "recording", err)) ||
	    (rc = view(r, "threads", "recording", err)) || (rc = samples_ready(r, err)))
		return rc;
	if ((rc = ex_tables_ready(&r->x, ready_one, r, err)))
		return rc;
	return drop_old(r, err);
}
