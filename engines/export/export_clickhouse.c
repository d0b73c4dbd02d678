/* export_clickhouse.c - trace-report --export clickhouse://...: the URL and
 * its servers (the shards), Native column batches for the sender thread
 * (export_ch_request.c), the recording row last (export_ch_schema.c makes
 * the tables). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/export_ch.h"
#include "export/export_ch_url.h"

#define BATCH_ROWS  262144          /* rows per INSERT */
#define BATCH_BYTES (32u << 20)     /* or bytes */
#define TIMEOUT_MS  60000

/* ---- the target ---- */

/* The servers of @url (export_ch_url.c), the password from the URL, else
 * the applet's (a file, or the environment: the URL's wins over that). */
static int parse_url(struct engine_run *r, const char *url, const struct engine_start *st,
		     struct tb_err *err)
{
	struct ch_url u;
	const char *pass;
	int rc = ch_url_parse(url, &u, err);

	if (rc)
		goto out;
	if (u.pass && st->password_file) {
		rc = tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "the URL holds a password "
				"and --export-password-file another: give one");
		goto out;
	}
	pass = u.pass ? u.pass : st->password;
	r->srv = calloc((size_t)u.nr_hosts, sizeof(*r->srv));
	if (!r->srv) {
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		goto out;
	}
	for (int i = 0; i < u.nr_hosts; i++) {
		struct ch_server *s = &r->srv[r->nr_srv++];

		s->http.fd = -1;
		if (http_init(&s->http, u.host[i], u.port[i], u.user ? u.user : "default", pass,
			      TIMEOUT_MS) ||
		    asprintf(&s->name, "%s:%s", u.host[i], u.port[i]) < 0) {
			s->name = NULL;
			rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
			goto out;
		}
	}
	r->db = u.db;
	r->cluster = u.cluster;
	u.db = u.cluster = NULL;
	if (r->nr_srv > 1) {
		if (asprintf(&r->local, "%s_local", r->db) < 0)
			r->local = NULL;
	} else {
		r->local = strdup(r->db);
	}
	if (!r->local)
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
out:
	ch_url_free(&u);
	return rc;
}

int ch_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));
	int rc;

	*run = r;
	if (!r)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	if ((rc = parse_url(r, st->target, st, err)))
		return rc;
	return ex_init(&r->x, st, err);
}

/* ---- RowBinary (the small tables) and the values of Native columns ---- */

static inline void put_n(struct bytebuf *b, uint64_t v, int bytes)
{
	unsigned char le[8];

	for (int i = 0; i < bytes; i++)
		le[i] = (unsigned char)(v >> (8 * i));
	bb_put(b, le, (size_t)bytes);
}

static inline void put_str(struct bytebuf *b, const char *s, size_t n)
{
	put_len(b, n);
	bb_put(b, s, n);
}

static int put_text(struct engine_run *r, struct bytebuf *b, const unsigned char *p, size_t len)
{
	size_t n;
	const char *s = ex_utf8(&r->x, p, len, &n);

	if (!s)
		return -1;
	put_str(b, s, n);
	return 0;
}

/* The batch's columns as one Native block in xt->rows (no BlockInfo over
 * HTTP): columns, rows, then each column's header, its ends, its values. */
static int block(struct ch_table *xt)
{
	int oom = 0;

	xt->rows.len = 0;
	put_len(&xt->rows, (uint64_t)xt->nr_cols);
	put_len(&xt->rows, xt->nr_rows);
	for (int k = 0; k < xt->nr_cols; k++) {
		struct ch_col *c = &xt->cols[k];

		oom |= c->data.oom | c->ends.oom;
		bb_put(&xt->rows, c->head.p, c->head.len);
		bb_put(&xt->rows, c->ends.p, c->ends.len);
		bb_put(&xt->rows, c->data.p, c->data.len);
		c->data.len = c->ends.len = 0;
		c->nr_elems = 0;
	}
	xt->nr_bytes = 0;
	return oom || xt->rows.oom ? -1 : 0;
}

