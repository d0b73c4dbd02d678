/* export_core.c - the export engines' shared part: recording id and row,
 * common columns, threads, column naming and the value rules. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "export/export_core.h"
#include "perfdata/pd_session.h"

#define FEAT_CLOCK_DATA 29       /* perf's HEADER_CLOCK_DATA */

const char *const ex_common_names[EX_NR_COMMON] = {
	"common_recording", "common_time", "common_cpu", "common_pid", "common_tid",
	"common_comm", "common_flags", "common_preempt_count",
};
const struct ex_type ex_common_types[EX_NR_COMMON] = {
	{ EX_UINT, 64, 0 }, { EX_UINT, 64, 0 }, { EX_INT, 32, 0 }, { EX_INT, 32, 0 },
	{ EX_INT, 32, 0 }, { EX_STR, 0, 0 }, { EX_UINT, 8, 0 }, { EX_UINT, 8, 0 },
};

/* every database's own tables (docs/export.md); the first four have done__ views */
const char *const ex_fixed_tables[] = {
	"recordings", "syscalls", "threads", EX_SAMPLES, EX_EVENTS, EX_EVENT_COLUMNS, NULL
};
enum { NR_FIXED_VIEWS = 4 };

/* A tracepoint's names: its table, and perf's "system:event". */
struct ex_tname {
	char *table, *perf;
	char *label;               /* ex_label(table), where a sender thread may read it */
};

const char *ex_label(const char *name, char *buf)
{
	size_t n = strlen(name);

	if (n < EX_LABEL)
		memcpy(buf, name, n + 1);
	else
		snprintf(buf, EX_LABEL, "%.60s...", name);
	return buf;
}

/* @pa@a and @pb@b the same name, ignoring ASCII case */
static int same_name(const char *pa, const char *a, const char *pb, const char *b)
{
	for (;;) {
		if (!*pa && a)
			pa = a, a = NULL;
		if (!*pb && b)
			pb = b, b = NULL;
		if (tolower((unsigned char)*pa) != tolower((unsigned char)*pb))
			return 0;
		if (!*pa)
			return 1;
		pa++, pb++;
	}
}

/* @t or its view named like @name (with @prefix) */
static int clash(const char *prefix, const char *name, const char *t, int has_view)
{
	return same_name(prefix, name, "", t) || (has_view && same_name(prefix, name, "done__", t));
}

/* Table name @cand (and its done__ view) free: no fixed table, no table
 * named so far, no table the database maps to another event. */
static int table_taken(const struct ex_run *x, const char *cand)
{
	for (int pass = 0; pass < 2; pass++) {
		const char *pre = pass ? "done__" : "";

		for (int i = 0; ex_fixed_tables[i]; i++)
			if (clash(pre, cand, ex_fixed_tables[i], i < NR_FIXED_VIEWS))
				return 1;
		for (size_t i = 0; i < x->tnames.nr; i++) {
			const struct ex_tname *n = idtable_at(&x->tnames, i);

			if (n->table && clash(pre, cand, n->table, 1))
				return 1;
		}
		for (size_t i = 0; i < x->nr_known; i++)
			if (clash(pre, cand, x->known[2 * i + 1], 1))
				return 1;
	}
	return 0;
}

/* @base, or @base_N with the first N from 2 for which @taken says no; NULL: ENOMEM */
static char *first_free(const char *base, int (*taken)(const void *ctx, const char *name),
			const void *ctx)
{
	char *name = strdup(base);

	for (unsigned n = 2; name && taken(ctx, name); n++) {
		free(name);
		if (asprintf(&name, "%s_%u", base, n) < 0)
			name = NULL;
	}
	return name;
}

static int table_taken_cb(const void *ctx, const char *name)
{
	return table_taken(ctx, name);
}

/* one line through the run's log: "warning: tracepoint S:E: WHAT NAME (BASE is taken)" */
static void warn_renamed(const struct ex_run *x, const char *perf, const char *what,
			 const char *field, const char *base, const char *name)
{
	char a[EX_LABEL], b[EX_LABEL], c[EX_LABEL], d[EX_LABEL];
	char *msg;

	if (!x->st->log)
		return;
	if (asprintf(&msg, "warning: tracepoint %s%s%s: %s %s (%s is taken)\n",
		     ex_label(perf, a), field ? ": field " : "", field ? ex_label(field, b) : "",
		     what, ex_label(name, c), ex_label(base, d)) < 0)
		return;
	x->st->log(x->st->log_ctx, msg);
	free(msg);
}

