/* pd_order.h - the time-ordering queue perf script applies to records. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_ORDER_H
#define PD_ORDER_H

#include <stddef.h>
#include <stdint.h>

/*
 * perf's ordered-events rules (perf-data-format.md section 7): records are
 * queued with their time; at each FINISHED_ROUND every record with time <=
 * L is delivered in (time, arrival) order, L being the largest time queued
 * when the previous round ended; at the end everything goes. When the
 * queue's memory passes its limit the older half is delivered early, as
 * perf does under memory pressure.
 *
 * Usage: pd_order_init; per record pd_order_push (copies the bytes); on a
 * round pd_order_round; at the end pd_order_flush_all; pd_order_free.
 * Delivery calls @deliver with an 8-byte aligned copy of the record.
 */
typedef int (*pd_deliver_fn)(void *ctx, const unsigned char *rec, size_t size,
			     uint64_t file_offset);

struct pd_qent;
struct pd_block;

struct pd_order {
	struct pd_qent *ents;
	size_t nr, cap;
	struct pd_block *cur;      /* block receiving new copies */
	struct pd_block *spare;    /* one emptied block kept for reuse */
	uint64_t seq;
	uint64_t max_time;         /* largest time queued */
	uint64_t round_limit;      /* L: deliver up to here at the next round */
	uint64_t last_delivered;   /* time of the last delivered record */
	uint64_t nr_unordered;     /* queued below last_delivered */
	size_t bytes, max_bytes;   /* memory held by queued copies, and its cap */
	pd_deliver_fn deliver;
	void *ctx;
};

int pd_order_init(struct pd_order *q, size_t max_bytes, pd_deliver_fn fn, void *ctx);
void pd_order_free(struct pd_order *q);
/** pd_order_push - queue a copy of @rec at @time; returns 0, a deliver error, or TB_ERR_NOMEM */
int pd_order_push(struct pd_order *q, const unsigned char *rec, size_t size,
		  uint64_t time, uint64_t file_offset);
/** pd_order_round - a FINISHED_ROUND was read */
int pd_order_round(struct pd_order *q);
/** pd_order_flush_all - deliver everything queued */
int pd_order_flush_all(struct pd_order *q);

#endif
