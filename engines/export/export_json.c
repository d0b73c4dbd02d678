/* export_json.c - trace-report --export json:FILE|-: one JSON object per line,
 * per event with the tables' columns, then threads, syscalls and the recording. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "export/export_core.h"

struct engine_run {
	struct ex_run x;
	const char *path;
	FILE *out;
	int write_failed;          /* said once (flush_line): stop writes no more */
	struct bytebuf line;
};

int json_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));

	*run = r;
	if (!r)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	r->path = st->target;
	if (!r->path[0])
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "--export json:FILE needs a file name (or - for stdout)");
	return ex_init(&r->x, st, err);
}

static int open_out(struct engine_run *r, struct tb_err *err)
{
	ex_finish_id(&r->x);
	r->out = strcmp(r->path, "-") ? fopen(r->path, "w") : stdout;
	if (!r->out)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s", strerror(errno));
	return 0;
}

static void put(struct engine_run *r, const char *s)
{
	bb_put(&r->line, s, strlen(s));
}

static void key(struct engine_run *r, const char *k)
{
	bb_put(&r->line, ",\"", 2);
	put(r, k);
	bb_put(&r->line, "\":", 2);
}

static void num(struct engine_run *r, const char *k, uint64_t v, int is_signed)
{
	char buf[32];

	key(r, k);
	bb_put(&r->line, buf, ex_json_int(buf, v, is_signed));
}

static void str(struct engine_run *r, const char *k, const char *s)
{
	size_t n;
	const char *u;

	key(r, k);
	if (!s) {
		put(r, "null");
		return;
	}
	u = ex_utf8(&r->x, (const unsigned char *)s, strlen(s), &n);
	if (u)
		ex_json_string(&r->line, u, n);
	else
		r->line.oom = 1;
}

static int flush_line(struct engine_run *r, struct tb_err *err)
{
	bb_put(&r->line, "}\n", 2);
	if (r->line.oom)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	if (fwrite(r->line.p, 1, r->line.len, r->out) != r->line.len) {
		r->write_failed = 1;
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s", strerror(errno));
	}
	return 0;
}

static void begin(struct engine_run *r, const char *table)
{
	r->line.len = 0;
	put(r, "{\"table\":\"");
	put(r, table);       /* ex_table_of: [A-Za-z0-9_] only */
	put(r, "\"");
}

/* a row of the samples table */
static int sample_line(struct engine_run *r, const struct pd_event *ev, const struct ex_common *c,
		       struct tb_err *err)
{
	struct ex_sample s;
	int rc;

	if ((rc = ex_sample_of(&r->x, ev, &s, err)))
		return rc;
	begin(r, EX_SAMPLES);
	num(r, "common_recording", r->x.rec.id, 0);
	num(r, "common_time", c->time, 0);
	num(r, "common_cpu", (uint64_t)(int64_t)c->cpu, 1);
	num(r, "common_pid", (uint64_t)(int64_t)c->pid, 1);
	num(r, "common_tid", (uint64_t)(int64_t)c->tid, 1);
	str(r, "common_comm", c->comm);
	str(r, "event", s.event);
	num(r, "period", s.period, 0);
	num(r, "ip", s.ip, 0);
	str(r, "symbol", s.symbol);
	num(r, "symoff", s.symoff, 0);
	str(r, "dso", s.dso);
	num(r, "addr", s.addr, 0);
	key(r, "callchain");
	ex_json_u64s(&r->line, s.chain, s.nr);
	key(r, "callchain_symbols");
	if (ex_json_strings(&r->x, &r->line, s.chain_sym, s.nr))
		r->line.oom = 1;
	key(r, "callchain_dsos");
	if (ex_json_strings(&r->x, &r->line, s.chain_dso, s.nr))
		r->line.oom = 1;
	return flush_line(r, err);
}

/* a JSON file has no columns before: every field's name is free */
static int json_have(void *ctx, const char *name, const struct ex_type *type)
{
	(void)ctx, (void)name, (void)type;
	return 0;
}

/* @t's columns (ex_table_columns), before its first row */
static int table_ready(struct engine_run *r, struct ex_table *t, struct tb_err *err)
{
	int rc = ex_table_columns(t, json_have, r, err);

	t->ready = !rc;
	return rc;
}

static int ready_one(void *r, struct ex_table *t, struct tb_err *err)
{
	return table_ready(r, t, err);
}

/* the lines of the events and event_columns tables: every format's names */
static int names_lines(struct engine_run *r, struct tb_err *err)
{
	int rc = ex_tables_ready(&r->x, ready_one, r, err);

	for (size_t i = 0; !rc && i < r->x.tables.nr; i++) {
		const struct ex_table *t = idtable_at(&r->x.tables, i);

		if (!t->ready)
			continue;
		begin(r, EX_EVENTS);
		num(r, "recording", r->x.rec.id, 0);
		str(r, "perf_name", t->perf);
		str(r, "table_name", t->name);
		rc = flush_line(r, err);
		for (size_t f = 0; !rc && f < t->dec->nr; f++) {
			begin(r, EX_EVENT_COLUMNS);
			num(r, "recording", r->x.rec.id, 0);
			str(r, "table_name", t->name);
			str(r, "field", t->dec->fields[f].name);
			str(r, "column_name", t->cols[f]);
			rc = flush_line(r, err);
		}
	}
	return rc;
}

