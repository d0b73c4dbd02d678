/* report_head.c - the start of a sample's line as perf script 6.1 prints it
 * (builtin-script.c perf_sample__fprintf_start) and its event name column,
 * the pieces that repeat kept: per thread, per event, per second. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_session.h"
#include "report/report_head.h"
#include "report/report_out.h"
#include "report/report_time.h"
#include "util/digit_pairs.h"

/*
 * A storm prints the same comm and pid, the same event names and the same
 * second line after line. Each piece, once printed, is kept with what it
 * was made of, and copied as one block while that holds; the strings it
 * was made of are compared by address, ev->names_gen telling when an
 * address may since have been given to another string.
 */
#define RP_WHO      256       /* threads kept, by tid */
#define RP_WHO_TEXT 48
#define RP_NAMES    16        /* events kept, by address */
#define RP_NAME_TEXT 64

struct rp_who {
	uint64_t gen, f;
	const char *comm;
	int32_t pid, tid;
	int bare;                 /* the comm unpadded (a stack follows) */
	unsigned len;             /* 0: nothing kept */
	char text[RP_WHO_TEXT];
};

struct rp_name {
	uint64_t gen;
	const void *evsel;
	unsigned len;             /* 0: nothing kept */
	char text[RP_NAME_TEXT];
};

/* a kept piece of @len bytes out, copied as one block of @block (its
 * slot's size: a copy of constant size, no call) */
static inline void kept_out(struct report_print *p, const char *text, size_t len, size_t block)
{
	ro_room(p, block);
	memcpy(p->pos, text, block);
	p->pos += len;
}

/* comm and pid/tid, as perf prints them */
static void print_who(struct report_print *p, const struct pd_event *ev, uint64_t f, int bare)
{
	const struct pd_sample *smp = ev->sample;

	if (f & RF_COMM) {
		if (p->latency) {        /* "%8.8s " */
			char c8[9];

			snprintf(c8, sizeof(c8), "%s", ev->comm);
			ro_right(p, c8, 8);
		} else if (bare) {
			ro_str(p, ev->comm);
		} else {
			ro_right(p, ev->comm, 16);
		}
		ro_ch(p, ' ');
	}
	if ((f & RF_PID) && (f & RF_TID)) {
		ro_printf(p, "%5d/%-5d ", smp->pid, smp->tid);
	} else if (f & (RF_PID | RF_TID)) {
		ro_snum(p, f & RF_PID ? smp->pid : smp->tid, 5, ' ');
		ro_ch(p, ' ');
	}
}

/* print_who, kept per thread */
static void who_out(struct report_print *p, const struct pd_event *ev, uint64_t f)
{
	const struct pd_sample *smp = ev->sample;
	int bare = (f & RF_IP) && (ev->evsel->sample_type & PD_S_CALLCHAIN) && p->rf.use_callchain;
	struct rp_who *w;
	unsigned long flushes;
	char *start;

	f &= RF_COMM | RF_PID | RF_TID;
	/* no memory for the table: printed, not kept */
	w = p->who || (p->who = calloc(RP_WHO, sizeof(*p->who))) ?
	    &p->who[(uint32_t)smp->tid % RP_WHO] : NULL;
	if (w && w->len && w->tid == smp->tid && w->pid == smp->pid && w->comm == ev->comm &&
	    w->gen == ev->names_gen && w->f == f && w->bare == bare) {
		kept_out(p, w->text, w->len, RP_WHO_TEXT);
		return;
	}
	start = ro_keep_begin(p, &flushes);
	print_who(p, ev, f, bare);
	if (!w || !(w->len = (unsigned)ro_keep_end(p, start, flushes, w->text, RP_WHO_TEXT)))
		return;                  /* a long comm: not kept */
	w->tid = smp->tid;
	w->pid = smp->pid;
	w->comm = ev->comm;
	w->gen = ev->names_gen;
	w->f = f;
	w->bare = bare;
}

/* "%12s" of "secs.usecs", or "%5lu.%09lu" (--ns): the seconds and the
 * point kept while the second lasts */
