/* ec_sample.c - a sample as perf 6.1's script engines describe it beyond its
 * tracepoint fields (trace-event-python.c get_perf_sample_dict, the
 * callchain walk of machine.c, trace-event-perl.c's packed perf_sample). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "ec_sample.h"
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample_text.h"

uint16_t ec_cpumode(const struct pd_event *ev)
{
	if (!ev->rec || ev->rec_size < 8)
		return 0;
	return (uint16_t)(ev->rec[4] | ev->rec[5] << 8) & 7;
}

static void unknown_loc(struct sym_loc *out)
{
	memset(out, 0, sizeof(*out));
	out->dso = "[unknown]";
	out->dso_short = "[unknown]";
}

int ec_resolve(struct sym_machine *m, const struct pd_event *ev, uint16_t cpumode,
	       uint64_t addr, int fallback, struct sym_loc *out)
{
	int32_t pid = ev->sample->pid;
	uint16_t own;
	int r;

	if (!m) {
		unknown_loc(out);
		return 0;
	}
	r = sym_machine_resolve(m, pid, cpumode, addr, out);
	if (r || out->have_map || !fallback)
		return r;
	own = sym_addr_cpumode(addr);
	if (own == cpumode)
		return 0;
	return sym_machine_resolve(m, pid, own, addr, out);
}

#define EC_DWARF_STACK (PD_S_CALLCHAIN | PD_S_REGS_USER | PD_S_STACK_USER)
#define CONTEXT_HV     ((uint64_t)-32)
#define CONTEXT_KERNEL ((uint64_t)-128)
#define CONTEXT_USER   ((uint64_t)-512)
#define CONTEXT_MAX    ((uint64_t)-4095)

/* A marker perf does not know, met before @max entries, discards the
 * whole chain (perf resets its cursor): find out before walking it. */
static int chain_valid(const struct pd_sample *s, int max)
{
	int nr = 0;

	for (uint64_t i = 0; i < s->nr_callchain && nr < max; i++) {
		uint64_t v;

		memcpy(&v, s->callchain + i * 8, 8);
		if (v < CONTEXT_MAX)
			nr++;
		else if (v != CONTEXT_HV && v != CONTEXT_KERNEL && v != CONTEXT_USER)
			return 0;
	}
	return 1;
}

void ec_chain_begin(struct ec_chain *c, const struct pd_event *ev, int max_stack)
{
	const struct pd_sample *s = ev->sample;

	c->s = s->callchain && chain_valid(s, max_stack) ? s : NULL;
	c->i = 0;
	c->cpumode = EC_CPUMODE_USER;
	c->max_stack = max_stack;
	c->nr = 0;
	c->nr_inl = c->next_inl = 0;
	c->unwound = (ev->evsel->sample_type & EC_DWARF_STACK) == EC_DWARF_STACK;
}

int ec_chain_next(struct ec_chain *c, uint64_t *ip, uint16_t *cpumode)
{
	while (c->s && c->i < c->s->nr_callchain && c->nr < c->max_stack) {
		uint64_t v;

		memcpy(&v, c->s->callchain + c->i * 8, 8);
		c->i++;
		if (v < CONTEXT_MAX) {
			c->nr++;
			*ip = v;
			*cpumode = c->cpumode;
			return 1;
		}
		if (v == CONTEXT_HV)
			c->cpumode = EC_CPUMODE_HV;
		else if (v == CONTEXT_KERNEL)
			c->cpumode = EC_CPUMODE_KERNEL;
		else if (v == CONTEXT_USER)
			c->cpumode = EC_CPUMODE_USER;
		else
			break;    /* perf: a corrupted chain, discarded whole */
	}
	c->s = NULL;
	return 0;
}

int ec_chain_frame(struct ec_chain *c, struct sym_machine *m, const struct pd_event *ev,
		   uint64_t *ip, struct sym_loc *l)
{
	uint16_t mode;

	if (c->next_inl < c->nr_inl) {
		*ip = c->base_ip;
		*l = c->base;
		l->sym = c->inl[c->next_inl++].name;
		return 1;
	}
	c->nr_inl = c->next_inl = 0;
	if (!ec_chain_next(c, ip, &mode))
		return 0;
	if (ec_resolve(m, ev, mode, *ip, 0, l))
		return TB_ERR_NOMEM;
	if (m && l->sym && c->unwound && mode == EC_CPUMODE_USER)
		c->nr_inl = sym_machine_inlines(m, ev->sample->pid, mode, *ip, l, c->inl, 16);
	if (c->nr_inl) {
		c->base = *l;
		c->base_ip = *ip;
		l->sym = c->inl[0].name;
		c->next_inl = 1;
	}
	return 1;
}

