/* tc_html.c - a timechart model written as one HTML page: the model as
 * JSON data (numbers in flat arrays, every comm an escaped JSON string),
 * then timechart.js, which draws and animates it.
 *
 * The data: {"title", "width", "arrows" (0/1), "duration" (ns), "states":
 * names of the state numbers, "dropped": {spans, wakeups, tasks, cpus},
 * "cpus": [{"cpu", "spans": [start, duration, pid, ...]}],
 * "tasks": [{"pid", "comm", "spans": [start, duration, state, cpu, ...]}]
 * (by pid; cpu -1 when not running), "wakeups": [time, waker, waker_cpu,
 * wakee, target_cpu, ...]}; times in ns since the first event. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdlib.h>
#include "pictures/pic_assets.h"
#include "pictures/pic_escape.h"
#include "pictures/pictures.h"
#include "pictures/tc_html.h"

static int by_pid(const void *a, const void *b, void *m)
{
	const struct tc_task *t = ((const struct tc_model *)m)->tasks;
	uint32_t x = t[*(const uint32_t *)a].pid, y = t[*(const uint32_t *)b].pid;

	return x < y ? -1 : x > y;
}

/* [start, duration, @state? state, arg, ...] of @s */
static void spans(FILE *f, const struct tc_spans *s, int state)
{
	fputc('[', f);
	for (size_t i = 0; i < s->nr; i++) {
		const struct tc_span *p = &s->v[i];

		fprintf(f, "%s%" PRIu64 ",%" PRIu64 ",", i ? "," : "", p->start, p->end - p->start);
		if (state)
			fprintf(f, "%d,", p->state);
		fprintf(f, "%" PRId32, p->arg);
	}
	fputc(']', f);
}

static void cpus(FILE *f, const struct tc_model *m)
{
	fputs(",\"cpus\":[", f);
	for (size_t i = 0; i < m->nr_cpus; i++) {
		fprintf(f, "%s{\"cpu\":%zu,\"spans\":", i ? "," : "", i);
		spans(f, &m->cpus[i].spans, 0);
		fputc('}', f);
	}
	fputc(']', f);
}

/* The tasks that have an interval, by pid. */
static int tasks(FILE *f, const struct tc_model *m)
{
	uint32_t *order = malloc((m->nr_tasks ? m->nr_tasks : 1) * sizeof(*order));
	size_t n = 0;

	if (!order)
		return TB_ERR_NOMEM;
	for (size_t i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i].spans.nr)
			order[n++] = (uint32_t)i;
	qsort_r(order, n, sizeof(*order), by_pid, (void *)m);
	fputs(",\"tasks\":[", f);
	for (size_t i = 0; i < n; i++) {
		const struct tc_task *t = &m->tasks[order[i]];

		fprintf(f, "%s{\"pid\":%" PRIu32 ",\"comm\":", i ? "," : "", t->pid);
		pic_json_string(f, t->comm);
		fputs(",\"spans\":", f);
		spans(f, &t->spans, 1);
		fputc('}', f);
	}
	fputc(']', f);
	free(order);
	return 0;
}

static void wakeups(FILE *f, const struct tc_model *m)
{
	fputs(",\"wakeups\":[", f);
	for (size_t i = 0; i < m->nr_wakeups; i++) {
		const struct tc_wakeup *w = &m->wakeups[i];

		fprintf(f, "%s%" PRIu64 ",%" PRIu32 ",%" PRId32 ",%" PRIu32 ",%" PRId32,
			i ? "," : "", w->time, w->waker, w->waker_cpu, w->wakee, w->target_cpu);
	}
	fputc(']', f);
}

int tc_write_html(FILE *f, const struct tc_model *m, const struct engine_picture *pic)
{
	const char *title = pic->title ? pic->title : "Timechart";
	int r;

	pic_page_begin(f, title, pic_asset_timechart_js_sha256, pic_asset_timechart_css,
		       pic_asset_timechart_css_sha256);
	fputs("{\"title\":", f);
	pic_json_string(f, title);
	fprintf(f, ",\"width\":%u,\"arrows\":%d,\"duration\":%" PRIu64
		",\"states\":[\"running\",\"runnable\",\"blocked\"],\"dropped\":{\"spans\":%"
		PRIu64 ",\"wakeups\":%" PRIu64 ",\"tasks\":%" PRIu64 ",\"cpus\":%" PRIu64 "}",
		pic->width, pic->arrows ? 1 : 0, m->last, m->dropped_spans, m->dropped_wakeups,
		m->dropped_tasks, m->dropped_cpus);
	cpus(f, m);
	r = tasks(f, m);
	wakeups(f, m);
	fputs("}", f);
	pic_page_end(f, pic_asset_timechart_js);
	return r ? r : ferror(f) ? TB_ERR_IO : 0;
}
