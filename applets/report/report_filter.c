/* report_filter.c - trace-report --pid, --tid, --comm, -C and --time: which
 * samples reach the printer or the script, decided once in front of either,
 * as perf script 6.1 decides (builtin-script.c process_sample_event: time
 * range, -d, then cpu, then the thread's comm, pid and tid, then
 * report_select.c's symbol, DSO and event-switch choices; the --time syntax
 * is report_time.c's). Non-sample records (--show-*) pass the cpu test
 * only, as in perf's print_event_with_time. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "util/cpulist.h"
#include "perfdata/pd_format.h"
#include "perfdata/pd_session.h"
#include "report/report_dump.h"
#include "report/report_dlfilter.h"
#include "report/report_filter.h"
#include "report/report_select.h"
#include "report/report_side.h"
#include "report/report_time.h"
#include "xfuncs.h"

/* ---- lists: "a,b,c" ---- */

/* Split @str at commas into an allocated array of allocated strings. */
static int split_list(const char *str, char ***out, size_t *nr)
{
	char *copy = strdup(str), *tok, *save = NULL;
	char **v = NULL;
	size_t n = 0;

	if (!copy)
		return -1;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char **grown = realloc(v, (n + 1) * sizeof(*v));

		if (!grown || !(grown[n] = strdup(tok))) {
			free(grown ? grown : v);
			free(copy);
			return -1;
		}
		v = grown;
		n++;
	}
	free(copy);
	*out = v;
	*nr = n;
	return 0;
}

static int has_int(const long *v, size_t n, long x)
{
	for (size_t i = 0; i < n; i++)
		if (v[i] == x)
			return 1;
	return 0;
}

/* perf's intlist: comma-separated decimal numbers, none twice. */
static int parse_ints(const char *what, const char *str, long **out, size_t *nr)
{
	char **items;
	size_t n;
	long *v;
	int bad = 0;

	if (split_list(str, &items, &n)) {
		error_msg("out of memory");
		return -1;
	}
	v = calloc(n ? n : 1, sizeof(*v));
	if (!v)
		error_msg("out of memory");
	for (size_t i = 0; v && !bad && i < n; i++) {
		char *end;

		errno = 0;
		v[i] = strtol(items[i], &end, 10);
		if (end == items[i] || *end || errno) {
			error_msg("problems parsing %s list: '%s' is not a number", what, items[i]);
			bad = 1;
		} else if (has_int(v, i, v[i])) {     /* perf's intlist refuses it too */
			error_msg("problems parsing %s list: %ld is there twice", what, v[i]);
			bad = 1;
		}
	}
	for (size_t i = 0; i < n; i++)
		free(items[i]);
	free(items);
	if (!v || bad) {
		free(v);
		return -1;
	}
	*out = v;
	*nr = n;
	return 0;
}

/* ---- --time ---- */

static int parse_time(struct report_filter *f, struct pd_session *s)
{
	const struct pd_header_info *h = pd_session_info(s);
	int size = 1;

	for (const char *c = f->time_str; *c; c++)
		size += *c == ',';
	f->ranges = calloc((size_t)size, sizeof(*f->ranges));
	if (!f->ranges) {
		error_msg("out of memory");
		return -1;
	}
	if (strchr(f->time_str, '%')) {
		if (h->first_sample_time == 0 && h->last_sample_time == 0) {
			error_msg("--time %s: no first/last sample time found in the recording "
				  "(perf's SAMPLE_TIME feature)", f->time_str);
			return -1;
		}
		f->nr_ranges = report_time_percent(f->time_str, f->ranges, size, h->first_sample_time,
					     h->last_sample_time);
	} else {
		f->nr_ranges = report_time_ranges(f->time_str, f->ranges, size);
	}
	if (f->nr_ranges < 0) {
		error_msg("--time %s: invalid time string", f->time_str);
		return -1;
	}
	return 0;
}

/* ---- -C ---- */