/* The table of format @d: the database's own for its perf name, else its
 * "system__event" made unique. */
static int name_one(void *ctx, const struct tp_decoder *d)
{
	struct ex_run *x = ctx;
	struct ex_tname *n = idtable_slot(&x->tnames, d->id);
	char *sys, *ev, *base = NULL, label[EX_LABEL];

	if (!n)
		return TB_ERR_NOMEM;
	if (n->perf)
		return 0;
	if (asprintf(&n->perf, "%s:%s", d->system, d->name) < 0) {
		n->perf = NULL;
		return TB_ERR_NOMEM;
	}
	for (size_t i = 0; i < x->nr_known && !n->table; i++)
		if (!strcmp(x->known[2 * i], n->perf) && !(n->table = strdup(x->known[2 * i + 1])))
			return TB_ERR_NOMEM;
	if (n->table)
		return (n->label = strdup(ex_label(n->table, label))) ? 0 : TB_ERR_NOMEM;
	sys = ec_ident(d->system);
	ev = ec_ident(d->name);
	if (sys && ev && asprintf(&base, "%s__%s", sys, ev) < 0)
		base = NULL;
	free(sys);
	free(ev);
	if (base && (n->table = first_free(base, table_taken_cb, x)) && strcmp(base, n->table))
		warn_renamed(x, n->perf, "table", NULL, base, n->table);
	free(base);
	if (n->table)
		n->label = strdup(ex_label(n->table, label));
	return n->label ? 0 : TB_ERR_NOMEM;
}

int ex_known_add(struct ex_run *x, const char *perf, const char *table)
{
	char **k = realloc(x->known, (x->nr_known + 1) * 2 * sizeof(*k));

	if (!k)
		return -1;
	x->known = k;
	k[2 * x->nr_known] = strdup(perf);
	k[2 * x->nr_known + 1] = strdup(table);
	if (!k[2 * x->nr_known] || !k[2 * x->nr_known + 1]) {
		free(k[2 * x->nr_known]);
		free(k[2 * x->nr_known + 1]);
		return -1;
	}
	x->nr_known++;
	return 0;
}

void ex_type_of(const struct tp_field *f, struct ex_type *t)
{
	int size = f->kind == TP_ARRAY ? f->elem_size : f->size;

	memset(t, 0, sizeof(*t));
	switch (f->kind) {
	case TP_INT:
	case TP_UINT:
	case TP_ARRAY:
		t->kind = f->is_signed ? EX_INT : EX_UINT;
		t->bits = size == 1 ? 8 : size == 2 ? 16 : size == 4 ? 32 : 64;
		t->array = f->kind == TP_ARRAY;
		break;
	case TP_STRING:
		t->kind = EX_STR;
		break;
	default:
		t->kind = EX_BYTES;
		break;
	}
}

const char *ex_type_tag(const struct ex_type *t, char *buf, size_t cap)
{
	if (t->kind == EX_STR)
		snprintf(buf, cap, t->array ? "array_string" : "string");
	else if (t->kind == EX_BYTES)
		snprintf(buf, cap, "bytes");
	else
		snprintf(buf, cap, "%s%s%d", t->array ? "array_" : "",
			 t->kind == EX_INT ? "int" : "uint", t->bits);
	return buf;
}

