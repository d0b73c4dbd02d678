/* pd_stat.h - `perf stat record` data: the STAT_CONFIG, THREAD_MAP, CPU_MAP,
 * STAT and STAT_ROUND records, kept and processed as perf 6.1's perf script
 * keeps them (builtin-script.c, util/stat.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_STAT_H
#define PD_STAT_H

#include <stddef.h>
#include <stdint.h>
#include "util/tb_err.h"

struct pd_evsel;

/* perf's enum aggr_mode */
enum { PD_AGGR_NONE = 0, PD_AGGR_GLOBAL = 1, PD_AGGR_THREAD = 5 };

/* One counter reading (perf's struct perf_counts_values). */
struct pd_stat_counts {
	uint64_t val, ena, run;
};

/* One attr's readings: per CPU of the CPU map and thread of the thread map. */
struct pd_stat_counter {
	const struct pd_evsel *evsel;
	struct pd_stat_counts *counts;  /* [cpu index * nr_threads + thread] */
	struct pd_stat_counts *prev;    /* the raw readings of the round before */
	struct pd_stat_counts aggr, prev_aggr;
};

struct pd_stat {
	uint64_t aggr_mode;             /* STAT_CONFIG (perf script's default: NONE) */
	int scale;
	uint64_t interval;
	int32_t *cpus;                  /* CPU_MAP: -1 is "any CPU" */
	size_t nr_cpus;
	int32_t *threads;               /* THREAD_MAP: the pids */
	size_t nr_threads;
	struct pd_stat_counter *c;      /* per attr, once both maps arrived */
	size_t nr;
};

/* What a consumer gets for every attr at every STAT_ROUND, then once more
 * with counter NULL: the round's end (perf's stat__interval). */
struct pd_stat_round {
	uint64_t time;                  /* the round's time stamp */
	uint64_t type;                  /* 0 interval, 1 final */
	const struct pd_stat *st;
	const struct pd_stat_counter *counter;
};

/** pd_stat_counts_at - the reading of @c for CPU index @cpu, thread index @thread */
static inline const struct pd_stat_counts *pd_stat_counts_at(const struct pd_stat *st,
							      const struct pd_stat_counter *c,
							      size_t cpu, size_t thread)
{
	return &c->counts[cpu * st->nr_threads + thread];
}

void pd_stat_free(struct pd_stat *st);

/**
 * pd_stat_config, pd_stat_thread_map, pd_stat_cpu_map - the side-band
 * records, @rec the whole record of @size bytes at @off. The maps come
 * once (a second one is ignored, as perf does); with both, counters are
 * made for the @nr_evsels attrs of the recording (attrs added later get
 * theirs when a record first names them).
 * Returns 0, TB_ERR_NOMEM, or TB_ERR_FORMAT with @err naming the offset.
 */
int pd_stat_config(struct pd_stat *st, const unsigned char *rec, size_t size, uint64_t off,
		   struct tb_err *err);
int pd_stat_thread_map(struct pd_stat *st, const unsigned char *rec, size_t size, uint64_t off,
		       size_t nr_evsels, struct tb_err *err);
int pd_stat_cpu_map(struct pd_stat *st, const unsigned char *rec, size_t size, uint64_t off,
		    size_t nr_evsels, struct tb_err *err);

/**
 * pd_stat_reading - a STAT record: the reading of attr number @idx (found
 * by the record's id) for its CPU and thread. Returns 0 or TB_ERR_FORMAT (no
 * counters yet, a CPU not in the map, a thread past it).
 */
int pd_stat_reading(struct pd_stat *st, size_t idx, const unsigned char *rec, size_t size,
		    uint64_t off, struct tb_err *err);

/**
 * pd_stat_round - a STAT_ROUND record: every counter processed as perf's
 * perf_stat_process_counter does (deltas against the round before,
 * scaling, the sum when aggregated globally), each handed to @fn, then
 * @fn once with counter NULL. Stops at and returns @fn's non-zero result.
 */
int pd_stat_round(struct pd_stat *st, const unsigned char *rec, size_t size, uint64_t off,
		  const struct pd_evsel *evsels, size_t nr_evsels,
		  int (*fn)(void *ctx, const struct pd_stat_round *r), void *ctx,
		  struct tb_err *err);

#endif
