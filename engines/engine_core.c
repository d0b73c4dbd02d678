/* engine_core.c - the language-independent half of the script engines
 * (perf keeps its in trace-event-scripting.c): python.c and perl.c are
 * interpreter glue around it. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "engine_core.h"

int ec_run_init(struct ec_run *c, const struct engine_start *st, const char *sep, size_t elem,
		struct tb_err *err)
{
	memset(c, 0, sizeof(*c));
	c->st = st;
	c->cur.session = st->session;
	idtable_init(&c->evs, elem);
	if (setenv("PERF_EXEC_PATH", st->exec_path, 1) ||
	    ec_names_build(&c->names, st->session, sep, st->log, st->log_ctx))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	return 0;
}

void ec_run_free(struct ec_run *c)
{
	ec_names_free(&c->names);
	idtable_free(&c->evs);
}

void *ec_event(struct ec_run *c, const struct tp_decoder *dec, struct tb_err *err)
{
	struct ec_event *e = idtable_slot(&c->evs, dec->id);

	if (!e) {
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET,
			   "no room for the state of tracepoint id %d", dec->id);
		return NULL;
	}
	if (!e->dec) {
		e->dec = dec;
		e->name = ec_name(&c->names, dec->id);
	}
	if (!e->name) {
		tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "tracepoint id %d has no handler name",
			   dec->id);
		return NULL;
	}
	return e;
}

void ec_log(const struct ec_run *c, const char *text)
{
	if (c->st->log)
		c->st->log(c->st->log_ctx, text);
}

void ec_current_set(struct ec_current *c, const struct pd_event *ev)
{
	c->raw = ev->sample->raw;
	c->size = ev->sample->raw_size;
	c->dec = ev->evsel->dec;
	c->have_sample = 1;
	c->pid = ev->sample->pid;
	c->cpumode = ev->misc & 7;
	c->ip = ev->sample->ip;
}

void ec_current_end(struct ec_current *c)
{
	c->raw = NULL;
	c->size = 0;
	c->dec = NULL;
}

int ec_context_int(const struct ec_current *c, enum ec_context_field f)
{
	if (!c->dec)
		return 0;
	switch (f) {
	case EC_PC:
		return tp_common_int(c->raw, c->size, c->dec->off_preempt, 1, 0, c->dec->swap);
	case EC_FLAGS:
		return tp_common_int(c->raw, c->size, c->dec->off_flags, 1, 0, c->dec->swap);
	default:
		return tp_common_int(c->raw, c->size, c->dec->off_lock_depth, 4, 1, c->dec->swap);
	}
}

void ec_common_args(const struct pd_event *ev, struct ec_common *c)
{
	const struct pd_sample *s = ev->sample;

	c->cpu = s->cpu;
	c->secs = s->time / 1000000000ULL;
	c->nsecs = s->time % 1000000000ULL;
	c->pid = tp_common_int(s->raw, s->raw_size, ev->evsel->dec->off_pid, 4, 1,
			       ev->evsel->dec->swap);
	c->comm = ev->comm;
}

static int ident_char(char c, int first)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	       (!first && c >= '0' && c <= '9');
}

char *ec_ident(const char *s)
{
	char *out = strdup(s[0] ? s : "_");

	for (size_t i = 0; out && out[i]; i++)
		if (!ident_char(out[i], i == 0))
			out[i] = '_';
	return out;
}

/* @base, or @base_2, _3 ... when @taken says it is in use. */
static char *unique(char *base, int (*taken)(void *ctx, const char *name), void *ctx)
{
	size_t len = strlen(base) + 24;
	char *name;

	if (!taken(ctx, base))
		return base;
	name = malloc(len);
	for (unsigned k = 2; name; k++) {
		snprintf(name, len, "%s_%u", base, k);
		if (!taken(ctx, name))
			break;
	}
	free(base);
	return name;
}

static int name_taken(void *ctx, const char *name)
{
	const struct ec_names *n = ctx;

	for (size_t i = 0; i < n->ids.nr; i++) {
		char *const *slot = idtable_at(&n->ids, i);

		if (*slot && !strcmp(*slot, name))
			return 1;
	}
	return 0;
}