/* FNV-1a, 64 bits */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	for (size_t i = 0; i < n; i++) {
		h ^= b[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

/* splitmix64's finaliser, top bit cleared: a positive signed 64-bit integer */
static uint64_t mix(uint64_t h)
{
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	h ^= h >> 31;
	return h & INT64_MAX;
}

/* Hash @len bytes of @fd from @off; 0, or -1 on a read error. */
static int hash_range(int fd, uint64_t off, uint64_t len, uint64_t *h)
{
	unsigned char buf[65536];

	while (len) {
		size_t want = len < sizeof(buf) ? (size_t)len : sizeof(buf);
		ssize_t n = pread(fd, buf, want, (off_t)off);

		if (n <= 0)
			return -1;
		*h = fnv(*h, buf, (size_t)n);
		off += (uint64_t)n;
		len -= (uint64_t)n;
	}
	return 0;
}

/* perf's clock-data feature: u32 version, u32 clockid, u64 wall-clock ns,
 * u64 clockid ns, read from the feature index (one {offset, size} per set
 * bit, in bit order) */
static void read_clock_data(struct ex_run *x, int fd, uint64_t feat_off, uint64_t file_size)
{
	struct pd_session *s = x->st->session;
	unsigned char sec[16], body[24];
	uint64_t off, size;
	int before = 0;

	if (!pd_session_has_feature(s, FEAT_CLOCK_DATA))
		return;
	for (int f = 0; f < FEAT_CLOCK_DATA; f++)
		before += pd_session_has_feature(s, f);
	if (pread(fd, sec, 16, (off_t)(feat_off + 16ULL * (uint64_t)before)) != 16)
		return;
	memcpy(&off, sec, 8);
	memcpy(&size, sec + 8, 8);
	if (size < 24 || off > file_size || file_size - off < 24 ||
	    pread(fd, body, 24, (off_t)off) != 24)
		return;
	x->rec.has_clock = 1;
	memcpy(&x->rec.clockid, body + 4, 4);
	memcpy(&x->rec.clock_wall_ns, body + 8, 8);
	memcpy(&x->rec.clock_ref_ns, body + 16, 8);
}

/* The file-mode id: everything but the data section. 0, or -1 when the
 * file cannot be read so (a pipe, an unfinished recording). */
static int file_id(struct ex_run *x)
{
	struct pd_session *s = x->st->session;
	uint64_t data_off, data_size, feat_off, h = 0xcbf29ce484222325ULL;
	struct stat sb;
	int fd, r = -1;

	pd_session_layout(s, &data_off, &data_size, &feat_off);
	if (pd_session_is_pipe(s) || !feat_off || !x->st->input || !strcmp(x->st->input, "-") ||
	    pd_session_stats(s)->unfinished)
		return -1;
	fd = open(x->st->input, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!fstat(fd, &sb) && S_ISREG(sb.st_mode) && feat_off <= (uint64_t)sb.st_size &&
	    data_off <= feat_off && !hash_range(fd, 0, data_off, &h) &&
	    !hash_range(fd, feat_off, (uint64_t)sb.st_size - feat_off, &h)) {
		x->hash = h;
		x->rec.id = mix(h);
		x->rec.id_final = 1;
		read_clock_data(x, fd, feat_off, (uint64_t)sb.st_size);
		r = 0;
	}
	close(fd);
	return r;
}

char *ex_cmdline_join(const struct pd_header_info *info)
{
	size_t n = 1;
	char *s;

	if (!info->nr_cmdline)
		return NULL;
	for (uint32_t i = 0; i < info->nr_cmdline; i++)
		n += strlen(info->cmdline[i]) + 1;
	s = malloc(n);
	if (!s)
		return NULL;
	s[0] = 0;
	for (uint32_t i = 0; i < info->nr_cmdline; i++) {
		if (i)
			strcat(s, " ");
		strcat(s, info->cmdline[i]);
	}
	return s;
}

int ex_init(struct ex_run *x, const struct engine_start *st, struct tb_err *err)
{
	struct pd_session *s = st->session;
	const struct pd_header_info *h = pd_session_info(s);

	memset(x, 0, sizeof(*x));
	x->st = st;
	idtable_init(&x->tables, sizeof(struct ex_table));
	idtable_init(&x->tnames, sizeof(struct ex_tname));
	x->rec.hostname = h->hostname;
	x->rec.osrelease = h->osrelease;
	x->rec.arch = h->arch;
	x->rec.version = h->version;
	x->rec.nr_cpus = h->has_nrcpus ? (int64_t)h->nr_cpus_avail : -1;
	x->rec.cmdline = ex_cmdline_join(h);
	x->rec.syscalls = ec_syscall_map(s, &x->builtin);
	x->rec.syscall_source = !x->rec.syscalls ? "none" :
				x->rec.syscalls == &x->builtin ? "built-in" : "recording";
	x->nr_thread_slots = 1024;
	x->threads = calloc(x->nr_thread_slots, sizeof(*x->threads));
	if (!x->threads || (h->nr_cmdline && !x->rec.cmdline))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	if (file_id(x)) {
		/* a pipe: its attrs and header strings now, its first event later */
		x->hash = 0xcbf29ce484222325ULL;
		for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
			const struct pd_evsel *e = pd_session_evsel(s, i);

			x->hash = fnv(x->hash, e->raw, e->raw_size);
		}
		x->hash = fnv_str(x->hash, h->hostname);
		x->hash = fnv_str(x->hash, h->osrelease);
		x->hash = fnv_str(x->hash, h->version);
		x->hash = fnv_str(x->hash, x->rec.cmdline);
	}
	return 0;
}

void ex_finish_id(struct ex_run *x)
{
	if (!x->rec.id_final) {
		x->rec.id = mix(x->hash);
		x->rec.id_final = 1;
	}
}

static void free_table(struct ex_table *t)
{
	if (t->cols)
		for (size_t i = 0; i < t->dec->nr; i++)
			free(t->cols[i]);
	free(t->cols);
	free(t->types);
}

void ex_free(struct ex_run *x)
{
	for (size_t i = 0; i < x->tables.nr; i++) {
		struct ex_table *t = idtable_at(&x->tables, i);

		if (t->dec)
			free_table(t);
	}
	idtable_free(&x->tables);
	for (size_t i = 0; i < x->tnames.nr; i++) {
		struct ex_tname *n = idtable_at(&x->tnames, i);

		free(n->table);
		free(n->perf);
		free(n->label);
	}
	idtable_free(&x->tnames);
	for (size_t i = 0; i < 2 * x->nr_known; i++)
		free(x->known[i]);
	free(x->known);
	for (size_t i = 0; x->threads && i < x->nr_thread_slots; i++)
		free(x->threads[i].comm);
	free(x->threads);
	scmap_free(&x->builtin);
	free(x->rec.cmdline);
	free(x->utf8);
	free(x->chain_ip);
	free(x->chain_sym);
	free(x->chain_dso);
}

static int thread_grow(struct ex_run *x)
{
	size_t n = x->nr_thread_slots * 2;
	struct ex_thread *t = calloc(n, sizeof(*t)), *old = x->threads;

	if (!t)
		return -1;
	for (size_t i = 0; i < x->nr_thread_slots; i++) {
		size_t j;

		if (!old[i].comm)
			continue;
		for (j = (uint32_t)old[i].tid * 2654435761u & (n - 1); t[j].comm; j = (j + 1) & (n - 1))
			;
		t[j] = old[i];
	}
	free(old);
	x->threads = t;
	x->nr_thread_slots = n;
	return 0;
}

/* The thread (pid, tid) with the comm it was last seen with. */
static int thread_seen(struct ex_run *x, int32_t pid, int32_t tid, const char *comm)
{
	size_t mask = x->nr_thread_slots - 1, j = (uint32_t)tid * 2654435761u & mask;

	while (x->threads[j].comm && x->threads[j].tid != tid)
		j = (j + 1) & mask;
	if (x->threads[j].comm) {
		if (x->threads[j].pid == pid && !strcmp(x->threads[j].comm, comm))
			return 0;
		free(x->threads[j].comm);
	} else {
		x->nr_threads++;
	}
	x->threads[j].pid = pid;
	x->threads[j].tid = tid;
	x->threads[j].comm = strdup(comm);
	if (!x->threads[j].comm)
		return -1;
	if (x->nr_threads * 2 > x->nr_thread_slots)
		return thread_grow(x);
	return 0;
}

int ex_event(struct ex_run *x, const struct pd_event *ev, struct ex_common *c,
	     struct ex_table **tab, struct tb_err *err)
{
	const struct pd_sample *s = ev->sample;
	const struct tp_decoder *d = ev->evsel->dec;
	const unsigned char *raw = s->raw;
	size_t size = s->raw_size;
	int rawpid = d && d->off_pid >= 0 ? tp_common_int(raw, size, d->off_pid, 4, 1, d->swap) : -1;

	if (!x->started) {
		x->started = 1;
		if (!x->rec.id_final) {
			x->hash = fnv(x->hash, &s->time, sizeof(s->time));
			if (raw)
				x->hash = fnv(x->hash, raw, size);
			ex_finish_id(x);
		}
		x->rec.first_time = s->time;
	}
	x->rec.last_time = s->time;
	x->rec.nr_events++;
	c->time = s->time;
	c->cpu = s->cpu;
	c->pid = s->pid >= 0 ? s->pid : rawpid;
	c->tid = s->tid >= 0 ? s->tid : rawpid;
	c->comm = ev->comm ? ev->comm : "";
	c->flags = d && d->off_flags >= 0 ? tp_common_int(raw, size, d->off_flags, 1, 0, d->swap) : 0;
	c->preempt = d && d->off_preempt >= 0 ?
		     tp_common_int(raw, size, d->off_preempt, 1, 0, d->swap) : 0;
	if (thread_seen(x, c->pid, c->tid, c->comm))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	*tab = NULL;
	if (!d)
		return 0;
	*tab = ex_table_of(x, d, err);
	return *tab ? 0 : err->code;
}

struct ex_table *ex_table_of(struct ex_run *x, const struct tp_decoder *d, struct tb_err *err)
{
	struct ex_table *t = idtable_slot(&x->tables, d->id);

	if (!t) {
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		return NULL;
	}
	if (!t->dec) {
		const struct ex_tname *n = (size_t)d->id < x->tnames.nr ?
					   idtable_at(&x->tnames, (size_t)d->id) : NULL;

		/* every format's name at once, the same whichever event comes first
		 * (again for a format that came later: a pipe's later tracing data) */
		if ((!n || !n->label) && pd_session_for_each_decoder(x->st->session, name_one, x)) {
			tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
			return NULL;
		}
		n = (size_t)d->id < x->tnames.nr ? idtable_at(&x->tnames, (size_t)d->id) : NULL;
		if (!n || !n->label) {
			tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "tracepoint id %d has no format",
				   d->id);
			return NULL;
		}
		t->name = n->table;
		t->perf = n->perf;
		t->label = n->label;
		t->run = x;
		t->dec = d;
	}
	return t;
}

