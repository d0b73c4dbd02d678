/* pic_flame.c - the flame graph engine: every sample's stack folded as
 * perf's stackcollapse.py folds it (comm at the root, ';' in a symbol made
 * ':'), or, off-CPU, each sched_switch's stack charged with the
 * microseconds its task then stayed switched out; written as folded lines
 * or as the picture (flame_html.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "ec_sample.h"
#include "engine_core.h"
#include "perfdata/pd_evsel.h"
#include "pictures/flame_html.h"
#include "pictures/flame_tree.h"
#include "pictures/pictures.h"
#include "pictures/tidmap.h"

/* The most frames of one stack (the chain's 127 and their inlines) */
#define MAX_FRAMES 1024
/* The most frames a comm makes (a comm with ';' splits as its folded line does) */
#define MAX_COMM_PIECES 2

/* A task switched out: the stack it blocked in, and when. */
struct away {
	uint32_t node;             /* 0: not away */
	uint64_t since;
};

struct engine_run {
	const struct engine_start *st;
	const struct engine_picture *pic;
	struct sym_machine *syms;
	struct ft_tree *tree;
	struct tidmap away;        /* per tid: struct away */
	const struct tp_decoder *switch_dec;
	const struct tp_field *prev_pid, *next_pid;
	/* one stack: callee first as walked, then root first for ft_path */
	const char *sym[MAX_FRAMES];   /* the name as resolved (NULL: in text at off) */
	size_t off[MAX_FRAMES], len[MAX_FRAMES];
	uint8_t kind[MAX_FRAMES];
	const char *names[MAX_FRAMES + MAX_COMM_PIECES];
	size_t lens[MAX_FRAMES + MAX_COMM_PIECES];
	uint8_t kinds[MAX_FRAMES + MAX_COMM_PIECES];
	char *text;                /* names that needed tidying */
	size_t text_len, text_cap;
};

int flame_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));

	*run = r;
	if (!r || !(r->tree = ft_new("all")))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	r->st = st;
	r->pic = st->picture;
	r->syms = pd_session_symbols(st->session);
	tidmap_init(&r->away, sizeof(struct away));
	return 0;
}

static int is_jit(const char *dso)
{
	const char *b = strrchr(dso, '/');

	b = b ? b + 1 : dso;
	return !strcmp(dso, "[JIT]") || !strncmp(b, "jitted-", 7) ||
	       (!strncmp(dso, "/tmp/perf-", 10) && strstr(dso, ".map"));
}

/* Frame @i's name as stackcollapse.py tidies it: "[unknown]" for none,
 * ';' as ':', "_[k]" after a kernel symbol under --kernel; copied into
 * the run's text only when it changes. 0, or -1 when out of memory. */
static int tidy(struct engine_run *r, size_t i, const struct sym_loc *l)
{
	const char *s = l->sym ? l->sym : "[unknown]";
	size_t n = strnlen(s, FT_MAX_NAME);
	int kernel = r->pic->annotate_kernel && !strcmp(l->dso, "[kernel.kallsyms]");
	char *d;

	r->len[i] = n + (kernel ? 4 : 0);
	r->sym[i] = s;
	if (!kernel && !memchr(s, ';', n))
		return 0;
	if (r->text_len + n + 4 > r->text_cap) {
		size_t cap = 2 * (r->text_cap + n + 4);

		if (!(d = realloc(r->text, cap)))
			return -1;
		r->text = d;
		r->text_cap = cap;
	}
	d = r->text + r->text_len;
	memcpy(d, s, n);
	for (size_t k = 0; k < n; k++)
		if (d[k] == ';')
			d[k] = ':';
	if (kernel)
		memcpy(d + n, "_[k]", 4);
	r->sym[i] = NULL;
	r->off[i] = r->text_len;
	r->text_len += r->len[i];
	return 0;
}

/* The stack of @ev, callee first, into sym/off/len/kind: the count, or
 * TB_ERR_NOMEM. */
static int callee_frames(struct engine_run *r, const struct pd_event *ev)
{
	struct ec_chain c;
	struct sym_loc l;
	uint64_t ip;
	int k, n = 0;

	r->text_len = 0;
	if (!ev->sample->nr_callchain)
		return 0;
	ec_chain_begin(&c, ev, ec_max_stack());
	while (n < MAX_FRAMES && (k = ec_chain_frame(&c, r->syms, ev, &ip, &l)) != 0) {
		if (k < 0 || tidy(r, (size_t)n, &l))
			return TB_ERR_NOMEM;
		r->kind[n] = c.nr_inl && c.next_inl < c.nr_inl ? FT_INLINE :
			     l.is_kernel ? FT_KERNEL : is_jit(l.dso) ? FT_JIT : FT_USER;
		n++;
	}
	return n;
}

/* The comm frame(s) of stackcollapse.py: the comm, ' ' as '_', with
 * -PID and /TID as asked, split where the comm holds ';' (as the folded
 * line is, into at most MAX_COMM_PIECES); into names. Returns how many. */