/* "system<sep>event", each part an identifier. */
static char *handler_name(const struct tp_decoder *d, const char *sep)
{
	char *sys = ec_ident(d->system), *ev = ec_ident(d->name), *name = NULL;

	if (sys && ev && asprintf(&name, "%s%s%s", sys, sep, ev) < 0)
		name = NULL;
	free(sys);
	free(ev);
	return name;
}

struct names_ctx {
	struct ec_names *n;
	const char *sep;
	void (*log)(void *ctx, const char *text);
	void *log_ctx;
};

static int add_name(void *ctx, const struct tp_decoder *d)
{
	struct names_ctx *c = ctx;
	char **slot = idtable_slot(&c->n->ids, d->id), *base, *name;

	if (!slot)
		return TB_ERR_NOMEM;
	if (*slot)
		return 0;
	base = handler_name(d, c->sep);
	if (!base)
		return TB_ERR_NOMEM;
	name = strdup(base);
	name = name ? unique(name, name_taken, c->n) : NULL;
	if (name && strcmp(name, base) && c->log) {
		char *msg = NULL;

		if (asprintf(&msg, "warning: %s:%s's handler name %s is taken by another event: "
			     "it is %s\n", d->system, d->name, base, name) >= 0)
			c->log(c->log_ctx, msg);
		free(msg);
	}
	free(base);
	*slot = name;
	return name ? 0 : TB_ERR_NOMEM;
}

int ec_names_build(struct ec_names *n, struct pd_session *s, const char *sep,
		   void (*log)(void *ctx, const char *text), void *log_ctx)
{
	struct names_ctx c = { n, sep, log, log_ctx };

	idtable_init(&n->ids, sizeof(char *));
	return pd_session_for_each_decoder(s, add_name, &c);
}

const char *ec_name(const struct ec_names *n, int id)
{
	if (id < 0 || (size_t)id >= n->ids.nr)
		return NULL;
	return *(char *const *)idtable_at(&n->ids, (size_t)id);
}

void ec_names_free(struct ec_names *n)
{
	for (size_t i = 0; i < n->ids.nr; i++)
		free(*(char **)idtable_at(&n->ids, i));
	idtable_free(&n->ids);
}

/* The parameters before the fields in every generated handler. */
static const char *const common_params[] = {
	"event_name", "context", "common_cpu", "common_secs", "common_nsecs", "common_pid",
	"common_comm", "common_callchain", NULL
};

struct params_ctx {
	char **p;
	size_t nr;
};

static int param_taken(void *ctx, const char *name)
{
	const struct params_ctx *c = ctx;

	for (int i = 0; common_params[i]; i++)
		if (!strcmp(common_params[i], name))
			return 1;
	for (size_t i = 0; i < c->nr; i++)
		if (!strcmp(c->p[i], name))
			return 1;
	return 0;
}

/* @name, or @name_ when it is one of @reserved. */
static char *unreserve(char *name, const char *const *reserved)
{
	char *out;

	for (int i = 0; name && reserved && reserved[i]; i++)
		if (!strcmp(name, reserved[i])) {
			if (asprintf(&out, "%s_", name) < 0)
				out = NULL;
			free(name);
			return out;
		}
	return name;
}

char **ec_params(const struct tp_decoder *d, const char *const *reserved, size_t max)
{
	struct params_ctx c = { calloc(d->nr ? d->nr : 1, sizeof(char *)), 0 };

	for (size_t i = 0; c.p && i < d->nr; i++) {
		char *name = ec_ident(d->fields[i].name);

		if (name && max && strlen(name) > max)
			name[max] = 0;
		name = unreserve(name, reserved);

		name = name ? unique(name, param_taken, &c) : NULL;
		if (!name) {
			ec_params_free(c.p, c.nr);
			return NULL;
		}
		c.p[c.nr++] = name;
	}
	return c.p;
}

void ec_params_free(char **p, size_t nr)
{
	for (size_t i = 0; p && i < nr; i++)
		free(p[i]);
	free(p);
}