struct ready_ctx {
	struct ex_run *x;
	int (*ready)(void *ctx, struct ex_table *t, struct tb_err *err);
	void *ctx;
	struct tb_err *err;
};

static int ready_one(void *ctx, const struct tp_decoder *d)
{
	struct ready_ctx *c = ctx;
	struct ex_table *t = ex_table_of(c->x, d, c->err);

	if (!t)
		return c->err->code;
	return t->ready ? 0 : c->ready(c->ctx, t, c->err);
}

int ex_tables_ready(struct ex_run *x, int (*ready)(void *ctx, struct ex_table *t, struct tb_err *err),
		    void *ctx, struct tb_err *err)
{
	struct ready_ctx c = { x, ready, ctx, err };

	return pd_session_for_each_decoder(x->st->session, ready_one, &c);
}

struct cols_ctx {
	const struct ex_table *t;
	size_t nr;                 /* fields named so far */
};

/* column @name taken in the table: a common column or an earlier field's */
static int column_taken(const void *ctx, const char *name)
{
	const struct cols_ctx *c = ctx;

	for (int k = 0; k < EX_NR_COMMON; k++)
		if (same_name("", name, "", ex_common_names[k]))
			return 1;
	for (size_t i = 0; i < c->nr; i++)
		if (same_name("", name, "", c->t->cols[i]))
			return 1;
	return 0;
}

