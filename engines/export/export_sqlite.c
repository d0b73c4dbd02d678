/* export_sqlite.c - trace-report --export sqlite:FILE: one transaction per
 * recording, its earlier copy deleted inside it; the schema of docs/export.md. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sqlite3.h>
#include "export/export_core.h"

struct sqlite_table {
	sqlite3_stmt *ins;
	struct bytebuf *text;      /* per field: its converted text, bound SQLITE_STATIC */
};

struct engine_run {
	struct ex_run x;
	const char *path;
	sqlite3 *db;
	int in_tx;
	int broken;                /* SQLite failed: roll back, commit nothing */
	struct bytebuf sql;
	sqlite3_stmt *samples;     /* the samples table's INSERT */
	struct bytebuf chain[3];   /* its callchain arrays as JSON text */
	/* sqlite_have's view of the table being set up: name, declared type */
	struct ex_have have;
};

static const char *const base_schema =
	"CREATE TABLE IF NOT EXISTS \"recordings\" (\"id\" INTEGER PRIMARY KEY, "
	"\"hostname\" TEXT, \"os_release\" TEXT, \"arch\" TEXT, \"nr_cpus\" INTEGER, "
	"\"perf_version\" TEXT, \"cmdline\" TEXT, \"first_time\" INTEGER, \"last_time\" INTEGER, "
	"\"nr_events\" INTEGER, \"clockid\" INTEGER, \"clock_wall_ns\" INTEGER, "
	"\"clock_ref_ns\" INTEGER, \"syscall_map\" TEXT, \"completed\" INTEGER);"
	"CREATE TABLE IF NOT EXISTS \"syscalls\" (\"recording\" INTEGER, \"nr\" INTEGER, "
	"\"name\" TEXT);"
	"CREATE TABLE IF NOT EXISTS \"threads\" (\"recording\" INTEGER, \"pid\" INTEGER, "
	"\"tid\" INTEGER, \"comm\" TEXT);"
	"CREATE TABLE IF NOT EXISTS \"" EX_EVENTS "\" (\"recording\" INTEGER, \"perf_name\" TEXT, "
	"\"table_name\" TEXT);"
	"CREATE TABLE IF NOT EXISTS \"" EX_EVENT_COLUMNS "\" (\"recording\" INTEGER, "
	"\"table_name\" TEXT, \"field\" TEXT, \"column_name\" TEXT);"
	"CREATE VIEW IF NOT EXISTS \"done__recordings\" AS SELECT * FROM \"recordings\" "
	"WHERE \"completed\" = 1;"
	"CREATE VIEW IF NOT EXISTS \"done__syscalls\" AS SELECT * FROM \"syscalls\" WHERE "
	"\"recording\" IN (SELECT \"id\" FROM \"recordings\" WHERE \"completed\" = 1);"
	"CREATE VIEW IF NOT EXISTS \"done__threads\" AS SELECT * FROM \"threads\" WHERE "
	"\"recording\" IN (SELECT \"id\" FROM \"recordings\" WHERE \"completed\" = 1);";

/* One line: the table (if any, ex_label) and SQLite's own message (the applet
 * names the file). */
static int fail(struct engine_run *r, struct tb_err *err, const char *table)
{
	char label[EX_LABEL];

	r->broken = 1;
	return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s%s%s%s", table ? "table " : "",
			  table ? ex_label(table, label) : "", table ? ": " : "",
			  r->db ? sqlite3_errmsg(r->db) : "cannot open the file");
}