/* Hand @t's rows to the sender (after the batch before it went through). */
static int flush_table(struct engine_run *r, struct ex_table *t, struct tb_err *err)
{
	struct ch_table *xt = t->target;
	int rc;

	if (!xt || !xt->nr_rows)
		return 0;
	if (block(xt))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	rc = ch_send(r, &xt->rows, xt->insert, t->label, err);
	xt->rows.len = 0;
	xt->nr_rows = 0;
	return rc;
}

/* the end of an array column's row of @n elements */
static inline void col_end(struct ch_col *c, uint64_t n)
{
	c->nr_elems += n;
	put_n(&c->ends, c->nr_elems, 8);
}

/* the common columns (the first @nr of ex_common_names) of a row */
static int put_common(struct engine_run *r, struct ch_col *col, const struct ex_common *c, int nr)
{
	put_n(&col[0].data, r->x.rec.id, 8);
	put_n(&col[1].data, c->time, 8);
	put_n(&col[2].data, (uint32_t)c->cpu, 4);
	put_n(&col[3].data, (uint32_t)c->pid, 4);
	put_n(&col[4].data, (uint32_t)c->tid, 4);
	if (put_text(r, &col[5].data, (const unsigned char *)c->comm, strlen(c->comm)))
		return -1;
	if (nr > 6) {
		put_n(&col[6].data, (uint64_t)c->flags, 1);
		put_n(&col[7].data, (uint64_t)c->preempt, 1);
	}
	return 0;
}

/* A row of time @time is next in @t: a batch whose last row is later goes
 * first, so every block is sorted by the tables' ORDER BY (recording, time)
 * and the server writes it as it is (MergeTreeDataWriterBlocksAlreadySorted)
 * instead of sorting it and permuting every column: perf's order lets a few
 * late events through, and one in a block cost the whole block's sort. */
static int keep_sorted(struct engine_run *r, struct ex_table *t, uint64_t time,
		       struct tb_err *err)
{
	struct ch_table *xt = t->target;
	int rc = 0;

	if (xt->nr_rows && time < xt->last_time)
		rc = flush_table(r, t, err);
	xt->last_time = time;
	return rc;
}

/* a row's end: the batch goes when it is full */
static int row_done(struct engine_run *r, struct ex_table *t, size_t bytes, struct tb_err *err)
{
	struct ch_table *xt = t->target;

	xt->nr_bytes += bytes;
	if (++xt->nr_rows >= BATCH_ROWS || xt->nr_bytes >= BATCH_BYTES)
		return flush_table(r, t, err);
	return 0;
}

/* a row of the samples table */
static int put_sample(struct engine_run *r, const struct pd_event *ev, const struct ex_common *c,
		      struct tb_err *err)
{
	struct ch_col *col = r->samples_rows.cols;
	struct ex_sample s;
	int rc, bad;

	if ((rc = ex_sample_of(&r->x, ev, &s, err)) ||
	    (rc = keep_sorted(r, &r->samples, c->time, err)))
		return rc;
	bad = put_common(r, col, c, 6);
	bad |= put_text(r, &col[6].data, (const unsigned char *)s.event, strlen(s.event));
	put_n(&col[7].data, s.period, 8);
	put_n(&col[8].data, s.ip, 8);
	bad |= put_text(r, &col[9].data, (const unsigned char *)s.symbol, strlen(s.symbol));
	put_n(&col[10].data, s.symoff, 8);
	bad |= put_text(r, &col[11].data, (const unsigned char *)s.dso, strlen(s.dso));
	put_n(&col[12].data, s.addr, 8);
	for (size_t i = 0; i < s.nr; i++) {
		put_n(&col[13].data, s.chain[i], 8);
		bad |= put_text(r, &col[14].data, (const unsigned char *)s.chain_sym[i],
				strlen(s.chain_sym[i]));
		bad |= put_text(r, &col[15].data, (const unsigned char *)s.chain_dso[i],
				strlen(s.chain_dso[i]));
	}
	for (int k = 13; k < 16; k++)
		col_end(&col[k], s.nr);
	if (bad)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	return row_done(r, &r->samples, 100 + s.nr * 48, err);
}

