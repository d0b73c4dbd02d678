/* report_stat.c - trace-report's counter table for `perf stat record`
 * data, as perf script prints it without a script (or with a Perl one). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdio.h>
#include "perfdata/pd_session.h"
#include "report/report_stat.h"

int report_stat_table(void *ctx, const struct pd_stat_round *r)
{
	static int header_printed;
	const struct pd_stat *st = r->st;

	(void)ctx;
	if (!r->counter)
		return 0;
	if (!header_printed) {
		printf("%3s %8s %15s %15s %15s %15s %s\n",
		       "CPU", "THREAD", "VAL", "ENA", "RUN", "TIME", "EVENT");
		header_printed = 1;
	}
	for (size_t t = 0; t < st->nr_threads; t++)
		for (size_t i = 0; i < st->nr_cpus; i++) {
			const struct pd_stat_counts *v = pd_stat_counts_at(st, r->counter, i, t);

			printf("%3d %8d %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %15" PRIu64 " %s\n",
			       st->cpus[i], st->threads[t], v->val, v->ena, v->run, r->time,
			       r->counter->evsel->name);
		}
	return 0;
}