static int exec(struct engine_run *r, const char *sql, const char *table, struct tb_err *err)
{
	if (sqlite3_exec(r->db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return fail(r, err, table);
	return 0;
}

/* the SQL text in r->sql, NUL-terminated */
static const char *sql_done(struct engine_run *r)
{
	bb_put(&r->sql, "", 1);
	return r->sql.oom ? NULL : (const char *)r->sql.p;
}

static void sql_cat(struct engine_run *r, const char *s)
{
	bb_put(&r->sql, s, strlen(s));
}

/* The SQLite declared type of @t: the tag in capitals (INT32, UINT64,
 * ARRAY_INT32: integer affinity; arrays hold JSON text), TEXT or BLOB. */
static const char *decl_type(const struct ex_type *t, char *buf, size_t cap)
{
	if (t->kind == EX_STR)
		return "TEXT";
	if (t->kind == EX_BYTES)
		return "BLOB";
	ex_type_tag(t, buf, cap);
	for (char *p = buf; *p; p++)
		*p = (char)toupper((unsigned char)*p);
	return buf;
}

/* The samples table (export_samples.c), its view and its INSERT. */
static int samples_ready(struct engine_run *r, struct tb_err *err)
{
	char buf[32];
	int rc = 0;

	r->sql.len = 0;
	sql_cat(r, "CREATE TABLE IF NOT EXISTS \"" EX_SAMPLES "\" (");
	for (int k = 0; k < EX_NR_SAMPLE; k++) {
		const struct ex_type *t = &ex_sample_types[k];

		ex_quote(&r->sql, ex_sample_names[k], '"');
		/* string arrays: JSON text, TEXT affinity */
		sql_cat(r, t->kind == EX_STR && t->array ? " ARRAY_TEXT" : " ");
		if (!(t->kind == EX_STR && t->array))
			sql_cat(r, decl_type(t, buf, sizeof(buf)));
		sql_cat(r, k + 1 < EX_NR_SAMPLE ? ", " : "); ");
	}
	sql_cat(r, "CREATE VIEW IF NOT EXISTS \"done__" EX_SAMPLES "\" AS SELECT * FROM \""
		EX_SAMPLES "\" WHERE \"common_recording\" IN (SELECT \"id\" FROM "
		"\"recordings\" WHERE \"completed\" = 1)");
	if (!sql_done(r) || (rc = exec(r, (const char *)r->sql.p, EX_SAMPLES, err)))
		return rc ? rc : tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	r->sql.len = 0;
	sql_cat(r, "INSERT INTO \"" EX_SAMPLES "\" VALUES (?");
	for (int k = 1; k < EX_NR_SAMPLE; k++)
		sql_cat(r, ", ?");
	sql_cat(r, ")");
	if (!sql_done(r))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	if (sqlite3_prepare_v2(r->db, (const char *)r->sql.p, -1, &r->samples, NULL))
		return fail(r, err, EX_SAMPLES);
	return 0;
}

/* Delete the recording's earlier copy, whole or half-written, from every table. */
static int delete_old(struct engine_run *r, struct tb_err *err)
{
	sqlite3_stmt *q;
	char **names = NULL;
	size_t nr = 0;
	int rc = 0;

	if (sqlite3_prepare_v2(r->db, "SELECT m.name, p.name FROM sqlite_master m, "
			       "pragma_table_info(m.name) p WHERE m.type = 'table' AND "
			       "p.name IN ('common_recording', 'recording')", -1, &q, NULL))
		return fail(r, err, NULL);
	while (sqlite3_step(q) == SQLITE_ROW) {
		char **n = realloc(names, (nr + 1) * sizeof(*names));

		if (!n)
			break;
		names = n;
		r->sql.len = 0;
		sql_cat(r, "DELETE FROM ");
		ex_quote(&r->sql, (const char *)sqlite3_column_text(q, 0), '"');
		sql_cat(r, " WHERE ");
		ex_quote(&r->sql, (const char *)sqlite3_column_text(q, 1), '"');
		sql_cat(r, " = ?");
		names[nr++] = strdup(sql_done(r) ? (char *)r->sql.p : "");
	}
	sqlite3_finalize(q);
	for (size_t i = 0; i < nr; i++) {
		sqlite3_stmt *d;

		if (!rc && sqlite3_prepare_v2(r->db, names[i], -1, &d, NULL) == SQLITE_OK) {
			sqlite3_bind_int64(d, 1, (sqlite3_int64)r->x.rec.id);
			if (sqlite3_step(d) != SQLITE_DONE)
				rc = fail(r, err, NULL);
			sqlite3_finalize(d);
		} else if (!rc) {
			rc = fail(r, err, NULL);
		}
		free(names[i]);
	}
	free(names);
	if (!rc) {
		sqlite3_stmt *d;

		if (sqlite3_prepare_v2(r->db, "DELETE FROM \"recordings\" WHERE \"id\" = ?", -1, &d,
				       NULL))
			return fail(r, err, "recordings");
		sqlite3_bind_int64(d, 1, (sqlite3_int64)r->x.rec.id);
		if (sqlite3_step(d) != SQLITE_DONE)
			rc = fail(r, err, "recordings");
		sqlite3_finalize(d);
	}
	return rc;
}

static int table_ready(struct engine_run *r, struct ex_table *t, struct tb_err *err);

static int ready_one(void *r, struct ex_table *t, struct tb_err *err)
{
	return table_ready(r, t, err);
}

/* The file opened (created), the schema there (a table for every format of
 * the recording, events or not), the transaction begun, the old copy gone. */
static int open_db(struct engine_run *r, struct tb_err *err)
{
	int rc;

	ex_finish_id(&r->x);
	if (sqlite3_open_v2(r->path, &r->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL)) {
		rc = fail(r, err, NULL);
		sqlite3_close(r->db);
		r->db = NULL;
		return rc;
	}
	sqlite3_busy_timeout(r->db, 10000);
	/* page_size only matters to a new file. The cache holds the pages
	 * rows are appended to (each table's right edge) and little else: a
	 * larger one only costs page faults, every page is written once.
	 * synchronous = OFF: no fsync (the rollback journal stays, so a killed
	 * export still rolls back: tests/export-sqlite.test); only a
	 * machine that loses power in or just after an export may leave a
	 * damaged file (docs/export.md). */
	if ((rc = exec(r, "PRAGMA page_size = 16384; PRAGMA cache_size = -4096; "
		       "PRAGMA synchronous = OFF", NULL, err)) ||
	    (rc = exec(r, "BEGIN IMMEDIATE", NULL, err)))
		return rc;
	r->in_tx = 1;
	if ((rc = exec(r, base_schema, NULL, err)) || (rc = samples_ready(r, err)))
		return rc;
	if ((rc = ex_tables_ready(&r->x, ready_one, r, err)))
		return rc;
	return delete_old(r, err);
}

/* ex_table_columns' question about the table read into r->have_* */
static int sqlite_have(void *ctx, const char *name, const struct ex_type *type)
{
	struct engine_run *r = ctx;
	char buf[32];

	return ex_have_check(&r->have, name, decl_type(type, buf, sizeof(buf)), 1);
}

static int have_read(struct engine_run *r, const char *table, struct tb_err *err)
{
	sqlite3_stmt *q;

	if (sqlite3_prepare_v2(r->db, "SELECT name, type FROM pragma_table_info(?)", -1, &q, NULL))
		return fail(r, err, table);
	sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
	while (sqlite3_step(q) == SQLITE_ROW) {
		const unsigned char *type = sqlite3_column_text(q, 1);

		if (ex_have_add(&r->have, (const char *)sqlite3_column_text(q, 0),
				type ? (const char *)type : "")) {
			sqlite3_finalize(q);
			return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		}
	}
	sqlite3_finalize(q);
	return 0;
}

/* @t's rows of the events and event_columns tables (the recording's): its
 * perf name, its fields'. */
static int record_names(struct engine_run *r, const struct ex_table *t, struct tb_err *err)
{
	sqlite3_stmt *q;
	int rc = SQLITE_DONE;

	if (sqlite3_prepare_v2(r->db, "INSERT INTO \"" EX_EVENTS "\" VALUES (?, ?, ?)", -1, &q,
			       NULL))
		return fail(r, err, EX_EVENTS);
	sqlite3_bind_int64(q, 1, (sqlite3_int64)r->x.rec.id);
	sqlite3_bind_text(q, 2, t->perf, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 3, t->name, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return fail(r, err, EX_EVENTS);
	if (sqlite3_prepare_v2(r->db, "INSERT INTO \"" EX_EVENT_COLUMNS "\" VALUES (?, ?, ?, ?)",
			       -1, &q, NULL))
		return fail(r, err, EX_EVENT_COLUMNS);
	for (size_t i = 0; i < t->dec->nr && rc == SQLITE_DONE; i++) {
		sqlite3_bind_int64(q, 1, (sqlite3_int64)r->x.rec.id);
		sqlite3_bind_text(q, 2, t->name, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, t->dec->fields[i].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(q, 4, t->cols[i], -1, SQLITE_STATIC);
		rc = sqlite3_step(q);
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? 0 : fail(r, err, EX_EVENT_COLUMNS);
}

/* The table of @t's format: created, or given the columns it lacks; its INSERT prepared. */
static int table_ready(struct engine_run *r, struct ex_table *t, struct tb_err *err)
{
	const struct tp_decoder *d = t->dec;
	struct sqlite_table *st = calloc(1, sizeof(*st));
	char buf[32];
	int exists, rc;

	if (!st)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	t->target = st;
	st->text = calloc(d->nr + 1, sizeof(*st->text));
	if (!st->text)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	if ((rc = have_read(r, t->name, err)))
		return rc;
	exists = r->have.nr > 0;
	rc = ex_table_columns(t, sqlite_have, r, err);
	if (rc)
		goto out;
	if (!exists) {
		r->sql.len = 0;
		sql_cat(r, "CREATE TABLE ");
		ex_quote(&r->sql, t->name, '"');
		sql_cat(r, " (");
		for (int k = 0; k < EX_NR_COMMON; k++) {
			ex_quote(&r->sql, ex_common_names[k], '"');
			sql_cat(r, " ");
			sql_cat(r, decl_type(&ex_common_types[k], buf, sizeof(buf)));
			sql_cat(r, k + 1 < EX_NR_COMMON || d->nr ? ", " : "");
		}
		for (size_t i = 0; i < d->nr; i++) {
			ex_quote(&r->sql, t->cols[i], '"');
			sql_cat(r, " ");
			sql_cat(r, decl_type(&t->types[i], buf, sizeof(buf)));
			sql_cat(r, i + 1 < d->nr ? ", " : "");
		}
		sql_cat(r, ")");
		if (!sql_done(r) || (rc = exec(r, (const char *)r->sql.p, t->name, err)))
			goto out;
		r->sql.len = 0;
		sql_cat(r, "CREATE VIEW IF NOT EXISTS \"done__");
		sql_cat(r, t->name);    /* ex_table_of: [A-Za-z0-9_] only */
		sql_cat(r, "\" AS SELECT * FROM ");
		ex_quote(&r->sql, t->name, '"');
		sql_cat(r, " WHERE \"common_recording\" IN (SELECT \"id\" FROM \"recordings\" "
			"WHERE \"completed\" = 1)");
		if (!sql_done(r) || (rc = exec(r, (const char *)r->sql.p, t->name, err)))
			goto out;
	} else {
		for (size_t i = 0; i < d->nr; i++) {
			if (sqlite_have(r, t->cols[i], &t->types[i]) > 0)
				continue;
			/* a newer kernel's field (or one whose type changed): a new column */
			r->sql.len = 0;
			sql_cat(r, "ALTER TABLE ");
			ex_quote(&r->sql, t->name, '"');
			sql_cat(r, " ADD COLUMN ");
			ex_quote(&r->sql, t->cols[i], '"');
			sql_cat(r, " ");
			sql_cat(r, decl_type(&t->types[i], buf, sizeof(buf)));
			if (!sql_done(r) || (rc = exec(r, (const char *)r->sql.p, t->name, err)))
				goto out;
		}
	}
	r->sql.len = 0;
	sql_cat(r, "INSERT INTO ");
	ex_quote(&r->sql, t->name, '"');
	sql_cat(r, " (");
	for (int k = 0; k < EX_NR_COMMON; k++) {
		ex_quote(&r->sql, ex_common_names[k], '"');
		sql_cat(r, k + 1 < EX_NR_COMMON || d->nr ? ", " : "");
	}
	for (size_t i = 0; i < d->nr; i++) {
		ex_quote(&r->sql, t->cols[i], '"');
		sql_cat(r, i + 1 < d->nr ? ", " : "");
	}
	sql_cat(r, ") VALUES (");
	for (size_t i = 0; i < EX_NR_COMMON + d->nr; i++)
		sql_cat(r, i ? ", ?" : "?");
	sql_cat(r, ")");
	if (!sql_done(r)) {
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		goto out;
	}
	if (sqlite3_prepare_v2(r->db, (const char *)r->sql.p, -1, &st->ins, NULL))
		rc = fail(r, err, t->name);
	else
		t->ready = 1;
out:
	ex_have_free(&r->have);
	return rc;
}

/* The events an earlier export mapped (ex_known_add), read before the
 * first event: a file that does not exist yet stays so. */
static int read_known(struct engine_run *r, struct tb_err *err)
{
	sqlite3 *db;
	sqlite3_stmt *q;
	int rc = 0;

	if (sqlite3_open_v2(r->path, &db, SQLITE_OPEN_READONLY, NULL)) {
		sqlite3_close(db);
		return 0;
	}
	sqlite3_busy_timeout(db, 10000);
	if (!sqlite3_prepare_v2(db, "SELECT DISTINCT perf_name, table_name FROM \"" EX_EVENTS "\"", -1, &q,
				NULL)) {
		while (!rc && sqlite3_step(q) == SQLITE_ROW)
			if (sqlite3_column_text(q, 0) && sqlite3_column_text(q, 1) &&
			    ex_known_add(&r->x, (const char *)sqlite3_column_text(q, 0),
					 (const char *)sqlite3_column_text(q, 1)))
				rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		sqlite3_finalize(q);
	}
	sqlite3_close(db);
	return rc;
}

int sqlite_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));

	*run = r;
	if (!r)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	r->path = st->target;
	/* one thread, no statistics: SQLite's mutexes and counters cost a
	 * tenth; only before SQLite's first use (read_known opens the file) */
	sqlite3_config(SQLITE_CONFIG_SINGLETHREAD);
	sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
	if (!r->path[0])
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "--export sqlite:FILE needs a file name");
	return ex_init(&r->x, st, err) ? err->code : read_known(r, err);
}

/* Bind field @f of @raw as parameter @col (1-based) by the rules of docs/export.md. */
static int bind_field(struct engine_run *r, sqlite3_stmt *q, int col, const struct tp_field *f,
		      const unsigned char *raw, size_t size, struct bytebuf *text)
{
	struct ec_value v;
	const char *s;
	size_t n;

	ec_field(f, raw, size, &v);
	switch (v.kind) {
	case EC_INT:
	case EC_UINT:
		/* u64 above 2^63-1: its bits as a signed integer (negative) */
		return sqlite3_bind_int64(q, col, (sqlite3_int64)v.num);
	case EC_STRING:
		s = ex_utf8(&r->x, v.p, v.len, &n);
		if (!s)
			return SQLITE_NOMEM;
		return sqlite3_bind_text(q, col, s, (int)n,
					 s == (const char *)v.p ? SQLITE_STATIC : SQLITE_TRANSIENT);
		(void)text;
	case EC_BYTES:
		return sqlite3_bind_blob(q, col, v.p, (int)v.len, SQLITE_STATIC);
	case EC_ARRAY:
		/* JSON text, in the field's own buffer until the row is stepped */
		text->len = 0;
		ex_json_array(text, &v);
		if (text->oom)
			return SQLITE_NOMEM;
		return sqlite3_bind_text(q, col, (const char *)text->p, (int)text->len,
					 SQLITE_STATIC);
	default:
		return sqlite3_bind_null(q, col);
	}
}

static int bind_text(struct engine_run *r, sqlite3_stmt *q, int col, const char *s)
{
	size_t n;
	const char *u = ex_utf8(&r->x, (const unsigned char *)s, strlen(s), &n);

	if (!u)
		return SQLITE_NOMEM;
	return sqlite3_bind_text(q, col, u, (int)n, u == s ? SQLITE_STATIC : SQLITE_TRANSIENT);
}

/* a row of the samples table */
static int insert_sample(struct engine_run *r, const struct pd_event *ev,
			 const struct ex_common *c, struct tb_err *err)
{
	sqlite3_stmt *q = r->samples;
	struct ex_sample s;
	int rc, bad = 0;

	if ((rc = ex_sample_of(&r->x, ev, &s, err)))
		return rc;
	for (int k = 0; k < 3; k++)
		r->chain[k].len = 0;
	ex_json_u64s(&r->chain[0], s.chain, s.nr);
	if (ex_json_strings(&r->x, &r->chain[1], s.chain_sym, s.nr) ||
	    ex_json_strings(&r->x, &r->chain[2], s.chain_dso, s.nr) || r->chain[0].oom)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	sqlite3_bind_int64(q, 1, (sqlite3_int64)r->x.rec.id);
	sqlite3_bind_int64(q, 2, (sqlite3_int64)c->time);
	sqlite3_bind_int(q, 3, c->cpu);
	sqlite3_bind_int(q, 4, c->pid);
	sqlite3_bind_int(q, 5, c->tid);
	bad |= bind_text(r, q, 6, c->comm);
	bad |= bind_text(r, q, 7, s.event);
	sqlite3_bind_int64(q, 8, (sqlite3_int64)s.period);
	sqlite3_bind_int64(q, 9, (sqlite3_int64)s.ip);
	bad |= bind_text(r, q, 10, s.symbol);
	sqlite3_bind_int64(q, 11, (sqlite3_int64)s.symoff);
	bad |= bind_text(r, q, 12, s.dso);
	sqlite3_bind_int64(q, 13, (sqlite3_int64)s.addr);
	for (int k = 0; k < 3; k++)
		sqlite3_bind_text(q, 14 + k, (const char *)r->chain[k].p, (int)r->chain[k].len,
				  SQLITE_STATIC);
	rc = bad ? SQLITE_NOMEM : sqlite3_step(q);
	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		return fail(r, err, EX_SAMPLES);
	return 0;
}

int sqlite_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	struct ex_common c;
	struct ex_table *t;
	struct sqlite_table *st;
	sqlite3_stmt *q;
	int rc;

	if ((rc = ex_event(&r->x, ev, &c, &t, err)))
		return rc;
	if (!r->db) {
		if ((rc = open_db(r, err)))
			return rc;
		/* open_db set up every table: the table store may have moved */
		if (t && !(t = ex_table_of(&r->x, ev->evsel->dec, err)))
			return err->code;
	}
	if (!t)
		return insert_sample(r, ev, &c, err);
	if (!t->ready && (rc = table_ready(r, t, err)))
		return rc;
	st = t->target;
	q = st->ins;
	sqlite3_bind_int64(q, 1, (sqlite3_int64)r->x.rec.id);
	sqlite3_bind_int64(q, 2, (sqlite3_int64)c.time);
	sqlite3_bind_int(q, 3, c.cpu);
	sqlite3_bind_int(q, 4, c.pid);
	sqlite3_bind_int(q, 5, c.tid);
	if (bind_text(r, q, 6, c.comm))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	sqlite3_bind_int(q, 7, c.flags);
	sqlite3_bind_int(q, 8, c.preempt);
	for (size_t i = 0; i < t->dec->nr; i++)
		if (bind_field(r, q, EX_NR_COMMON + 1 + (int)i, &t->dec->fields[i], ev->sample->raw,
			       ev->sample->raw_size, &st->text[i]))
			return fail(r, err, t->name);
	rc = sqlite3_step(q);
	sqlite3_reset(q);
	if (rc != SQLITE_DONE)
		return fail(r, err, t->name);
	return 0;
}

