/* pd_stat.c - `perf stat record` data kept and processed as perf 6.1's
 * perf script does (process_*_event in builtin-script.c, util/stat.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_evsel.h"
#include "perfdata/pd_format.h"
#include "perfdata/pd_stat.h"

static uint16_t u16_at(const unsigned char *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

static uint32_t u32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static uint64_t u64_at(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static int bad(struct tb_err *err, uint64_t off, const char *what)
{
	return tb_err_set(err, TB_ERR_FORMAT, off, "%s", what);
}

void pd_stat_free(struct pd_stat *st)
{
	for (size_t i = 0; i < st->nr; i++) {
		free(st->c[i].counts);
		free(st->c[i].prev);
	}
	free(st->c);
	free(st->cpus);
	free(st->threads);
	memset(st, 0, sizeof(*st));
}

/* Counters for attrs 0..@nr-1, once both maps are known. */
static int grow(struct pd_stat *st, size_t nr)
{
	size_t cells = st->nr_cpus * st->nr_threads;
	struct pd_stat_counter *c;

	if (!st->cpus || !st->threads || nr <= st->nr)
		return 0;
	c = realloc(st->c, nr * sizeof(*c));
	if (!c)
		return TB_ERR_NOMEM;
	st->c = c;
	for (; st->nr < nr; st->nr++) {
		memset(&c[st->nr], 0, sizeof(*c));
		c[st->nr].counts = calloc(cells ? cells : 1, sizeof(struct pd_stat_counts));
		c[st->nr].prev = calloc(cells ? cells : 1, sizeof(struct pd_stat_counts));
		if (!c[st->nr].counts || !c[st->nr].prev) {
			free(c[st->nr].counts);
			free(c[st->nr].prev);
			return TB_ERR_NOMEM;
		}
	}
	return 0;
}

int pd_stat_config(struct pd_stat *st, const unsigned char *rec, size_t size, uint64_t off,
		   struct tb_err *err)
{
	uint64_t nr;

	if (size < 16 || (nr = u64_at(rec + 8)) > (size - 16) / 16)
		return bad(err, off, "STAT_CONFIG count does not fit its record");
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t tag = u64_at(rec + 16 + i * 16), val = u64_at(rec + 24 + i * 16);

		if (tag == 0)
			st->aggr_mode = val;
		else if (tag == 1)
			st->interval = val;
		else if (tag == 2)
			st->scale = val != 0;
	}
	return 0;
}

int pd_stat_thread_map(struct pd_stat *st, const unsigned char *rec, size_t size, uint64_t off,
		       size_t nr_evsels, struct tb_err *err)
{
	uint64_t nr;

	if (size < 16 || (nr = u64_at(rec + 8)) > (size - 16) / 24)
		return bad(err, off, "THREAD_MAP count does not fit its record");
	if (st->threads)
		return 0;          /* perf: "Extra thread map event, ignoring." */
	st->threads = malloc((nr ? nr : 1) * sizeof(*st->threads));
	if (!st->threads)
		return TB_ERR_NOMEM;
	for (uint64_t i = 0; i < nr; i++)
		st->threads[i] = (int32_t)u64_at(rec + 16 + i * 24);
	st->nr_threads = nr;
	return grow(st, nr_evsels);
}

/* The CPUs of a CPU_MAP's data at @d (@len bytes), as perf's
 * cpu_map__new_data reads its three encodings. */
static int cpu_list(struct pd_stat *st, const unsigned char *d, size_t len, uint64_t off,
		    struct tb_err *err)
{
	uint16_t type, nr, lsize;
	size_t n = 0, cap;

	if (len < 4)
		return bad(err, off, "CPU_MAP record too short");
	type = u16_at(d);
	nr = u16_at(d + 2);
	if (type == 0) {                          /* a list of u16, 0xffff = -1 */
		if ((size_t)nr * 2 > len - 4)
			return bad(err, off, "CPU_MAP list does not fit its record");
		if (!(st->cpus = malloc((nr ? nr : 1) * sizeof(*st->cpus))))
			return TB_ERR_NOMEM;
		for (uint16_t i = 0; i < nr; i++) {
			uint16_t c = u16_at(d + 4 + i * 2);

			st->cpus[n++] = c == 0xffff ? -1 : c;
		}
	} else if (type == 1) {                   /* a bitmap of 4- or 8-byte words */
		size_t at;

		if (len < 6)
			return bad(err, off, "CPU_MAP record too short");
		lsize = u16_at(d + 4);
		at = lsize == 8 ? 10 : 6;
		if ((lsize != 4 && lsize != 8) || (size_t)nr * lsize > len - at)
			return bad(err, off, "CPU_MAP mask does not fit its record");
		cap = (size_t)nr * lsize * 8;
		if (!(st->cpus = malloc((cap ? cap : 1) * sizeof(*st->cpus))))
			return TB_ERR_NOMEM;
		for (size_t i = 0; i < nr; i++) {
			uint64_t m = lsize == 8 ? u64_at(d + at + i * 8) : u32_at(d + at + i * 4);

			for (int b = 0; b < 64; b++)
				if (m & (1ULL << b))
					st->cpus[n++] = (int32_t)(i * lsize * 8 + (size_t)b);
		}
	} else if (type == 2) {                   /* any_cpu, start..end */
		uint16_t start, end;

		if (len < 8)
			return bad(err, off, "CPU_MAP record too short");
		start = u16_at(d + 4);
		end = u16_at(d + 6);
		if (end < start)
			return bad(err, off, "CPU_MAP range ends before it starts");
		if (!(st->cpus = malloc(((size_t)(end - start) + 2) * sizeof(*st->cpus))))
			return TB_ERR_NOMEM;
		if (d[2])
			st->cpus[n++] = -1;
		for (uint32_t c = start; c <= end; c++)
			st->cpus[n++] = (int32_t)c;
	} else {
		return bad(err, off, "CPU_MAP of an unknown type");
	}
	st->nr_cpus = n;
	return 0;
}

