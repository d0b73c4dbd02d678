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
 * when the previous round ended; at the end everything goes.
 *
 * Memory stays bounded without giving up the order: when the copies held
 * pass @max_bytes, they are sorted and written as one run to an unlinked
 * temporary file (TMPDIR, else /tmp); a flush merges the runs with what is
 * in memory, so the order is exactly the one an unbounded queue gives.
 * Beyond the cap the queue holds one read buffer per run, and merges its
 * runs into one when they become too many. If no temporary file can be
 * written, the queue keeps its copies in memory past the cap (exact order
 * first) and counts the failure in spill_failed.
 *
 * Usage: pd_order_init; per record pd_order_push (copies the bytes); on a
 * round pd_order_round; at the end pd_order_flush_all; pd_order_free.
 * Delivery calls @deliver with an 8-byte aligned copy of the record and
 * the @hint it was queued with (32 bits of the caller's own, carried
 * along); once it has returned an error (kept in @failed), nothing more
 * is delivered.
 */
typedef int (*pd_deliver_fn)(void *ctx, const unsigned char *rec, size_t size,
			     uint64_t file_offset, uint32_t hint);

struct pd_qent;
struct pd_block;
struct pd_run;

/* The default cap: TRACEBOX_ORDER_CAP (bytes, or with a K, M or G suffix; 0
 * for none) when set, else PD_ORDER_CAP, a build knob (-DPD_ORDER_CAP=...). */
#ifndef PD_ORDER_CAP
#define PD_ORDER_CAP (512ull << 20)
#endif

/* the size of the blocks records are copied into (pd_order.c says why) */
#define PD_ORDER_BLOCK (256u << 10)

struct pd_order {
	struct pd_qent *ents;
	size_t nr, cap;
	struct pd_block *cur;      /* block receiving new copies */
	struct pd_block *spare;    /* emptied blocks kept for reuse (a list) */
	size_t nr_spare;
	uint64_t seq;
	uint64_t max_time;         /* largest time queued */
	uint64_t round_limit;      /* L: deliver up to here at the next round */
	uint64_t last_delivered;   /* time of the last delivered record */
	uint64_t nr_unordered;     /* queued below last_delivered */
	size_t bytes, max_bytes;   /* memory held by queued copies, and its cap */
	pd_deliver_fn deliver;
	void *ctx;
	int failed;                /* the error a delivery returned, or 0 */
	/* spilled runs, when the cap was reached */
	int spill_fd;              /* -1 until the first spill */
	uint64_t spill_end;        /* bytes written to the spill file */
	struct pd_run *runs;
	size_t nr_runs;
	uint64_t nr_spilled;       /* records in the runs, not yet delivered */
	uint64_t nr_spills;        /* runs written, merges included */
	int spill_failed;          /* no temporary file: copies stay in memory */
};

/** pd_order_default_cap - the memory cap TRACEBOX_ORDER_CAP or the build asks for */
size_t pd_order_default_cap(void);
/** pd_order_init - an empty queue holding at most @max_bytes in memory (0: no cap) */
int pd_order_init(struct pd_order *q, size_t max_bytes, pd_deliver_fn fn, void *ctx);
void pd_order_free(struct pd_order *q);
/** pd_order_push - queue a copy of @rec at @time; returns 0, a deliver error, or TB_ERR_NOMEM */
int pd_order_push(struct pd_order *q, const unsigned char *rec, size_t size,
		  uint64_t time, uint64_t file_offset, uint32_t hint);
/** pd_order_round - a FINISHED_ROUND was read */
int pd_order_round(struct pd_order *q);
/** pd_order_flush_all - deliver everything queued */
int pd_order_flush_all(struct pd_order *q);

#endif