static void bind_opt_text(sqlite3_stmt *q, int col, const char *s)
{
	if (s)
		sqlite3_bind_text(q, col, s, -1, SQLITE_TRANSIENT);
}

/* threads, syscalls and the recording's row */
static int write_tail(struct engine_run *r, int completed, struct tb_err *err)
{
	const struct ex_recording *rec = &r->x.rec;
	sqlite3_stmt *q;

	for (size_t i = 0; i < r->x.tables.nr; i++) {
		const struct ex_table *t = idtable_at(&r->x.tables, i);
		int rc;

		if (t->ready && (rc = record_names(r, t, err)))
			return rc;
	}
	if (sqlite3_prepare_v2(r->db, "INSERT INTO \"threads\" VALUES (?, ?, ?, ?)", -1, &q, NULL))
		return fail(r, err, "threads");
	for (size_t i = 0; i < r->x.nr_thread_slots; i++) {
		const struct ex_thread *th = &r->x.threads[i];
		const char *s;
		size_t n;

		if (!th->comm)
			continue;
		s = ex_utf8(&r->x, (const unsigned char *)th->comm, strlen(th->comm), &n);
		sqlite3_bind_int64(q, 1, (sqlite3_int64)rec->id);
		sqlite3_bind_int(q, 2, th->pid);
		sqlite3_bind_int(q, 3, th->tid);
		sqlite3_bind_text(q, 4, s ? s : "", s ? (int)n : 0, SQLITE_TRANSIENT);
		if (sqlite3_step(q) != SQLITE_DONE) {
			sqlite3_finalize(q);
			return fail(r, err, "threads");
		}
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	if (rec->syscalls) {
		if (sqlite3_prepare_v2(r->db, "INSERT INTO \"syscalls\" VALUES (?, ?, ?)", -1, &q,
				       NULL))
			return fail(r, err, "syscalls");
		for (uint32_t i = 0; i < rec->syscalls->nr; i++) {
			sqlite3_bind_int64(q, 1, (sqlite3_int64)rec->id);
			sqlite3_bind_int64(q, 2, rec->syscalls->ents[i].nr);
			sqlite3_bind_text(q, 3, rec->syscalls->ents[i].name, -1, SQLITE_STATIC);
			if (sqlite3_step(q) != SQLITE_DONE) {
				sqlite3_finalize(q);
				return fail(r, err, "syscalls");
			}
			sqlite3_reset(q);
		}
		sqlite3_finalize(q);
	}
	if (sqlite3_prepare_v2(r->db, "INSERT INTO \"recordings\" VALUES (?, ?, ?, ?, ?, ?, ?, ?, "
			       "?, ?, ?, ?, ?, ?, ?)", -1, &q, NULL))
		return fail(r, err, "recordings");
	sqlite3_bind_int64(q, 1, (sqlite3_int64)rec->id);
	bind_opt_text(q, 2, rec->hostname);
	bind_opt_text(q, 3, rec->osrelease);
	bind_opt_text(q, 4, rec->arch);
	if (rec->nr_cpus >= 0)
		sqlite3_bind_int64(q, 5, rec->nr_cpus);
	bind_opt_text(q, 6, rec->version);
	bind_opt_text(q, 7, rec->cmdline);
	if (rec->nr_events) {
		sqlite3_bind_int64(q, 8, (sqlite3_int64)rec->first_time);
		sqlite3_bind_int64(q, 9, (sqlite3_int64)rec->last_time);
	}
	sqlite3_bind_int64(q, 10, (sqlite3_int64)rec->nr_events);
	if (rec->has_clock) {
		sqlite3_bind_int64(q, 11, rec->clockid);
		sqlite3_bind_int64(q, 12, (sqlite3_int64)rec->clock_wall_ns);
		sqlite3_bind_int64(q, 13, (sqlite3_int64)rec->clock_ref_ns);
	}
	sqlite3_bind_text(q, 14, rec->syscall_source, -1, SQLITE_STATIC);
	sqlite3_bind_int(q, 15, completed);
	if (sqlite3_step(q) != SQLITE_DONE) {
		sqlite3_finalize(q);
		return fail(r, err, "recordings");
	}
	sqlite3_finalize(q);
	return 0;
}

int sqlite_stop(struct engine_run *r, struct tb_err *err)
{
	int failed = r->x.st && r->x.st->failed ? *r->x.st->failed : 0, rc = 0;

	/* refused before its first event: nothing written */
	if (r->x.st && !r->db && !failed)
		rc = open_db(r, err);
	if (r->db && r->in_tx && !rc && !r->broken) {
		rc = write_tail(r, !failed, err);
		if (!rc)
			rc = exec(r, "COMMIT", NULL, err);
	}
	for (size_t i = 0; i < r->x.tables.nr; i++) {
		struct ex_table *t = idtable_at(&r->x.tables, i);
		struct sqlite_table *st = t->target;

		if (st) {
			sqlite3_finalize(st->ins);
			for (size_t k = 0; st->text && k < t->dec->nr; k++)
				bb_free(&st->text[k]);
			free(st->text);
		}
		free(st);
	}
	sqlite3_finalize(r->samples);
	for (int k = 0; k < 3; k++)
		bb_free(&r->chain[k]);
	if (r->db)
		sqlite3_close(r->db);     /* an uncommitted transaction rolls back */
	ex_free(&r->x);
	bb_free(&r->sql);
	free(r);
	return rc;
}
