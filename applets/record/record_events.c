/* record_events.c - turn trace-record's -e items into recorder events, as
 * perf record 6.1 does: tracepoints (SYS:EVENT, globs through tracefs),
 * hardware and software events by perf's names (common/record/event_names.c),
 * perf's default event when there is no -e, and the dummy:HG event perf
 * adds to a system-wide recording for its side-band records. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include "record/event_names.h"
#include "record/record_events.h"
#include "tracepoint/tracefs.h"
#include "xfuncs.h"

static struct rec_event *add_event(struct rec_evlist *x)
{
	struct rec_event *n = realloc(x->evs, (x->nr + 1) * sizeof(*n));

	if (!n) {
		x->oom = 1;
		return NULL;
	}
	x->evs = n;
	memset(&n[x->nr], 0, sizeof(*n));
	return &n[x->nr++];
}

static void add_tracepoint(void *ctx, const char *name)
{
	struct rec_evlist *x = ctx;
	struct rec_event *e;
	const char *colon = strchr(name, ':');

	for (size_t i = 0; i < x->nr; i++)
		if (x->evs[i].system && !strncmp(x->evs[i].system, name, (size_t)(colon - name)) &&
		    !x->evs[i].system[colon - name] && !strcmp(x->evs[i].name, colon + 1))
			return;          /* given twice */
	e = add_event(x);
	if (!e)
		return;
	e->kind = REC_TRACEPOINT;
	e->type = PERF_TYPE_TRACEPOINT;
	e->system = strndup(name, (size_t)(colon - name));
	e->name = strdup(colon + 1);
	if (!e->system || !e->name)
		x->oom = 1;
}

static void add_named(struct rec_evlist *x, enum rec_kind kind, const char *name,
		      uint32_t type, uint64_t config)
{
	struct rec_event *e = add_event(x);

	if (!e)
		return;
	e->kind = kind;
	e->type = type;
	e->config = config;
	e->name = strdup(name);
	if (!e->name)
		x->oom = 1;
}

int record_events_has_tracepoint(const struct opt_list *specs)
{
	for (int i = 0; i < specs->nr; i++)
		if (strchr(specs->items[i], ':'))
			return 1;
	return 0;
}

/* One item of a -e list. */
static int resolve_one(const char *tfs, const char *spec, struct rec_evlist *x)
{
	const char *colon = strchr(spec, ':');
	struct tb_err err = { 0 };
	struct evname ev;
	long n;

	if (!colon) {
		if (evname_lookup(spec, &ev)) {
			error_msg("event '%s' is neither SYSTEM:EVENT nor an event perf names "
				  "(cpu-clock, task-clock, page-faults, cycles...)", spec);
			return -1;
		}
		add_named(x, REC_NAMED, spec, ev.type, ev.config);
		return 0;
	}
	if (colon == spec || !colon[1]) {
		error_msg("event '%s' is not SYSTEM:EVENT", spec);
		return -1;
	}
	if (!strpbrk(spec, "*?[")) {
		add_tracepoint(x, spec);
		return 0;
	}
	n = tracefs_list_events(tfs, spec, add_tracepoint, x, &err);
	if (n == 0)
		error_msg("no tracepoint matches '%s'", spec);
	else if (n < 0)
		error_msg("%s", err.msg);
	return n > 0 ? 0 : -1;
}

int record_events_resolve(const char *tfs, const struct opt_list *specs, int system_wide,
			  int callchain_or_data, struct rec_evlist *x)
{
	struct tb_err err = { 0 };

	for (int i = 0; i < specs->nr; i++) {
		char *list = xasprintf("%s", specs->items[i]), *save = NULL, *item;
		int rc = 0;

		/* perf takes comma lists: -e cpu-clock,page-faults */
		for (item = strtok_r(list, ",", &save); item && !rc; item = strtok_r(NULL, ",", &save))
			rc = resolve_one(tfs, item, x);
		free(list);
		if (rc)
			return -1;
	}
	if (!specs->nr)
		add_named(x, REC_DEFAULT, "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES);
	if (system_wide && record_events_profile(x, callchain_or_data))
		add_named(x, REC_DUMMY, "dummy:HG", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_DUMMY);
	if (x->oom) {
		error_msg("out of memory");
		return -1;
	}
	for (size_t i = 0; i < x->nr; i++) {
		long id;

		if (x->evs[i].kind != REC_TRACEPOINT)
			continue;
		id = tracefs_event_id(tfs, x->evs[i].system, x->evs[i].name, &err);
		if (id < 0) {
			error_msg("%s", err.msg);
			return -1;
		}
		x->evs[i].config = (uint64_t)id;
	}
	return 0;
}

int record_events_profile(const struct rec_evlist *x, int callchain_or_data)
{
	if (callchain_or_data)
		return 1;
	for (size_t i = 0; i < x->nr; i++)
		if (x->evs[i].kind != REC_TRACEPOINT && x->evs[i].kind != REC_DUMMY)
			return 1;
	return 0;
}

char *record_event_name(const struct rec_event *e)
{
	if (e->system)
		return xasprintf("%s:%s", e->system, e->name);
	if (e->kind == REC_DEFAULT)    /* perf's cycles:P, renamed when it falls back */
		return xasprintf("%s", e->fell_back ? "cpu-clock:ppp" : "cycles:P");
	return xasprintf("%s", e->fell_back ? "cpu-clock" : e->name);
}

void record_events_free(struct rec_evlist *x)
{
	for (size_t i = 0; i < x->nr; i++) {
		free(x->evs[i].system);
		free(x->evs[i].name);
		free(x->evs[i].ids);
	}
	free(x->evs);
	memset(x, 0, sizeof(*x));
}