static size_t comm_frames(struct engine_run *r, const struct pd_event *ev, char *buf,
			  size_t size)
{
	size_t n = 0, len;
	char *p, *q;

	if (r->pic->no_comm)
		return 0;
	snprintf(buf, size, "%s", ev->comm ? ev->comm : ":-1");
	for (p = buf; *p; p++)
		if (*p == ' ')
			*p = '_';
	len = strlen(buf);
	if (r->pic->include_pid)
		len += (size_t)snprintf(buf + len, size - len, "-%d", (int)ev->sample->pid);
	if (r->pic->include_tid)
		snprintf(buf + len, size - len, "%s%d", r->pic->include_pid ? "/" : "-",
			 (int)ev->sample->tid);
	for (p = buf;; p = q + 1) {
		q = n + 1 < MAX_COMM_PIECES ? strchrnul(p, ';') : p + strlen(p);
		r->names[n] = p;
		r->lens[n] = (size_t)(q - p);
		r->kinds[n++] = FT_COMM;
		if (!*q)
			break;
	}
	return n;
}

/* The node of @ev's stack (root first: comm, then the outermost caller). */
static int64_t stack_node(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	char comm[256];
	int nf = callee_frames(r, ev);
	size_t n;

	if (nf < 0)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	n = comm_frames(r, ev, comm, sizeof(comm));
	for (int i = nf - 1; i >= 0; i--, n++) {
		r->names[n] = r->sym[i] ? r->sym[i] : r->text + r->off[i];
		r->lens[n] = r->len[i];
		r->kinds[n] = r->kind[i];
	}
	return ft_path(r->tree, r->names, r->lens, r->kinds, n, err);
}

/* The decoder of sched:sched_switch and its two pid fields, found once. */
static const struct tp_decoder *switch_decoder(struct engine_run *r, const struct pd_event *ev)
{
	const struct tp_decoder *d = ev->evsel->dec;

	if (!d || d == r->switch_dec)
		return d;
	if (strcmp(d->system, "sched") || strcmp(d->name, "sched_switch"))
		return NULL;
	r->prev_pid = r->next_pid = NULL;
	for (size_t i = 0; i < d->nr; i++) {
		if (!strcmp(d->fields[i].name, "prev_pid"))
			r->prev_pid = &d->fields[i];
		else if (!strcmp(d->fields[i].name, "next_pid"))
			r->next_pid = &d->fields[i];
	}
	if (!r->prev_pid || !r->next_pid)
		return NULL;
	r->switch_dec = d;
	return d;
}

/* Off-CPU: a sched_switch takes prev_pid away with this stack (not the
 * idle task, pid 0) and brings next_pid back, charging the time since it
 * went in microseconds (rounded) to the stack it left with. */
static int offcpu_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	const struct pd_sample *s = ev->sample;
	uint64_t prev, next;
	struct away *a;
	int64_t node;

	if (!switch_decoder(r, ev) || r->switch_dec != ev->evsel->dec || !s->raw ||
	    tp_read_int(r->prev_pid, s->raw, s->raw_size, 0, &prev) ||
	    tp_read_int(r->next_pid, s->raw, s->raw_size, 0, &next))
		return 0;
	if ((uint32_t)next && (a = tidmap_get(&r->away, (uint32_t)next, 0)) && a->node) {
		if (s->time > a->since)
			ft_credit(r->tree, a->node, (s->time - a->since + 500) / 1000);
		a->node = 0;
	}
	if (!(uint32_t)prev)
		return 0;
	if ((node = stack_node(r, ev, err)) < 0)
		return (int)node;
	if (!(a = tidmap_get(&r->away, (uint32_t)prev, 1)))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	a->node = (uint32_t)node;
	a->since = s->time;
	return 0;
}

int flame_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	int64_t node;

	if (r->pic->offcpu)
		return offcpu_event(r, ev, err);
	if ((node = stack_node(r, ev, err)) < 0)
		return (int)node;
	ft_credit(r->tree, (uint32_t)node, 1);
	return 0;
}

int flame_stop(struct engine_run *r, struct tb_err *err)
{
	const struct engine_picture *pic = r->pic;
	FILE *f = NULL;
	char *tmp = NULL;
	int rc = 0;

	if (pic->collect && !*r->st->failed) {
		*pic->collect = r->tree;
		r->tree = NULL;
	} else if (!*r->st->failed && (rc = pic->before ? ft_diff(r->tree, pic->before) : 0)) {
		tb_err_set(err, rc, TB_NO_OFFSET, "out of memory");
	} else if (!*r->st->failed && (f = pic_open(pic->output, &tmp, err))) {
		rc = pic->folded ? ft_write_folded(r->tree, f) : flame_write_html(f, r->tree, pic);
		if (rc == TB_ERR_NOMEM)      /* else pic_close says what failed to write */
			tb_err_set(err, rc, TB_NO_OFFSET, "out of memory");
		if (pic_close(f, pic->output, tmp, rc == TB_ERR_NOMEM, err) && !rc)
			rc = TB_ERR_IO;
	} else if (!*r->st->failed) {
		rc = err->code;
	}
	ft_free(r->tree);
	tidmap_free(&r->away);
	free(r->text);
	free(r);
	return rc;
}
