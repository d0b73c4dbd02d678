/* report_picture.c - trace-report flamegraph|timechart: a picture's own
 * options, then its engine over the recording (over both for --diff). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "args.h"
#include "perfdata/pd_evsel.h"
#include "tracepoint/tp_decoder.h"
#include "pictures/flame_tree.h"
#include "report/report_filter.h"
#include "report/report_picture.h"
#include "report/report_run.h"
#include "xfuncs.h"

static struct report_picture opts;

static const struct opt flame_opts[] = {
	{ 'o', "output", OPT_STR, &opts.output, "FILE",
	  "write the picture to FILE (flamegraph.html; - for stdout; --folded: stdout)" },
	{ 0, "folded", OPT_FLAG, &opts.pic.folded, NULL,
	  "write the folded stacks (perf's stackcollapse.py lines) instead of the picture" },
	{ 0, "title", OPT_STR, &opts.pic.title, "TEXT", "the picture's title" },
	{ 0, "width", OPT_UINT, &opts.width, "PIXELS", "the picture's width (1200)" },
	{ 0, "minwidth", OPT_STR, &opts.minwidth, "PIXELS",
	  "frames narrower than this merge into one (0.1; 0 draws every frame)" },
	{ 0, "inverted", OPT_FLAG, &opts.pic.inverted, NULL, "an icicle graph: the roots at the top" },
	{ 0, "hot", OPT_FLAG, &opts.pic.hot, NULL,
	  "FlameGraph's warm colours instead of colours by kind (kernel, user, inlined, JIT)" },
	{ 0, "offcpu", OPT_FLAG, &opts.pic.offcpu, NULL,
	  "the time tasks spend switched out (sched:sched_switch with -g, trace-record offcpu), "
	  "in microseconds; the default for a recording of sched_switch alone" },
	{ 0, "diff", OPT_STR, &opts.diff, "BEFORE",
	  "a differential flame graph: the recording after the options drawn, coloured by how "
	  "each frame's share grew (red) or shrank (blue) since BEFORE" },
	{ 0, "no-comm", OPT_FLAG, &opts.pic.no_comm, NULL, "do not separate stacks by comm" },
	{ 0, "include-pid", OPT_FLAG, &opts.pic.include_pid, NULL, "the process id after the comm" },
	{ 0, "include-tid", OPT_FLAG, &opts.pic.include_tid, NULL, "the thread id after the comm" },
	{ 0, "kernel", OPT_FLAG, &opts.pic.annotate_kernel, NULL, "kernel symbols end in _[k]" },
	OPT_TABLE_END
};

static const struct applet_help flame_help = {
	"trace-report flamegraph",
	"[-o FILE] [--folded] [--title TEXT] [--width PIXELS] [--minwidth PIXELS]\n"
	"       [--inverted] [--hot] [--offcpu] [--no-comm] [--include-pid] [--include-tid]\n"
	"       [--kernel] [--diff BEFORE] [RECORDING]",
	"Fold the stack of every sample of the recording (trace-report's -i, or\n"
	"RECORDING, or perf.data) as perf's stackcollapse.py does and draw them as\n"
	"one self-contained HTML flame graph: width by samples, a tooltip, click\n"
	"to zoom, search with the matched share, reset. Trace-report's options\n"
	"before the name (--pid, --comm, -C, --time, --symfs...) choose the samples.\n"
	"Off-CPU (trace-record offcpu): the time each task stayed switched out,\n"
	"charged to the stack it left the CPU with.",
	flame_opts
};

static const struct opt timechart_opts[] = {
	{ 'o', "output", OPT_STR, &opts.output, "FILE",
	  "write the picture to FILE (timechart.html; - for stdout)" },
	{ 0, "title", OPT_STR, &opts.pic.title, "TEXT", "the picture's title" },
	{ 0, "width", OPT_UINT, &opts.width, "PIXELS", "the picture's width (1200)" },
	{ 0, "arrows", OPT_FLAG, &opts.pic.arrows, NULL, "show the wake-up arrows at first" },
	OPT_TABLE_END
};

static const struct applet_help timechart_help = {
	"trace-report timechart",
	"[-o FILE] [--title TEXT] [--width PIXELS] [--arrows] [RECORDING]",
	"Draw a scheduling recording (trace-record timechart: sched_switch,\n"
	"sched_wakeup, sched_wakeup_new, sched_process_exit) as one self-contained\n"
	"HTML timeline: a lane per CPU with the task running on it, a bar per task\n"
	"(running, runnable, blocked), wake-up arrows on demand, zoom and pan.",
	timechart_opts
};

int report_picture_args(struct report_picture *p, int argc, char **argv)
{
	int timechart = !strcmp(argv[0], "timechart");
	int first;
	char *end;

	memset(&opts, 0, sizeof(opts));
	opts.ops = picture_find(argv[0]);
	opts.width = (unsigned long)-1;     /* not given */
	first = args_parse(timechart ? &timechart_help : &flame_help, argc, argv);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (argc - first > 1) {
		error_msg("%s: one recording at most ('%s' is a second)", argv[0], argv[first + 1]);
		return 1;
	}
	opts.input = first < argc ? argv[first] : NULL;
	if (opts.diff && !opts.input) {
		error_msg("%s --diff BEFORE: name the recording after it too (AFTER)", argv[0]);
		return 1;
	}
	opts.pic.minwidth = 0.1;
	if (opts.minwidth) {
		opts.pic.minwidth = strtod(opts.minwidth, &end);
		if (*end || end == opts.minwidth || !(opts.pic.minwidth >= 0) ||
		    opts.pic.minwidth > 1e6) {
			error_msg("--minwidth %s: not a number of pixels", opts.minwidth);
			return 1;
		}
	}
	if (opts.width == (unsigned long)-1)
		opts.width = 1200;
	if (!opts.width || opts.width > 100000) {
		error_msg("--width %lu: from 1 to 100000 pixels", opts.width);
		return 1;
	}
	opts.pic.width = (unsigned)opts.width;
	opts.pic.output = opts.output ? opts.output : opts.pic.folded ? "-" :
			  timechart ? "timechart.html" : "flamegraph.html";
	*p = opts;
	return -1;
}

