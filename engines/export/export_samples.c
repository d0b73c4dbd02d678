/* export_samples.c - the samples table: one row per sample of an event that
 * is no tracepoint (cpu-clock, page-faults, cycles...), with its symbols and
 * callchain resolved as perf script resolves them (docs/export.md). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "ec_sample.h"
#include "export/export_core.h"

const char *const ex_sample_names[EX_NR_SAMPLE] = {
	"common_recording", "common_time", "common_cpu", "common_pid", "common_tid",
	"common_comm", "event", "period", "ip", "symbol", "symoff", "dso", "addr",
	"callchain", "callchain_symbols", "callchain_dsos",
};
const struct ex_type ex_sample_types[EX_NR_SAMPLE] = {
	{ EX_UINT, 64, 0 }, { EX_UINT, 64, 0 }, { EX_INT, 32, 0 }, { EX_INT, 32, 0 },
	{ EX_INT, 32, 0 }, { EX_STR, 0, 0 }, { EX_STR, 0, 0 }, { EX_UINT, 64, 0 },
	{ EX_UINT, 64, 0 }, { EX_STR, 0, 0 }, { EX_UINT, 64, 0 }, { EX_STR, 0, 0 },
	{ EX_UINT, 64, 0 }, { EX_UINT, 64, 1 }, { EX_STR, 0, 1 }, { EX_STR, 0, 1 },
};

/* room for @n callchain entries in the run's buffers */
static int chain_room(struct ex_run *x, size_t n)
{
	uint64_t *ip;
	const char **sym, **dso;
	size_t cap;

	if (n <= x->chain_cap)
		return 0;
	cap = x->chain_cap ? x->chain_cap * 2 : 128;
	while (cap < n)
		cap *= 2;
	ip = realloc(x->chain_ip, cap * sizeof(*ip));
	if (ip)
		x->chain_ip = ip;
	sym = ip ? realloc(x->chain_sym, cap * sizeof(*sym)) : NULL;
	if (sym)
		x->chain_sym = sym;
	dso = sym ? realloc(x->chain_dso, cap * sizeof(*dso)) : NULL;
	if (dso)
		x->chain_dso = dso;
	if (!dso)
		return -1;
	x->chain_cap = cap;
	return 0;
}

int ex_sample_of(struct ex_run *x, const struct pd_event *ev, struct ex_sample *out,
		 struct tb_err *err)
{
	struct sym_machine *m = pd_session_symbols(x->st->session);
	const struct pd_sample *s = ev->sample;
	struct sym_loc l;
	struct ec_chain ch;
	uint16_t mode;
	uint64_t ip;

	memset(out, 0, sizeof(*out));
	out->event = ev->evsel->name;
	out->period = s->period;
	out->ip = s->ip;
	out->addr = s->addr;
	if (ec_resolve(m, ev, ec_cpumode(ev), s->ip, 0, &l))
		goto nomem;
	out->symbol = l.sym ? l.sym : "[unknown]";
	out->symoff = l.sym ? l.symoff : 0;
	out->dso = l.dso;
	/* callee first, markers left out, at most perf script's depth for scripts */
	ec_chain_begin(&ch, ev, ec_max_stack());
	while (ec_chain_next(&ch, &ip, &mode)) {
		if (chain_room(x, out->nr + 1) || ec_resolve(m, ev, mode, ip, 0, &l))
			goto nomem;
		x->chain_ip[out->nr] = ip;
		x->chain_sym[out->nr] = l.sym ? l.sym : "[unknown]";
		x->chain_dso[out->nr] = l.dso;
		out->nr++;
	}
	out->chain = x->chain_ip;
	out->chain_sym = x->chain_sym;
	out->chain_dso = x->chain_dso;
	return 0;
nomem:
	return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
}

void ex_json_u64s(struct bytebuf *b, const uint64_t *v, size_t n)
{
	char num[32];

	bb_put(b, "[", 1);
	for (size_t i = 0; i < n; i++) {
		if (i)
			bb_put(b, ",", 1);
		bb_put(b, num, ex_json_int(num, v[i], 0));
	}
	bb_put(b, "]", 1);
}

int ex_json_strings(struct ex_run *x, struct bytebuf *b, const char *const *s, size_t n)
{
	bb_put(b, "[", 1);
	for (size_t i = 0; i < n; i++) {
		size_t len;
		const char *u = ex_utf8(x, (const unsigned char *)s[i], strlen(s[i]), &len);

		if (!u)
			return -1;
		if (i)
			bb_put(b, ",", 1);
		ex_json_string(b, u, len);
	}
	bb_put(b, "]", 1);
	return b->oom ? -1 : 0;
}