int json_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	static const char hex[] = "0123456789abcdef";
	struct ex_common c;
	struct ex_table *t;
	int rc;

	if ((rc = ex_event(&r->x, ev, &c, &t, err)))
		return rc;
	if (!r->out && (rc = open_out(r, err)))
		return rc;
	if (!t)
		return sample_line(r, ev, &c, err);
	if (!t->ready && (rc = table_ready(r, t, err)))
		return rc;
	begin(r, t->name);
	num(r, "common_recording", r->x.rec.id, 0);
	num(r, "common_time", c.time, 0);
	num(r, "common_cpu", (uint64_t)(int64_t)c.cpu, 1);
	num(r, "common_pid", (uint64_t)(int64_t)c.pid, 1);
	num(r, "common_tid", (uint64_t)(int64_t)c.tid, 1);
	str(r, "common_comm", c.comm);
	num(r, "common_flags", (uint64_t)c.flags, 0);
	num(r, "common_preempt_count", (uint64_t)c.preempt, 0);
	for (size_t i = 0; i < t->dec->nr; i++) {
		struct ec_value v;
		const char *s;
		size_t n;

		ec_field(&t->dec->fields[i], ev->sample->raw, ev->sample->raw_size, &v);
		switch (v.kind) {
		case EC_INT:
		case EC_UINT:
			num(r, t->cols[i], v.num, v.kind == EC_INT);
			break;
		case EC_STRING:
			key(r, t->cols[i]);
			s = ex_utf8(&r->x, v.p, v.len, &n);
			if (!s)
				return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
			ex_json_string(&r->line, s, n);
			break;
		case EC_BYTES:      /* bytes: a string of hex digits */
			key(r, t->cols[i]);
			bb_put(&r->line, "\"", 1);
			for (size_t k = 0; k < v.len; k++) {
				char h[2] = { hex[v.p[k] >> 4], hex[v.p[k] & 15] };

				bb_put(&r->line, h, 2);
			}
			bb_put(&r->line, "\"", 1);
			break;
		case EC_ARRAY:
			key(r, t->cols[i]);
			ex_json_array(&r->line, &v);
			break;
		default:
			key(r, t->cols[i]);
			put(r, "null");
			break;
		}
	}
	return flush_line(r, err);
}

int json_stop(struct engine_run *r, struct tb_err *err)
{
	int failed = r->x.st && r->x.st->failed ? *r->x.st->failed : 0, rc = 0;
	const struct ex_recording *rec = &r->x.rec;

	if (r->x.st && !r->out && !failed)
		rc = open_out(r, err);
	if (r->write_failed)
		rc = -1;              /* an event's error said it: write no more (rc 0 below) */
	if (r->out && !rc)
		rc = names_lines(r, err);
	for (size_t i = 0; r->out && !rc && i < r->x.nr_thread_slots; i++) {
		const struct ex_thread *th = &r->x.threads[i];

		if (!th->comm)
			continue;
		begin(r, "threads");
		num(r, "recording", rec->id, 0);
		num(r, "pid", (uint64_t)(int64_t)th->pid, 1);
		num(r, "tid", (uint64_t)(int64_t)th->tid, 1);
		str(r, "comm", th->comm);
		rc = flush_line(r, err);
	}
	for (uint32_t i = 0; r->out && !rc && rec->syscalls && i < rec->syscalls->nr; i++) {
		begin(r, "syscalls");
		num(r, "recording", rec->id, 0);
		num(r, "nr", rec->syscalls->ents[i].nr, 0);
		str(r, "name", rec->syscalls->ents[i].name);
		rc = flush_line(r, err);
	}
	if (r->out && !rc) {
		begin(r, "recordings");
		num(r, "id", rec->id, 0);
		str(r, "hostname", rec->hostname);
		str(r, "os_release", rec->osrelease);
		str(r, "arch", rec->arch);
		if (rec->nr_cpus >= 0)
			num(r, "nr_cpus", (uint64_t)rec->nr_cpus, 1);
		str(r, "perf_version", rec->version);
		str(r, "cmdline", rec->cmdline);
		if (rec->nr_events) {
			num(r, "first_time", rec->first_time, 0);
			num(r, "last_time", rec->last_time, 0);
		}
		num(r, "nr_events", rec->nr_events, 0);
		if (rec->has_clock) {
			num(r, "clockid", rec->clockid, 0);
			num(r, "clock_wall_ns", rec->clock_wall_ns, 0);
			num(r, "clock_ref_ns", rec->clock_ref_ns, 0);
		}
		str(r, "syscall_map", rec->syscall_source);
		key(r, "completed");
		put(r, failed ? "false" : "true");
		rc = flush_line(r, err);
	}
	if (r->out && r->out != stdout && fclose(r->out) && !rc)
		rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s", strerror(errno));
	else if (r->out == stdout && fflush(stdout) && !rc)
		rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s", strerror(errno));
	if (r->write_failed)
		rc = 0;               /* said once, by the event that failed */
	ex_free(&r->x);
	bb_free(&r->line);
	free(r);
	return rc;
}