int ch_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	struct ex_common c;
	struct ex_table *t;
	struct ch_col *col;
	size_t bytes = 40;
	int rc;

	if ((rc = ex_event(&r->x, ev, &c, &t, err)))
		return rc;
	if (!r->opened) {
		if ((rc = ch_open_target(r, err)))
			return rc;
		if (t && !(t = ex_table_of(&r->x, ev->evsel->dec, err)))
			return err->code;
	}
	if (!t)
		return put_sample(r, ev, &c, err);
	if ((!t->ready && (rc = ch_table_ready(r, t, err))) ||
	    (rc = keep_sorted(r, t, c.time, err)))
		return rc;
	col = ((struct ch_table *)t->target)->cols;
	if (put_common(r, col, &c, EX_NR_COMMON))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	col += EX_NR_COMMON;
	for (size_t i = 0; i < t->dec->nr; i++) {
		struct bytebuf *b = &col[i].data;
		struct ec_value v;
		int size = t->types[i].bits / 8;

		ec_field(&t->dec->fields[i], ev->sample->raw, ev->sample->raw_size, &v);
		switch (v.kind) {
		case EC_INT:
		case EC_UINT:
			put_n(b, v.num, size);
			break;
		case EC_STRING:
			if (put_text(r, b, v.p, v.len))
				return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
			bytes += v.len;
			break;
		case EC_BYTES:
			put_str(b, (const char *)v.p, v.len);
			bytes += v.len;
			break;
		case EC_ARRAY:
			for (int k = 0; k < v.count; k++) {
				struct ec_value e;

				ec_element(&v, k, &e);
				put_n(b, e.kind == EC_NONE ? 0 : e.num, size);
			}
			col_end(&col[i], (uint64_t)v.count);
			bytes += (size_t)v.count * (size_t)size;
			break;
		default:       /* outside the record (tp_decoder_check makes it rare): empty */
			if (t->types[i].array)
				col_end(&col[i], 0);
			else if (t->types[i].kind == EX_STR || t->types[i].kind == EX_BYTES)
				put_len(b, 0);
			else
				put_n(b, 0, size);
			break;
		}
		bytes += 8;
	}
	return row_done(r, t, bytes, err);
}

static void put_opt_str(struct engine_run *r, struct bytebuf *b, const char *s)
{
	put_n(b, s ? 0 : 1, 1);
	if (s)
		put_text(r, b, (const unsigned char *)s, strlen(s));
}

static void put_opt_num(struct bytebuf *b, int have, uint64_t v, int bytes)
{
	put_n(b, have ? 0 : 1, 1);
	if (have)
		put_n(b, v, bytes);
}