int ex_table_columns(struct ex_table *t,
		     int (*have)(void *ctx, const char *name, const struct ex_type *type),
		     void *ctx, struct tb_err *err)
{
	const struct tp_decoder *d = t->dec;
	struct cols_ctx c = { t, 0 };
	char tag[32];
	unsigned n;

	t->cols = calloc(d->nr ? d->nr : 1, sizeof(*t->cols));
	t->types = calloc(d->nr ? d->nr : 1, sizeof(*t->types));
	if (!t->cols || !t->types)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	for (size_t i = 0; i < d->nr; i++, c.nr++) {
		char *base = ec_ident(d->fields[i].name), *name = NULL;

		ex_type_of(&d->fields[i], &t->types[i]);
		ex_type_tag(&t->types[i], tag, sizeof(tag));
		/* the first free name whose column has the field's type, or NAME__TAG */
		for (n = 1; base; n++) {
			char *cand, *typed;

			if (n == 1 ? !(cand = strdup(base)) : asprintf(&cand, "%s_%u", base, n) < 0)
				break;
			if (column_taken(&c, cand)) {
				free(cand);
				continue;
			}
			if (have(ctx, cand, &t->types[i]) >= 0) {
				name = cand;
				break;
			}
			if (asprintf(&typed, "%s__%s", cand, tag) < 0)
				typed = NULL;
			free(cand);
			if (!typed)
				break;
			if (!column_taken(&c, typed) && have(ctx, typed, &t->types[i]) >= 0) {
				name = typed;
				break;
			}
			free(typed);
		}
		if (name && n > 1)
			warn_renamed(t->run, t->perf, "column", d->fields[i].name, base, name);
		free(base);
		if (!name)
			return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		t->cols[i] = name;
	}
	return 0;
}

/* The length of the well-formed UTF-8 sequence at @p (at most @n bytes), or 0. */
static size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, cp = c & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