int report_picture_inputs(const struct report_picture *p, const char *dflt, const char *in[2])
{
	if (p->diff) {
		in[0] = p->diff;
		in[1] = p->input;
		return 2;
	}
	in[0] = p->input ? p->input : dflt;
	return 1;
}

/* A recording of sched:sched_switch alone (perf's dummy side-band event
 * aside) is an off-CPU one. */
static int only_sched_switch(struct pd_session *s)
{
	size_t n = pd_session_nr_evsels(s), nr = 0;

	for (size_t i = 0; i < n; i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);

		if (e->type == PD_TYPE_SOFTWARE && e->config == 9 /* dummy */)
			continue;
		nr++;
		if (!e->dec || strcmp(e->dec->system, "sched") || strcmp(e->dec->name, "sched_switch"))
			return 0;
	}
	return nr > 0;
}

int report_picture_run(struct report_picture *p, struct pd_session *s, const char *path,
		       struct report_filter *filter, int collect)
{
	struct engine_start st = { 0 };
	struct report_run x = { 0 };
	struct engine_picture pic = p->pic;
	const char *shown = strcmp(pic.output, "-") ? pic.output : "standard output";

	if (!pic.offcpu && p->ops == picture_find("flamegraph"))
		pic.offcpu = only_sched_switch(s);
	pic.collect = collect ? &p->before : NULL;
	pic.before = collect ? NULL : p->before;
	st.session = s;
	st.input = path;
	st.picture = &pic;
	x.ops = p->ops;
	x.st = &st;
	x.filter = filter;
	if (pic.offcpu) {        /* every switch reaches the engine, filtered there */
		pic.keep = report_filter_keeps;
		pic.keep_ctx = filter;
		x.filter = NULL;
	}
	x.interrupt_is_error = 1;
	report_run(&x, s);
	if (x.r)
		error_msg_at(x.engine_failed ? shown : path, x.r, &x.err);
	if (x.stop_r)
		error_msg_at(shown, x.stop_r, &x.stop_err);
	if (x.stop_r == TB_ERR_IO && !strcmp(pic.output, "-"))
		stdout_error_shown();     /* said: the exit's stdout check need not */
	return x.r || x.stop_r ? 1 : 0;
}

void report_picture_free(struct report_picture *p)
{
	ft_free(p->before);
	p->before = NULL;
}
