/* report_run.c - one driver for every engine run of trace-report (scripts
 * and exports): start, every event in order, stop; SIGINT stops the reading. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include "perfdata/pd_session.h"
#include "report/report_filter.h"
#include "report/report_run.h"
#include "report/report_stat.h"
#include "symbols/symbols.h"
#include "xfuncs.h"

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	(void)sig;
	interrupted = 1;
}

struct driver {
	struct report_run *x;
	struct engine_run *run;
};

static int on_event(void *ctx, const struct pd_event *ev)
{
	struct driver *d = ctx;
	int r;

	if (interrupted)
		return TB_ERR_STOP;
	r = d->x->ops->event(d->run, ev, &d->x->err);
	d->x->engine_failed = r != 0;
	return r;
}

/* pd_consumer.wants: the engine's answer */
static int on_wants(void *ctx, const struct pd_evsel *e)
{
	struct driver *d = ctx;

	return d->x->ops->wants(d->run, e);
}

/* perf stat record data: the engine's stat callbacks, else perf's table */
static int on_stat(void *ctx, const struct pd_stat_round *r)
{
	struct driver *d = ctx;

	if (interrupted)
		return TB_ERR_STOP;
	if (d->x->ops->stat)
		return d->x->ops->stat(d->run, r, &d->x->err);
	/* no fflush: perf's table sits in stdio's buffer behind the script's
	 * own output, and so does ours */
	return report_stat_table(NULL, r);
}

int report_run(struct report_run *x, struct pd_session *s)
{
	struct driver d = { x, NULL };
	struct pd_consumer c = { 0 }, head;
	struct sigaction sa, old;

	x->exit_status = -1;
	x->st->log = engine_log;     /* script output first, then the text */
	x->st->exit_status = &x->exit_status;
	x->st->failed = &x->failed;
	/* the symbols read while the interpreter starts */
	sym_machine_read_ahead(pd_session_symbols(s));
	x->r = x->ops->start(&d.run, x->st, &x->err);
	x->engine_failed = x->r != 0;
	if (!x->r) {
		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = on_sigint;
		interrupted = 0;
		sigaction(SIGINT, &sa, &old);
		c.ctx = &d;
		c.sample = on_event;
		if (x->ops->wants)
			c.wants = on_wants;
		if (x->stat_rounds)
			c.stat_round = on_stat;
		if (x->filter)
			report_filter_wrap(x->filter, &c, &head);
		else
			head = c;
		x->r = pd_session_process(s, &head, &x->err);
		/* a child the script forked, back from its handler: it says
		 * so and ends; what stdio and the script hold is the parent's
		 * output, not to be written twice; trace_end is the parent's */
		if (x->r == TB_ERR_FORKED)
			exit_copy_msg(x->err.msg);
		sigaction(SIGINT, &old, NULL);
		if (x->r == TB_ERR_STOP && interrupted && !x->err.code) {
			if (x->interrupt_is_error)
				tb_err_set(&x->err, x->r, TB_NO_OFFSET, "interrupted");
			else
				x->r = 0;     /* stop reading, still run the end handlers */
		}
	}
	if (x->after_reading && !x->engine_failed)
		x->after_reading(s);
	/* a damaged recording keeps its intact events, marked incomplete */
	x->failed = x->r != 0;
	x->stop_r = x->ops->stop && d.run ? x->ops->stop(d.run, &x->stop_err) : 0;
	return x->r || x->stop_r;
}