static void time_out(struct report_print *p, uint64_t t)
{
	const char *pairs = tb_dec_pairs;
	uint64_t secs = t / 1000000000ULL, ns = t % 1000000000ULL;
	char *o;

	if (!p->time_len || secs != p->time_secs) {
		char digits[24];
		int n = snprintf(digits, sizeof(digits), "%" PRIu64, secs);
		/* the seconds' column: 5 wide (--ns), else the whole 12 wide */
		int pad = p->nsecs ? (n < 5 ? 5 - n : 0) : (n + 7 < 12 ? 12 - n - 7 : 0);

		memset(p->time_text, ' ', (size_t)pad);
		memcpy(p->time_text + pad, digits, (size_t)n);
		p->time_text[pad + n] = '.';
		p->time_len = (unsigned)(pad + n + 1);
		p->time_secs = secs;
	}
	ro_room(p, sizeof(p->time_text) + 16);
	o = p->pos;
	memcpy(o, p->time_text, sizeof(p->time_text));     /* one block, no call */
	o += p->time_len;
	if (p->nsecs) {
		*o++ = (char)('0' + ns / 100000000);
		ns %= 100000000;
		memcpy(o, pairs + 2 * (ns / 1000000), 2);
		ns %= 1000000;
		o += 2;
	} else {
		ns /= 1000;
	}
	memcpy(o, pairs + 2 * (ns / 10000), 2);
	memcpy(o + 2, pairs + 2 * (ns / 100 % 100), 2);
	memcpy(o + 4, pairs + 2 * (ns % 100), 2);
	memcpy(o + 6, ": ", 2);
	p->pos = o + 8;
}

void rp_head(struct report_print *p, const struct pd_event *ev, uint64_t f)
{
	const struct pd_sample *smp = ev->sample;

	if (f & (RF_COMM | RF_PID | RF_TID))
		who_out(p, ev, f);
	if ((f & RF_CPU) && p->latency) {
		ro_printf(p, "%3d ", (int)smp->cpu);
	} else if ((f & RF_CPU) && (uint32_t)smp->cpu < 1000) {
		uint32_t hi = (uint32_t)smp->cpu / 100, lo = (uint32_t)smp->cpu % 100;

		ro_room(p, 8);
		memcpy(p->pos, "[000] ", 6);
		p->pos[1] = (char)('0' + hi);
		memcpy(p->pos + 2, tb_dec_pairs + 2 * lo, 2);
		p->pos += 6;
	} else if (f & RF_CPU) {
		ro_ch(p, '[');
		ro_snum(p, smp->cpu, 3, '0');
		ro_mem(p, "] ", 2);
	}
	if (f & RF_MISC) {
		char l[8];
		size_t n = rf_misc_letters(ev->misc, PD_REC_SAMPLE, l);

		ro_mem(p, l, n);
		ro_pad(p, n < 6 ? 6 - n : 1);
	}
	if (f & RF_TOD) {
		char tod[80];

		report_tod(tod, sizeof(tod), pd_session_info(p->session), smp->time, p->nsecs);
		ro_str(p, tod);
		ro_ch(p, ' ');
	}
	if (f & RF_TIME) {
		uint64_t t = smp->time;

		if (p->reltime) {
			if (!p->initial_time)
				p->initial_time = smp->time;
			t = smp->time - p->initial_time;
		} else if (p->deltatime) {
			t = p->previous_time ? smp->time - p->previous_time : 0;
			p->previous_time = smp->time;
		}
		time_out(p, t);
	}
}

void rp_name(struct report_print *p, const struct pd_event *ev)
{
	const void *e = ev->evsel;
	struct rp_name *k;
	unsigned long flushes;
	char *start;

	/* no memory for the table: printed, not kept */
	k = p->names || (p->names = calloc(RP_NAMES, sizeof(*p->names))) ?
	    &p->names[((uintptr_t)e * 0x9e3779b97f4a7c15ull) >> 60] : NULL;   /* RP_NAMES */
	if (k && k->len && k->evsel == e && k->gen == ev->names_gen) {
		kept_out(p, k->text, k->len, RP_NAME_TEXT);
		return;
	}
	start = ro_keep_begin(p, &flushes);
	ro_right(p, ev->evsel->name, (size_t)p->name_width);
	ro_mem(p, ": ", 2);
	if (!k || !(k->len = (unsigned)ro_keep_end(p, start, flushes, k->text, RP_NAME_TEXT)))
		return;
	k->evsel = e;
	k->gen = ev->names_gen;
}

void rp_head_free(struct report_print *p)
{
	free(p->who);
	free(p->names);
	p->who = NULL;
	p->names = NULL;
	p->time_len = 0;
}