/* perf_session__cpu_bitmap */
static int parse_cpus(struct report_filter *f, struct pd_session *s)
{
	const struct pd_header_info *h = pd_session_info(s);
	uint32_t seen = 0;
	int *cpus = NULL;
	long n;

	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);

		if (e->type >= 6 || (seen >> e->type & 1))
			continue;
		seen |= 1u << e->type;
		if (!(e->sample_type & PD_S_CPU)) {
			error_msg("-C %s: the recording has no cpu in its samples (%s); "
				  "remove -C to proceed", f->cpu_str, e->name);
			return -1;
		}
	}
	n = cpulist_parse(f->cpu_str, &cpus);
	if (n < 0) {
		error_msg("-C %s: invalid cpu list", f->cpu_str);
		return -1;
	}
	f->cpu_map = calloc(REPORT_MAX_CPUS / 8, 1);
	if (!f->cpu_map) {
		free(cpus);
		error_msg("out of memory");
		return -1;
	}
	for (long i = 0; i < n; i++) {
		/* perf's bound is nr_cpus_avail, 0 until the NRCPUS feature is
		 * read: in pipe mode that comes after -C is checked */
		uint32_t max = !h->has_nrcpus || pd_session_is_pipe(s) ? 0 :
			       h->nr_cpus_avail < REPORT_MAX_CPUS ? h->nr_cpus_avail :
			       REPORT_MAX_CPUS;

		if ((uint32_t)cpus[i] >= max) {
			if (max)
				error_msg("-C %s: cpu %d is beyond the recording's %u cpus",
					  f->cpu_str, cpus[i], max);
			else
				error_msg("-C %s: the recording does not say how many cpus it "
					  "had before its samples (pipe mode), as perf needs for -C",
					  f->cpu_str);
			free(cpus);
			return -1;
		}
		f->cpu_map[cpus[i] / 8] |= (unsigned char)(1u << (cpus[i] % 8));
	}
	free(cpus);
	return 0;
}

static int cpu_skipped(const struct report_filter *f, int32_t cpu)
{
	if (!f->cpu_map || cpu == -1)
		return 0;
	return cpu < 0 || cpu >= REPORT_MAX_CPUS || !(f->cpu_map[cpu / 8] >> (cpu % 8) & 1);
}

/* ---- the consumer in front ---- */

static void flush_printer(struct report_filter *f)
{
	if (f->flush)
		f->flush(f->flush_ctx);
}

/* The checks before -D's dump of a sample that passes them. */
static int early_skip(struct report_filter *f, const struct pd_event *ev)
{
	const struct pd_sample *smp = ev->sample;

	return (f->nr_ranges && report_time_skipped(f->ranges, f->nr_ranges, smp->time)) ||
	       (f->select && report_select_debug(f->select, ev)) || cpu_skipped(f, smp->cpu);
}

/* perf's thread__find_map: a guest's sample (cpumode 4, guest kernel, or
 * 5, guest user) is filtered out, unless a --guest* option enabled guests */
static int guest_dropped(const struct report_filter *f, const struct pd_event *ev)
{
	unsigned mode = ev->misc & 7;

	return (mode == 4 || mode == 5) && !f->keep_guest;
}

/* The checks after it: a guest's, comm, pid, tid, perf's selections. */
static int late_skip(struct report_filter *f, const struct pd_event *ev)
{
	const struct pd_sample *smp = ev->sample;

	if (guest_dropped(f, ev))
		return 1;

	if (f->comms) {
		size_t i;

		for (i = 0; i < f->nr_comms && strcmp(f->comms[i], ev->comm); i++)
			;
		if (i == f->nr_comms)
			return 1;
	}
	return (f->pids && !has_int(f->pids, f->nr_pids, smp->pid)) ||
	       (f->tids && !has_int(f->tids, f->nr_tids, smp->tid)) ||
	       (f->select && report_select_drop(f->select, ev));
}

int report_filter_keeps(void *ctx, const struct pd_event *ev)
{
	struct report_filter *f = ctx;

	return !early_skip(f, ev) && !late_skip(f, ev);
}