int ec_max_stack(void)
{
	static int max;
	FILE *f;

	if (max)
		return max;
	max = 127;
	f = fopen("/proc/sys/kernel/perf_event_max_stack", "r");
	if (f) {
		if (fscanf(f, "%d", &max) != 1 || max <= 0)
			max = 127;
		fclose(f);
	}
	return max;
}

int ec_addr_correlates_sym(const struct pd_evsel *e)
{
	uint64_t period;

	if (!(e->sample_type & PD_S_ADDR))
		return 0;
	if (e->type == 1 /* SOFTWARE */ &&
	    (e->config == 2 || e->config == 5 || e->config == 6))   /* page faults */
		return 1;
	/* perf's is_bts_event: branch instructions sampled at every one */
	memcpy(&period, e->raw + 16, 8);
	return e->type == 0 /* HARDWARE */ && (e->config & 4) == 4 && period == 1;
}

void ec_branch(const struct pd_sample *s, uint64_t i, struct ec_branch *b)
{
	const unsigned char *p = s->branches + i * 24;
	uint64_t flags;

	memcpy(&b->from, p, 8);
	memcpy(&b->to, p + 8, 8);
	memcpy(&flags, p + 16, 8);
	b->mispred = flags & 1;
	b->predicted = (flags >> 1) & 1;
	b->in_tx = (flags >> 2) & 1;
	b->abort = (flags >> 3) & 1;
	b->cycles = (flags >> 4) & 0xffff;
}

void ec_symoff(const struct sym_loc *l, char *buf, size_t size)
{
	if (!l->sym || !l->sym[0])
		snprintf(buf, size, "[unknown]");
	else    /* perf prints the offset with %x */
		snprintf(buf, size, "%s+0x%x", l->sym, (unsigned)l->symoff);
}

void ec_regs(const struct pd_evsel *e, const struct pd_sample *s, int intr, char *buf,
	     size_t size)
{
	uint64_t mask = intr ? e->sattr.regs_intr : e->sattr.regs_user;
	const unsigned char *regs = intr ? s->intr_regs : s->user_regs;
	uint64_t abi = intr ? s->intr_regs_abi : s->user_regs_abi;
	size_t len = 0, cap = (size_t)__builtin_popcountll(mask) * 28;
	int i = 0;

	buf[0] = 0;
	if (!regs || !abi || !cap)
		return;
	if (cap > size)
		cap = size;
	for (int r = 0; r < 64; r++) {
		uint64_t v;
		int n;

		if (!(mask & (1ULL << r)))
			continue;
		memcpy(&v, regs + i++ * 8, 8);
		if (len + 1 >= cap)
			break;
		n = snprintf(buf + len, cap - len, "%5s:0x%llx ", pd_reg_name((unsigned)r), (unsigned long long)v);
		len += (size_t)n < cap - len ? (size_t)n : cap - len - 1;
	}
}

#define DATA_SRC_NONE 0x05080021ULL    /* OP, LVL, SNOOP, LOCK, TLB all N/A */

uint64_t ec_data_src(const struct pd_evsel *e, const struct pd_sample *s)
{
	return e->sample_type & PD_S_DATA_SRC ? s->data_src : DATA_SRC_NONE;
}

/* ---- perf's struct perf_sample, as trace-event-perl.c packs it ---- */

static void put64(unsigned char *o, size_t at, uint64_t v)
{
	memcpy(o + at, &v, 8);
}

static void put32(unsigned char *o, size_t at, uint32_t v)
{
	memcpy(o + at, &v, 4);
}

static void put16(unsigned char *o, size_t at, uint16_t v)
{
	memcpy(o + at, &v, 2);
}

static void putp(unsigned char *o, size_t at, const void *p)
{
	uint64_t v = (uint64_t)(uintptr_t)p;

	memcpy(o + at, &v, 8);
}

