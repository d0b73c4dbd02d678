/* pic_timechart.c - the timechart engine: the sched events of a recording
 * (sched_switch, sched_wakeup, sched_wakeup_new, sched_process_exit, as
 * include/trace/events/sched.h lays them out) read into the model
 * (common/pictures/tc_model.h), then written as one page (tc_html.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_evsel.h"
#include "pictures/pictures.h"
#include "pictures/tc_html.h"
#include "pictures/tc_model.h"
#include "tracepoint/tp_decoder.h"
#include "tracepoint/tp_fields.h"

enum { EV_OTHER, EV_SWITCH, EV_WAKEUP, EV_EXIT };
/* the fields each kind reads, by position in kind_fields[kind] */
enum { F_PREV_COMM, F_PREV_PID, F_PREV_STATE, F_NEXT_COMM, F_NEXT_PID };
enum { F_COMM, F_PID, F_TARGET_CPU };
#define NR_FIELDS 5
#define NR_DECODERS 16             /* decoders remembered; more are looked up each time */

static const char *const kind_fields[][NR_FIELDS] = {
	[EV_SWITCH] = { "prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid" },
	[EV_WAKEUP] = { "comm", "pid", "target_cpu" },
	[EV_EXIT] = { "comm", "pid" },
};

/* One event's decoder: its kind and fields (NULL: absent). */
struct tc_dec {
	const struct tp_decoder *dec;
	int kind;
	const struct tp_field *f[NR_FIELDS];
};

struct engine_run {
	const struct engine_start *st;
	const struct engine_picture *pic;
	struct tc_model model;
	struct tc_dec decs[NR_DECODERS];
	size_t nr_decs;
	struct tc_dec scratch;
};

int tc_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));

	*run = r;
	if (!r)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	r->st = st;
	r->pic = st->picture;
	tc_model_init(&r->model);
	return 0;
}

static int kind_of(const struct tp_decoder *d)
{
	if (strcmp(d->system, "sched"))
		return EV_OTHER;
	if (!strcmp(d->name, "sched_switch"))
		return EV_SWITCH;
	if (!strcmp(d->name, "sched_wakeup") || !strcmp(d->name, "sched_wakeup_new"))
		return EV_WAKEUP;
	if (!strcmp(d->name, "sched_process_exit"))
		return EV_EXIT;
	return EV_OTHER;
}

/* @d described into @x: its kind (EV_OTHER when a needed number is missing). */
static void describe(struct tc_dec *x, const struct tp_decoder *d)
{
	memset(x, 0, sizeof(*x));
	x->dec = d;
	x->kind = kind_of(d);
	for (int k = 0; x->kind != EV_OTHER && k < NR_FIELDS; k++)
		if (kind_fields[x->kind][k])
			x->f[k] = tp_decoder_field(d, kind_fields[x->kind][k]);
	if ((x->kind == EV_SWITCH && (!x->f[F_PREV_PID] || !x->f[F_NEXT_PID] ||
				      !x->f[F_PREV_STATE])) ||
	    (x->kind != EV_SWITCH && !x->f[F_PID]))
		x->kind = EV_OTHER;
}

static const struct tc_dec *decoder(struct engine_run *r, const struct tp_decoder *d)
{
	for (size_t i = 0; i < r->nr_decs; i++)
		if (r->decs[i].dec == d)
			return &r->decs[i];
	if (r->nr_decs < NR_DECODERS) {
		describe(&r->decs[r->nr_decs], d);
		return &r->decs[r->nr_decs++];
	}
	describe(&r->scratch, d);
	return &r->scratch;
}

/* Number field @f of @s (0 when absent or out of the record). */
static uint64_t num(const struct tp_field *f, const struct pd_sample *s)
{
	uint64_t v = 0;

	if (!f || tp_read_int(f, s->raw, s->raw_size, 0, &v))
		return 0;
	return v;
}

/* String field @f of @s: its bytes in *@len, or NULL. */
static const char *str(const struct tp_field *f, const struct pd_sample *s, size_t *len)
{
	const unsigned char *p;

	*len = 0;
	if (!f || tp_read_bytes(f, s->raw, s->raw_size, &p, len))
		return NULL;
	return (const char *)p;
}

int tc_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	const struct pd_sample *s = ev->sample;
	const struct tc_dec *x;
	const char *a, *b;
	size_t alen, blen;
	int rc = 0;

	if (!ev->evsel->dec || !s->raw || (x = decoder(r, ev->evsel->dec))->kind == EV_OTHER)
		return 0;
	switch (x->kind) {
	case EV_SWITCH:
		a = str(x->f[F_PREV_COMM], s, &alen);
		b = str(x->f[F_NEXT_COMM], s, &blen);
		rc = tc_switch(&r->model, s->time, s->cpu, (uint32_t)num(x->f[F_PREV_PID], s),
			       num(x->f[F_PREV_STATE], s), a, alen,
			       (uint32_t)num(x->f[F_NEXT_PID], s), b, blen);
		break;
	case EV_WAKEUP:
		a = str(x->f[F_COMM], s, &alen);
		rc = tc_wakeup(&r->model, s->time, s->cpu, (uint32_t)s->tid,
			       (uint32_t)num(x->f[F_PID], s),
			       x->f[F_TARGET_CPU] ? (int32_t)num(x->f[F_TARGET_CPU], s) : -1,
			       a, alen);
		break;
	default:
		rc = tc_exit(&r->model, s->time, (uint32_t)num(x->f[F_PID], s));
		break;
	}
	if (rc)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	return 0;
}

int tc_stop(struct engine_run *r, struct tb_err *err)
{
	const struct engine_picture *pic = r->pic;
	FILE *f;
	char *tmp = NULL;
	int rc = 0;

	if (*r->st->failed) {
		/* reading failed: nothing written */
	} else if (tc_finish(&r->model)) {
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	} else if ((f = pic_open(pic->output, &tmp, err))) {
		rc = tc_write_html(f, &r->model, pic);
		if (rc == TB_ERR_NOMEM)
			tb_err_set(err, rc, TB_NO_OFFSET, "out of memory");
		/* a write error: pic_close says which (ferror) */
		if (pic_close(f, pic->output, tmp, rc == TB_ERR_NOMEM, err))
			rc = TB_ERR_IO;
	} else {
		rc = err->code;
	}
	tc_model_free(&r->model);
	free(r);
	return rc;
}
