/* pd_pipeline.h - the reading on a thread of its own, the delivery on the caller's (pd_pipeline.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_PIPELINE_H
#define PD_PIPELINE_H

#include "perfdata/pd_order.h"
#include "util/tb_err.h"

struct pd_session;
struct pd_pipeline;

/**
 * pd_pipeline_threads - how many threads a session reads with: @asked
 * (pd_session_set_threads) when > 0, else TRACEBOX_THREADS (1 or 2), else
 * 2 when this process may run on more than one CPU (sched_getaffinity).
 */
int pd_pipeline_threads(int asked);

/**
 * pd_pipeline_run - @read(@s) (pd_session_read_all) on a new thread, every
 * record it lets go through @fn(@s, ...) on this one, in the same order;
 * one thread when none can be started. Returns the first failure of @fn
 * (its message in the session's err), else @read's result with its
 * message in @err.
 */
int pd_pipeline_run(struct pd_session *s, int (*read)(struct pd_session *s), pd_deliver_fn fn,
		    struct tb_err *err);

/** pd_pipeline_flush - reader: what is queued goes to the consumer now */
int pd_pipeline_flush(struct pd_pipeline *pl);

/**
 * pd_pipeline_call - reader: run @fn(@ctx) on the consumer's thread once it
 * delivered all that was queued, and wait for it; its result, or the
 * consumer's failure. Its failure message goes where the reader's go.
 */
int pd_pipeline_call(struct pd_pipeline *pl, int (*fn)(void *ctx), void *ctx);

#endif
