/* report_srccode.c - -F srccode: "|LINE     TEXT" under a sample whose source line is not the one its thread showed last, as perf 6.1's map__fprintf_srccode. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_session.h"
#include "report/report_out.h"
#include "report/report_state.h"
#include "report/report_srccode.h"
#include "symbols/symbols.h"

static size_t slot_of(int32_t tid, size_t cap)
{
	return (size_t)(((uint32_t)tid * 0x9e3779b1u) >> 8) & (cap - 1);
}

/* the state of @tid, made when new; NULL on ENOMEM */
static struct rp_srcstate *state_of(struct report_print *p, int32_t tid)
{
	size_t j;

	if ((p->nr_src + 1) * 2 > p->src_cap) {
		size_t cap = p->src_cap ? 2 * p->src_cap : 64;
		struct rp_srcstate *t = calloc(cap, sizeof(*t));

		if (!t)
			return NULL;
		for (size_t i = 0; i < p->src_cap; i++) {
			if (!p->src[i].used)
				continue;
			for (j = slot_of(p->src[i].tid, cap); t[j].used; j = (j + 1) & (cap - 1))
				;
			t[j] = p->src[i];
		}
		free(p->src);
		p->src = t;
		p->src_cap = cap;
	}
	for (j = slot_of(tid, p->src_cap); p->src[j].used; j = (j + 1) & (p->src_cap - 1))
		if (p->src[j].tid == tid)
			return &p->src[j];
	p->src[j].used = 1;
	p->src[j].tid = tid;
	p->nr_src++;
	return &p->src[j];
}

void rp_srccode(struct report_print *p, const struct pd_event *ev)
{
	struct sym_machine *m = pd_session_symbols(p->session);
	const struct pd_sample *smp = ev->sample;
	struct rp_srcstate *st;
	const char *file, *text;
	unsigned line = 0;
	size_t len;
	char num[16];

	if (!m || !(file = sym_machine_srcfile(m, smp->pid, ev->misc & 7, smp->ip, &line)) ||
	    !(st = state_of(p, smp->tid)))
		return;
	/* the line the thread showed last is not shown again */
	if (st->file && st->line == line && !strcmp(st->file, file))
		return;
	if (!(text = sym_machine_source_line(m, file, line, &len)))
		return;
	free(st->file);
	st->file = strdup(file);
	st->line = line;
	snprintf(num, sizeof(num), "|%-8u ", line);
	ro_str(p, num);
	ro_mem(p, text, len);
	ro_ch(p, '\n');
}

void rp_srccode_free(struct report_print *p)
{
	for (size_t i = 0; i < p->src_cap; i++)
		free(p->src[i].file);
	free(p->src);
	p->src = NULL;
	p->src_cap = p->nr_src = 0;
}