const struct syscall_map *ec_syscall_map(struct pd_session *s, struct syscall_map *builtin)
{
	const struct pd_header_info *h = pd_session_info(s);

	memset(builtin, 0, sizeof(*builtin));
	if (h->has_syscalls)
		return &h->syscalls;
	if (h->arch && scmap_from_builtin(builtin, h->arch, NULL) == 0)
		return builtin;
	return NULL;
}

struct define_ctx {
	const struct ec_define_ops *ops;
	void *ctx;
	const char *event;
};

static int define_field(void *ctx, enum tp_sym_kind kind, const char *field, const char *delim)
{
	struct define_ctx *d = ctx;

	return d->ops->field(d->ctx, d->event, kind, field, delim);
}

static int define_value(void *ctx, enum tp_sym_kind kind, const char *field, uint64_t value,
			const char *str)
{
	struct define_ctx *d = ctx;

	return d->ops->value(d->ctx, d->event, kind, field, value, str);
}

struct walk_ctx {
	const struct ec_names *n;
	struct define_ctx d;
};

static int walk_one(void *ctx, const struct tp_decoder *dec)
{
	struct walk_ctx *w = ctx;
	struct tp_sym_visitor v = { &w->d, define_field, define_value };

	w->d.event = ec_name(w->n, dec->id);
	return w->d.event ? tp_walk_symbols(dec, &v) : 0;
}

int ec_walk_defines(struct pd_session *s, const struct ec_names *n,
		    const struct ec_define_ops *ops, void *ctx)
{
	struct walk_ctx w = { n, { ops, ctx, NULL } };

	return pd_session_for_each_decoder(s, walk_one, &w);
}

void ec_python_form(int argc, const char *eighth, size_t nr_fields, int *callchain,
		    int *sample_dict)
{
	int legacy = argc == 7 + (int)nr_fields && !(eighth && strstr(eighth, "callchain"));

	*callchain = !legacy;
	*sample_dict = !legacy && argc == 8 + (int)nr_fields + 1;
}

int ec_error(struct tb_err *err, const struct pd_event *ev, const char *handler,
	     const char *fmt, ...)
{
	char what[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (ev)
		return tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET,
				  "%s: %s (event %llu at file offset 0x%llx)", handler, what,
				  (unsigned long long)ev->index,
				  (unsigned long long)ev->file_offset);
	return tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET, "%s: %s", handler, what);
}

struct gen_ctx {
	const struct ec_gen_lang *lang;
	const struct ec_names *names;
	FILE *f;
};

static int gen_event(void *ctx, const struct tp_decoder *d)
{
	struct gen_ctx *c = ctx;
	char **labels = calloc(d->nr ? d->nr : 1, sizeof(char *));
	struct ec_gen_event e = { d, ec_name(c->names, d->id),
				  ec_params(d, c->lang->reserved, c->lang->max_ident), labels };
	int rc = !e.handler || !e.params || !labels;

	for (size_t i = 0; !rc && i < d->nr; i++)
		rc = !(labels[i] = ec_ident(d->fields[i].name));
	if (!rc)
		c->lang->event(c->f, &e);
	ec_params_free((char **)e.params, d->nr);
	ec_params_free(labels, d->nr);
	return rc ? TB_ERR_NOMEM : 0;
}

int ec_generate(const struct engine_gen *g, const struct ec_gen_lang *lang, struct tb_err *err)
{
	int to_stdout = !strcmp(g->output, "-");
	struct ec_names names;
	struct gen_ctx c = { lang, &names, to_stdout ? stdout : fopen(g->output, "w") };
	int rc;

	if (!c.f)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot create %s: %m", g->output);
	rc = ec_names_build(&names, g->session, lang->sep, g->log, g->log_ctx);
	fputs(lang->head, c.f);
	if (!rc)
		rc = pd_session_for_each_decoder(g->session, gen_event, &c);
	fputs(lang->tail, c.f);
	ec_names_free(&names);
	if (rc) {
		if (!to_stdout)
			fclose(c.f);
		return tb_err_set(err, rc, TB_NO_OFFSET, "out of memory");
	}
	if (to_stdout ? fflush(c.f) || ferror(c.f) : fclose(c.f))
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "writing %s: %m", g->output);
	return 0;
}
