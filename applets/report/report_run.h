/* report_run.h - one driver for every engine run of trace-report (scripts
 * and exports): start, every event in order, stop; SIGINT stops the reading. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_RUN_H
#define REPORT_RUN_H

#include "engine.h"

struct report_filter;

struct report_run {
	/* set by the caller */
	const struct engine_ops *ops;
	struct engine_start *st;       /* log, exit_status and failed are set here */
	struct report_filter *filter;  /* only the samples it passes; NULL: all */
	int stat_rounds;               /* perf stat data to the engine, or perf's table */
	int interrupt_is_error;        /* SIGINT fails the run ("interrupted"), else
					* the run ends cleanly (trace_end runs) */
	/* called once the reading ends, before the engine's stop (perf warns
	 * about lost events there, before trace_end prints); NULL: none */
	void (*after_reading)(struct pd_session *s);
	/* the outcome */
	int r;                         /* the start's or the reading's error, 0 */
	struct tb_err err;
	int stop_r;                    /* the stop's error, 0 */
	struct tb_err stop_err;
	int engine_failed;             /* r came from the engine, not the reader */
	int exit_status;               /* >= 0: the script ended the run itself */
	int failed;                    /* what engine_start.failed points at */
};

/**
 * report_run - run @x->ops over @s: start, every event (through @x->filter),
 * stop (also after a failed start, unless it left no run). SIGINT during
 * the reading stops it as @x->interrupt_is_error says. Prints nothing but
 * what the engine logs; returns non-zero when @x->r or @x->stop_r is.
 */
int report_run(struct report_run *x, struct pd_session *s);

#endif