int pd_stat_cpu_map(struct pd_stat *st, const unsigned char *rec, size_t size, uint64_t off,
		    size_t nr_evsels, struct tb_err *err)
{
	int r;

	if (size < 10)
		return bad(err, off, "CPU_MAP record too short");
	if (st->cpus)
		return 0;          /* perf: "Extra cpu map event, ignoring." */
	if ((r = cpu_list(st, rec + 8, size - 8, off, err)))
		return r;
	return grow(st, nr_evsels);
}

int pd_stat_reading(struct pd_stat *st, size_t idx, const unsigned char *rec, size_t size,
		    uint64_t off, struct tb_err *err)
{
	struct pd_stat_counts *c;
	uint32_t cpu, thread;
	size_t ci;
	int r;

	if (size < 48)
		return bad(err, off, "STAT record too short");
	if ((r = grow(st, idx + 1)))
		return r;
	if (idx >= st->nr)
		return bad(err, off, "STAT record before the THREAD_MAP and CPU_MAP records");
	cpu = u32_at(rec + 16);
	thread = u32_at(rec + 20);
	for (ci = 0; ci < st->nr_cpus; ci++)
		if (st->cpus[ci] == (int32_t)cpu)
			break;
	if (ci == st->nr_cpus)
		return bad(err, off, "STAT record of a CPU that is not in the CPU map");
	if (thread >= st->nr_threads)
		return bad(err, off, "STAT record of a thread past the thread map");
	c = &st->c[idx].counts[ci * st->nr_threads + thread];
	c->val = u64_at(rec + 24);
	c->ena = u64_at(rec + 32);
	c->run = u64_at(rec + 40);
	return 0;
}

/* perf's evsel__compute_deltas: @v becomes the change since @prev, which
 * keeps the raw reading. */
static void deltas(struct pd_stat_counts *v, struct pd_stat_counts *prev)
{
	struct pd_stat_counts old = *prev;

	*prev = *v;
	v->val -= old.val;
	v->ena -= old.ena;
	v->run -= old.run;
}

/* perf_counts_values__scale */
static void scale(struct pd_stat_counts *v, int on)
{
	if (!on)
		return;
	if (v->run == 0)
		v->val = 0;
	else if (v->run < v->ena)
		v->val = (uint64_t)((double)v->val * v->ena / v->run);
}

/* perf_stat_process_counter: per reading, or their sum (AGGR_GLOBAL). */
static void process(struct pd_stat *st, struct pd_stat_counter *c)
{
	int global = st->aggr_mode == PD_AGGR_GLOBAL;
	int per_cpu = !global && st->aggr_mode != 6 && st->aggr_mode < 8;  /* not UNSET, MAX */

	memset(&c->aggr, 0, sizeof(c->aggr));
	for (size_t t = 0; t < st->nr_threads; t++)
		for (size_t i = 0; i < st->nr_cpus; i++) {
			struct pd_stat_counts *v = &c->counts[i * st->nr_threads + t];

			if (per_cpu) {
				deltas(v, &c->prev[i * st->nr_threads + t]);
				scale(v, st->scale);
			} else if (global) {
				c->aggr.val += v->val;
				c->aggr.ena += v->ena;
				c->aggr.run += v->run;
			}
		}
	if (!global)
		return;
	deltas(&c->aggr, &c->prev_aggr);
	scale(&c->aggr, st->scale);
}

int pd_stat_round(struct pd_stat *st, const unsigned char *rec, size_t size, uint64_t off,
		  const struct pd_evsel *evsels, size_t nr_evsels,
		  int (*fn)(void *ctx, const struct pd_stat_round *r), void *ctx,
		  struct tb_err *err)
{
	struct pd_stat_round r = { 0 };
	int ret;

	if (size < 24)
		return bad(err, off, "STAT_ROUND record too short");
	r.type = u64_at(rec + 8);
	r.time = u64_at(rec + 16);
	r.st = st;
	if ((ret = grow(st, nr_evsels)))
		return ret;
	for (size_t i = 0; i < st->nr && i < nr_evsels; i++) {
		st->c[i].evsel = &evsels[i];
		process(st, &st->c[i]);
		r.counter = &st->c[i];
		if (fn && (ret = fn(ctx, &r)))
			return ret;
	}
	r.counter = NULL;
	return fn ? fn(ctx, &r) : 0;
}