/* every table's last batch, threads, syscalls, then the recording's row */
static int write_tail(struct engine_run *r, int completed, struct tb_err *err)
{
	const struct ex_recording *rec = &r->x.rec;
	struct bytebuf b = { 0 };
	char sql[256];
	int rc = 0;

	for (size_t i = 0; i < r->x.tables.nr && !rc; i++) {
		struct ex_table *t = idtable_at(&r->x.tables, i);

		if (t->ready)
			rc = flush_table(r, t, err);
	}
	if (!rc && r->samples.ready)
		rc = flush_table(r, &r->samples, err);
	if (!rc)
		rc = ch_sender_wait(r, err);    /* every batch is in */
	if (rc)
		return rc;
	for (size_t i = 0; i < r->x.nr_thread_slots; i++) {
		const struct ex_thread *th = &r->x.threads[i];

		if (!th->comm)
			continue;
		put_n(&b, rec->id, 8);
		put_n(&b, (uint32_t)th->pid, 4);
		put_n(&b, (uint32_t)th->tid, 4);
		put_text(r, &b, (const unsigned char *)th->comm, strlen(th->comm));
	}
	snprintf(sql, sizeof(sql), "INSERT INTO %s.`threads` FORMAT RowBinary", r->local);
	if (b.len && (rc = ch_post(r, ch_shard(r), sql, b.p, b.len, "threads", err)))
		goto out;
	b.len = 0;
	for (uint32_t i = 0; rec->syscalls && i < rec->syscalls->nr; i++) {
		put_n(&b, rec->id, 8);
		put_n(&b, rec->syscalls->ents[i].nr, 4);
		put_text(r, &b, (const unsigned char *)rec->syscalls->ents[i].name,
			 strlen(rec->syscalls->ents[i].name));
	}
	snprintf(sql, sizeof(sql), "INSERT INTO %s.`syscalls` FORMAT RowBinary", r->local);
	if (b.len && (rc = ch_post(r, ch_shard(r), sql, b.p, b.len, "syscalls", err)))
		goto out;
	/* the names of every table (docs/export.md "Names") */
	for (int k = 0; k < 2 && !rc; k++) {
		b.len = 0;
		for (size_t i = 0; i < r->x.tables.nr; i++) {
			const struct ex_table *t = idtable_at(&r->x.tables, i);

			for (size_t f = 0; t->ready && f < (k ? t->dec->nr : 1); f++) {
				const char *s = k ? t->dec->fields[f].name : t->perf;

				put_n(&b, rec->id, 8);
				if (k)
					put_text(r, &b, (const unsigned char *)t->name, strlen(t->name));
				put_text(r, &b, (const unsigned char *)s, strlen(s));
				put_text(r, &b, (const unsigned char *)(k ? t->cols[f] : t->name),
					 strlen(k ? t->cols[f] : t->name));
			}
		}
		snprintf(sql, sizeof(sql), "INSERT INTO %s.`%s` FORMAT RowBinary", r->local,
			 k ? EX_EVENT_COLUMNS : EX_EVENTS);
		if (b.len)
			rc = ch_post(r, ch_shard(r), sql, b.p, b.len, k ? EX_EVENT_COLUMNS : EX_EVENTS,
				     err);
	}
	if (rc)
		goto out;
	b.len = 0;
	put_n(&b, rec->id, 8);
	put_opt_str(r, &b, rec->hostname);
	put_opt_str(r, &b, rec->osrelease);
	put_opt_str(r, &b, rec->arch);
	put_opt_num(&b, rec->nr_cpus >= 0, (uint64_t)rec->nr_cpus, 8);
	put_opt_str(r, &b, rec->version);
	put_opt_str(r, &b, rec->cmdline);
	put_opt_num(&b, rec->nr_events > 0, rec->first_time, 8);
	put_opt_num(&b, rec->nr_events > 0, rec->last_time, 8);
	put_n(&b, rec->nr_events, 8);
	put_opt_num(&b, rec->has_clock, rec->clockid, 4);
	put_opt_num(&b, rec->has_clock, rec->clock_wall_ns, 8);
	put_opt_num(&b, rec->has_clock, rec->clock_ref_ns, 8);
	put_text(r, &b, (const unsigned char *)rec->syscall_source, strlen(rec->syscall_source));
	put_n(&b, (uint64_t)completed, 1);
	if (b.oom) {
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		goto out;
	}
	/* the last write: the recording counts as complete only now */
	snprintf(sql, sizeof(sql), "INSERT INTO %s.`recordings` FORMAT RowBinary", r->local);
	rc = ch_post(r, ch_shard(r), sql, b.p, b.len, "recordings", err);
out:
	bb_free(&b);
	return rc;
}

int ch_stop(struct engine_run *r, struct tb_err *err)
{
	int failed = r->x.st && r->x.st->failed ? *r->x.st->failed : 0, rc = 0;

	/* refused before its first event: nothing written */
	if (r->x.st && !r->opened && !failed)
		rc = ch_open_target(r, err);
	/* a damaged recording: its intact events, the row saying incomplete;
	 * a server error: no row, so the next export drops what was sent */
	if (r->snd.started && !rc)
		rc = ch_sender_wait(r, err);    /* the batch in flight, before judging r->broken */
	if (r->opened && !rc && !r->broken)
		rc = write_tail(r, !failed, err);
	ch_sender_stop(r);
	for (size_t i = 0; i < r->x.tables.nr; i++) {
		struct ex_table *t = idtable_at(&r->x.tables, i);
		struct ch_table *xt = t->target;

		if (xt)
			ch_cols_free(xt);
		free(xt);
	}
	ch_cols_free(&r->samples_rows);
	for (int s = 0; s < r->nr_srv; s++) {
		http_close(&r->srv[s].http);
		free(r->srv[s].name);
	}
	free(r->srv);
	free(r->db);
	free(r->local);
	free(r->cluster);
	bb_free(&r->sql);
	bb_free(&r->url);
	bb_free(&r->resp.body);
	ex_have_free(&r->have);
	ex_free(&r->x);
	free(r);
	return rc;
}