static int filter_sample(void *ctx, const struct pd_event *ev)
{
	struct report_filter *f = ctx;

	if (f->samples_pass)
		return f->next.sample && !guest_dropped(f, ev) ? f->next.sample(f->next.ctx, ev) : 0;
	if (f->dlfilter) {          /* it may print: what came before goes first */
		flush_printer(f);
		if (report_dlfilter_early(f->dlfilter, ev))
			return 0;
	}
	if (early_skip(f, ev))
		return 0;
	if (f->dump) {
		flush_printer(f);
		report_dump_resolved(f->dump, ev);
	}
	if (late_skip(f, ev))
		return 0;
	if (f->dlfilter) {
		flush_printer(f);
		if (report_dlfilter_event(f->dlfilter, ev))
			return 0;
	}
	return f->next.sample ? f->next.sample(f->next.ctx, ev) : 0;
}

static int filter_record(void *ctx, const struct pd_record *r)
{
	struct report_filter *f = ctx;
	int ret;

	flush_printer(f);
	if (!cpu_skipped(f, report_side_cpu(r)) && f->side &&
	    (ret = report_side_record(f->side, r)))
		return ret;
	if (f->dump && f->dump->defer_exit && pd_u32(r->rec) == PD_REC_EXIT)
		report_dump_exit(f->dump, r);
	return f->next.record ? f->next.record(f->next.ctx, r) : 0;
}

static int filter_dump(void *ctx, const struct pd_record *r)
{
	struct report_filter *f = ctx;

	flush_printer(f);
	return report_dump_record(f->dump, r);
}

/* --show-round-events: perf_event__fprintf of the record */
static int filter_round(void *ctx, const struct pd_record *r)
{
	struct report_filter *f = ctx;

	(void)r;
	flush_printer(f);
	fputs("PERF_RECORD_FINISHED_ROUND\n", stdout);
	return 0;
}

/* perf stat record data: not filtered (perf script does not either) */
static int filter_stat(void *ctx, const struct pd_stat_round *r)
{
	struct report_filter *f = ctx;

	flush_printer(f);
	return f->next.stat_round(f->next.ctx, r);
}

int report_filter_init(struct report_filter *f, struct pd_session *s)
{
	if (f->pid_str && parse_ints("pid", f->pid_str, &f->pids, &f->nr_pids))
		return -1;
	if (f->tid_str && parse_ints("tid", f->tid_str, &f->tids, &f->nr_tids))
		return -1;
	if (f->comm_str && split_list(f->comm_str, &f->comms, &f->nr_comms)) {
		error_msg("out of memory");
		return -1;
	}
	for (size_t i = 0; i < f->nr_comms; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(f->comms[i], f->comms[j])) {
				error_msg("problems parsing comm list: '%s' is there twice",
					  f->comms[i]);
				return -1;
			}
	if (f->cpu_str && parse_cpus(f, s))
		return -1;
	if (f->time_str && parse_time(f, s))
		return -1;
	return 0;
}

/* pd_consumer.wants: a dlfilter, a dump and perf's selections see every
 * sample; else what comes after the filter decides */
static int filter_wants(void *ctx, const struct pd_evsel *e)
{
	struct report_filter *f = ctx;

	if (f->dlfilter || f->dump || f->select)
		return 1;
	return f->next.wants ? f->next.wants(f->next.ctx, e) : 1;
}

void report_filter_wrap(struct report_filter *f, const struct pd_consumer *next,
			struct pd_consumer *out)
{
	f->next = *next;
	f->samples_pass = !f->dlfilter && !f->dump && !f->select && !f->nr_ranges && !f->cpu_map &&
			  !f->comms && !f->pids && !f->tids;
	out->ctx = f;
	out->sample = filter_sample;
	out->record = f->side || next->record ? filter_record : NULL;
	out->dump = f->dump ? filter_dump : NULL;
	out->stat_round = next->stat_round ? filter_stat : NULL;
	out->round = f->show_round ? filter_round : NULL;
	out->wants = next->wants ? filter_wants : NULL;
}

void report_filter_free(struct report_filter *f)
{
	for (size_t i = 0; f->comms && i < f->nr_comms; i++)
		free(f->comms[i]);
	free(f->comms);
	free(f->pids);
	free(f->tids);
	free(f->cpu_map);
	free(f->ranges);
	f->comms = NULL;
	f->pids = f->tids = NULL;
	f->cpu_map = NULL;
	f->ranges = NULL;
}