void ec_perf_sample(const struct pd_event *ev, unsigned char o[EC_PERF_SAMPLE_SIZE])
{
	const struct pd_sample *s = ev->sample;
	const struct pd_evsel *e = ev->evsel;
	uint64_t t = e->sample_type;
	uint16_t misc = ev->rec && ev->rec_size >= 8 ? (uint16_t)(ev->rec[4] | ev->rec[5] << 8) : 0;

	memset(o, 0, EC_PERF_SAMPLE_SIZE);
	put64(o, 0, s->ip);
	put32(o, 8, (uint32_t)s->pid);
	put32(o, 12, (uint32_t)s->tid);
	put64(o, 16, t & PD_S_TIME ? s->time : UINT64_MAX);
	put64(o, 24, s->addr);
	put64(o, 32, t & (PD_S_ID | PD_S_IDENTIFIER) ? s->id : UINT64_MAX);
	put64(o, 40, t & PD_S_STREAM_ID ? s->stream_id : UINT64_MAX);
	put64(o, 48, s->period);    /* the attr's sample_period without PERIOD */
	put64(o, 56, s->weight);
	put64(o, 64, s->transaction);
	/* 72 insn_cnt, 80 cyc_cnt: only hardware traces fill them */
	put32(o, 88, (uint32_t)s->cpu);
	put32(o, 92, s->raw_size);
	put64(o, 96, ec_data_src(e, s));
	put64(o, 104, s->phys_addr);
	put64(o, 112, s->data_page_size);
	put64(o, 120, s->code_page_size);
	put64(o, 128, s->cgroup);
	/* 136 flags, 140 machine_pid: 0 outside hardware traces and guests */
	put32(o, 144, UINT32_MAX);             /* vcpu */
	/* 148 insn_len */
	o[150] = (unsigned char)(misc & 7);    /* cpumode */
	put16(o, 152, misc);
	put16(o, 154, s->ins_lat);
	put16(o, 156, s->p_stage_cyc);
	o[158] = (t & PD_S_BRANCH_STACK) && !s->has_branch_hw_idx;   /* no_hw_idx */
	/* 159..174 insn */
	putp(o, 176, s->raw);
	putp(o, 184, s->callchain ? s->callchain - 8 : NULL);    /* perf's points at nr */
	putp(o, 192, s->branches ? s->branches - (s->has_branch_hw_idx ? 16 : 8) : NULL);
	/* user_regs at 200: abi, mask, regs, cache[64], cache_mask */
	put64(o, 200, s->user_regs_abi);
	put64(o, 208, s->user_regs_abi ? s->user_regs_mask : 0);
	putp(o, 216, s->user_regs_abi ? s->user_regs : NULL);
	/* intr_regs at 744 */
	put64(o, 744, s->intr_regs_abi);
	put64(o, 752, s->intr_regs_abi ? s->intr_regs_mask : 0);
	putp(o, 760, s->intr_regs_abi ? s->intr_regs : NULL);
	/* user_stack at 1288: u16 offset (of its size word in the record), u64 size, data */
	if (s->user_stack && ev->rec)
		put16(o, 1288, (uint16_t)(s->user_stack - 8 - ev->rec));
	put64(o, 1296, s->user_stack_dyn_size);
	putp(o, 1304, s->user_stack_dyn_size ? s->user_stack : NULL);
	/* read at 1312: time_enabled, time_running, then {nr, values} or
	 * {value, id, lost} */
	if (t & PD_S_READ) {
		put64(o, 1312, s->time_enabled);
		put64(o, 1320, s->time_running);
		if (s->read_values) {
			put64(o, 1328, s->read_nr);
			putp(o, 1336, s->read_values);
		} else {
			put64(o, 1328, s->read_value);
			put64(o, 1336, s->read_id);
			put64(o, 1344, s->read_lost);
		}
	}
	/* aux_sample at 1352: size, data */
	put64(o, 1352, s->aux_size);
	putp(o, 1360, s->aux_size ? s->aux : NULL);
}

/* ---- what perf_sample_dict says of a map ---- */

int ec_sym_binding(const struct sym_loc *l)
{
	return l->binding;
}

uint64_t ec_map_end(const struct sym_loc *l)
{
	return l->map_end;
}

void ec_build_id_hex(const struct sym_loc *l, char *buf, size_t size)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	/* by hand: a snprintf per byte was a tenth of a script's sample */
	for (size_t i = 0; i < l->build_id_len && n + 3 <= size; i++) {
		buf[n++] = hex[l->build_id[i] >> 4];
		buf[n++] = hex[l->build_id[i] & 15];
	}
	if (size)
		buf[n] = 0;
}