const char *ex_utf8(struct ex_run *x, const unsigned char *p, size_t len, size_t *out_len)
{
	size_t n = strnlen((const char *)p, len), o = 0, i = 0;

	/* the common case: plain ASCII is its own UTF-8 */
	while (i < n && p[i] < 0x80)
		i++;
	if (i == n) {
		*out_len = n;
		return (const char *)p;
	}
	if (x->utf8_cap < 3 * n + 1) {
		char *b = realloc(x->utf8, 3 * n + 64);

		if (!b)
			return NULL;
		x->utf8 = b;
		x->utf8_cap = 3 * n + 64;
	}
	memcpy(x->utf8, p, i);
	o = i;
	while (i < n) {
		size_t l = utf8_seq(p + i, n - i);

		if (l) {
			memcpy(x->utf8 + o, p + i, l);
			o += l;
			i += l;
		} else {
			memcpy(x->utf8 + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	x->utf8[o] = 0;
	*out_len = o;
	return x->utf8;
}

#define JSON_SAFE (1ULL << 53)

/* @v's decimal digits at @buf; returns their count */
static size_t udec(char *buf, uint64_t v)
{
	char tmp[20];
	size_t n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	for (size_t i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	return n;
}

size_t ex_json_int(char *buf, uint64_t v, int is_signed)
{
	int neg = is_signed && (int64_t)v < 0;
	uint64_t mag = neg ? -v : v;
	int quote = mag > JSON_SAFE;      /* beyond +-2^53: a string */
	size_t n = 0;

	if (quote)
		buf[n++] = '"';
	if (neg)
		buf[n++] = '-';
	n += udec(buf + n, mag);
	if (quote)
		buf[n++] = '"';
	return n;
}

void ex_json_array(struct bytebuf *b, const struct ec_value *a)
{
	/* the text built here, a call to bb_put per 480 bytes, not per piece:
	 * SQLite's array columns are a row's largest field */
	char buf[512];
	size_t n = 0;

	buf[n++] = '[';
	for (int i = 0; i < a->count; i++) {
		struct ec_value e;

		if (n > sizeof(buf) - 32) {      /* room for ',' and 23 bytes */
			bb_put(b, buf, n);
			n = 0;
		}
		ec_element(a, i, &e);
		if (i)
			buf[n++] = ',';
		if (e.kind == EC_NONE) {
			memcpy(buf + n, "null", 4);
			n += 4;
		} else {
			n += ex_json_int(buf + n, e.num, e.kind == EC_INT);
		}
	}
	buf[n++] = ']';
	bb_put(b, buf, n);
}

void ex_json_string(struct bytebuf *b, const char *s, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	size_t start = 0;

	bb_put(b, "\"", 1);
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];
		char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

		if (c >= 0x20 && c != '"' && c != '\\')
			continue;
		bb_put(b, s + start, i - start);
		if (c == '"' || c == '\\') {
			esc[1] = (char)c;
			bb_put(b, esc, 2);
		} else {
			bb_put(b, esc, 6);
		}
		start = i + 1;
	}
	bb_put(b, s + start, len - start);
	bb_put(b, "\"", 1);
}

void ex_quote(struct bytebuf *b, const char *name, char q)
{
	bb_put(b, &q, 1);
	for (; *name; name++) {
		bb_put(b, name, 1);
		if (*name == q)
			bb_put(b, &q, 1);
	}
	bb_put(b, &q, 1);
}

int ex_have_add(struct ex_have *h, const char *name, const char *type)
{
	char **n = realloc(h->names, (size_t)(h->nr + 1) * sizeof(char *));
	char **t = n ? realloc(h->types, (size_t)(h->nr + 1) * sizeof(char *)) : NULL;

	if (n)
		h->names = n;
	if (t)
		h->types = t;
	if (!n || !t || !(n[h->nr] = strdup(name)))
		return -1;
	if (!(t[h->nr] = strdup(type))) {
		free(n[h->nr]);
		return -1;
	}
	h->nr++;
	return 0;
}

void ex_have_free(struct ex_have *h)
{
	for (int i = 0; i < h->nr; i++) {
		free(h->names[i]);
		free(h->types[i]);
	}
	free(h->names);
	free(h->types);
	h->names = h->types = NULL;
	h->nr = 0;
}

int ex_have_check(const struct ex_have *h, const char *name, const char *want, int nocase)
{
	for (int i = 0; i < h->nr; i++)
		if (nocase ? !strcasecmp(h->names[i], name) : !strcmp(h->names[i], name))
			return (nocase ? strcasecmp(h->types[i], want) : strcmp(h->types[i], want)) ? -1 : 1;
	return 0;
}
