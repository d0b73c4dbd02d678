/* report_select.c - perf script 6.1's other sample selections, in its order
 * (builtin-script.c process_sample_event): -d after the time range (count
 * samples out of order, print none), then after the thread's filters the
 * symbol (-S, --addr-range) and DSO (--dsos) lists of machine__resolve,
 * --graph-function (show_event), then the event switch (util/evswitch.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_evsel.h"
#include "report/report_select.h"
#include "symbols/symbols.h"
#include "xfuncs.h"

/* perf's strlist: comma-separated names. */
static int split(const char *str, char ***out, size_t *nr)
{
	char *copy = strdup(str), *tok, *save = NULL;

	*out = NULL;
	*nr = 0;
	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **grown = realloc(*out, (*nr + 1) * sizeof(**out));

		if (!grown)
			break;
		*out = grown;
		if (!(grown[*nr] = strdup(tok)))
			break;
		(*nr)++;
	}
	free(copy);
	return tok ? -1 : 0;
}

static int listed(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; s && i < n; i++)
		if (!strcmp(v[i], s))
			return 1;
	return 0;
}

/* evlist__find_evsel_by_str: the attr perf would name @name. */
static const struct pd_evsel *evsel_named(struct pd_session *s, const char *name)
{
	for (size_t i = 0; i < pd_session_nr_evsels(s); i++)
		if (!strcmp(pd_session_evsel(s, i)->name, name))
			return pd_session_evsel(s, i);
	return NULL;
}

static int switch_event(struct pd_session *s, const char *which, const char *name,
			const struct pd_evsel **out)
{
	if (!name)
		return 0;
	*out = evsel_named(s, name);
	if (*out)
		return 0;
	/* perf 6.1: util/evswitch.c evswitch__init (pr_err) */
	perf_msg("ERROR: switch-%s event not found (%s)\n", which, name);
	perf_msg("HINT:  use 'perf evlist' to see the available event names\n");
	return 254;
}

int report_select_init(struct report_select *sel, struct pd_session *s)
{
	int r;

	sel->session = s;
	if ((sel->sym_str && split(sel->sym_str, &sel->syms, &sel->nr_syms)) ||
	    (sel->dso_str && split(sel->dso_str, &sel->dsos, &sel->nr_dsos))) {
		error_msg("out of memory");
		return 1;
	}
	/* -S entries that read as numbers are addresses (symbol_conf.addr_list) */
	sel->addrs = calloc(sel->nr_syms ? sel->nr_syms : 1, sizeof(*sel->addrs));
	if (!sel->addrs) {
		error_msg("out of memory");
		return 1;
	}
	for (size_t i = 0; i < sel->nr_syms; i++) {
		char *end;
		uint64_t a = strtoull(sel->syms[i], &end, 0);

		if (*sel->syms[i] && !*end)
			sel->addrs[sel->nr_addrs++] = a;
	}
	if ((r = switch_event(s, "on", sel->on_str, &sel->on)) ||
	    (r = switch_event(s, "off", sel->off_str, &sel->off)))
		return r;
	sel->discarding = sel->on != NULL;
	return 0;
}

int report_select_debug(struct report_select *sel, const struct pd_event *ev)
{
	if (!sel->debug_mode)
		return 0;
	if (ev->sample->time < sel->last_time) {
		/* perf 6.1: builtin-script.c process_sample_event (pr_err) */
		perf_msg("Samples misordered, previous: %" PRIu64 " this: %" PRIu64 "\n",
			 sel->last_time, ev->sample->time);
		sel->nr_misordered++;
	}
	sel->last_time = ev->sample->time;
	return 1;
}

/* machine__resolve's symbol and DSO filters. */
static int resolved_out(struct report_select *sel, const struct pd_event *ev)
{
	struct sym_machine *m = pd_session_symbols(sel->session);
	struct sym_loc l = { 0 };
	int keep;

	if (!sel->nr_syms && !sel->nr_dsos)
		return 0;
	if (m && sym_machine_resolve(m, ev->sample->pid, ev->misc & 7, ev->sample->ip, &l))
		return 0;
	if (sel->nr_dsos && !(l.have_map && (listed(sel->dsos, sel->nr_dsos, l.dso_short) ||
					     listed(sel->dsos, sel->nr_dsos, l.dso))))
		return 1;
	if (!sel->nr_syms)
		return 0;
	keep = listed(sel->syms, sel->nr_syms, l.sym);
	for (size_t i = 0; !keep && i < sel->nr_addrs; i++) {
		uint64_t a = sel->addrs[i], ip = ev->sample->ip;

		/* perf 6.1 matches an address by the sample's ip (and
		 * --addr-range), never by its symbol's start */
		keep = ip == a || (sel->addr_range && ip >= a && ip - a < sel->addr_range);
	}
	return !keep;
}

/* evswitch__discard */
static int switched_off(struct report_select *sel, const struct pd_evsel *e)
{
	if (sel->on && sel->discarding) {
		if (sel->on != e)
			return 1;
		sel->discarding = 0;
		return !sel->show_on_off;
	}
	if (sel->off && !sel->discarding) {
		if (sel->off != e)
			return 0;
		sel->discarding = 1;
		return !sel->show_on_off;
	}
	return 0;
}

int report_select_drop(struct report_select *sel, const struct pd_event *ev)
{
	/* show_event: --graph-function keeps samples by the function a branch
	 * calls or returns from, and no sample here carries branch flags (only
	 * instruction traces synthesize them) */
	return resolved_out(sel, ev) || sel->graph_function || switched_off(sel, ev->evsel);
}

void report_select_end(const struct report_select *sel)
{
	if (sel->debug_mode)
		/* perf 6.1: builtin-script.c cmd_script (pr_err) */
		perf_msg("Misordered timestamps: %" PRIu64 "\n", sel->nr_misordered);
}

void report_select_free(struct report_select *sel)
{
	for (size_t i = 0; sel->syms && i < sel->nr_syms; i++)
		free(sel->syms[i]);
	for (size_t i = 0; sel->dsos && i < sel->nr_dsos; i++)
		free(sel->dsos[i]);
	free(sel->syms);
	free(sel->dsos);
	free(sel->addrs);
	sel->syms = sel->dsos = NULL;
	sel->addrs = NULL;
}
