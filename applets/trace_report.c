/* trace_report.c - trace-report: read a perf.data recording and print its
 * events as `perf script` does (scripts come with the engines). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "applets.h"
#include "args.h"
#include "catalogue.h"
#include "ksyms.h"
#include "pd_session.h"
#include "report_print.h"
#include "report_recover.h"
#include "report_script.h"
#include "xfuncs.h"

struct report_opts {
	const char *input, *script, *recover, *output;
	int header, header_only, nsecs, quiet, stats;
};

static struct report_opts o;
static const struct opt report_opts_table[] = {
	{ 'i', "input", OPT_STR, &o.input, "FILE",
	  "recording to read (default perf.data; stdin when it is a pipe; - for stdin)" },
	{ 's', "script", OPT_STR, &o.script, "[LANG:]FILE",
	  "run a Python (.py) or Perl (.pl) trace script; the operands are its arguments; "
	  "-s lang lists the languages" },
	{ 0, "header", OPT_FLAG, &o.header, NULL, "print the recording's header before the events" },
	{ 0, "header-only", OPT_FLAG, &o.header_only, NULL, "print the header and stop" },
	{ 0, "ns", OPT_FLAG, &o.nsecs, NULL, "show timestamps in nanoseconds" },
	{ 'q', "quiet", OPT_FLAG, &o.quiet, NULL, "no end-of-run warnings" },
	{ 0, "stats", OPT_FLAG, &o.stats, NULL,
	  "print record counts and lost events instead of the events" },
	{ 0, "recover", OPT_STR, &o.recover, "FILE",
	  "write FILE, a recording whose recorder was killed (or whose disk filled), "
	  "to -o as the finished file perf's tools read" },
	{ 'o', "output", OPT_STR, &o.output, "NEW", "with --recover: the file to write" },
	OPT_TABLE_END
};

static const struct applet_help report_help = {
	"trace-report", "[-i FILE] [--header|--header-only] [--ns] [--stats] [-q]\n"
	"       trace-report [-i FILE] -s [LANG:]SCRIPT [ARGS...]\n"
	"       trace-report [-i FILE] NAME [ARGS...]   (canned script NAME, see trace-list)\n"
	"       trace-report --recover FILE -o NEW",
	"Print every event of a perf.data recording, one line each, exactly as\n"
	"'perf script' prints tracepoint events: comm, tid, [cpu], time, event\n"
	"name and the fields as the event's print format renders them. Reads\n"
	"file-mode and pipe-mode ('perf record -o -') data; events come out in\n"
	"perf's time order. Warns on stderr, as perf does, about lost events.\n"
	"With -s, or a canned script's NAME, hand every event to a Python or\n"
	"Perl trace script instead (perf script -s conventions).",
	report_opts_table
};

/* What tracebox read past where perf 6.1 fails or says nothing: one
 * warning per kind, at the end (none on recordings perf reads cleanly). */
static void warn_about_skipped(const struct pd_stats *st)
{
	const char *sep = "";

	if (st->skipped_features[0] | st->skipped_features[1] | st->skipped_features[2] |
	    st->skipped_features[3]) {
		int n = 0;

		for (int w = 0; w < 4; w++)
			n += __builtin_popcountll(st->skipped_features[w]);
		fprintf(stderr, "Warning:\nskipped feature bit%s ", n > 1 ? "s" : "");
		for (int f = 0; f < 256; f++)
			if (st->skipped_features[f / 64] >> (f % 64) & 1) {
				fprintf(stderr, "%s%d", sep, f);
				sep = ", ";
			}
		fprintf(stderr, " (unknown to perf 6.1 and tracebox)\n");
	}
	if (st->nr_unknown_records) {
		fprintf(stderr, "Warning:\nskipped %llu record%s of unknown type",
			(unsigned long long)st->nr_unknown_records,
			st->nr_unknown_records > 1 ? "s" : "");
		for (unsigned i = 0; i < st->nr_unknown_types; i++)
			fprintf(stderr, "%s%u", i ? ", " : " ", st->unknown_types[i]);
		fprintf(stderr, "%s\n", st->nr_unknown_types == 8 ? ", ..." : "");
	}
	if (st->nr_big_attrs)
		fprintf(stderr, "Warning:\n%u attrs larger than perf 6.1's 128 bytes (up to %u): "
			"the bytes past 128 were ignored%s\n", st->nr_big_attrs, st->big_attr_size,
			st->big_attr_nonzero ? ", and some were not 0" : "");
	if (st->decomp_tail)
		fprintf(stderr, "Warning:\nthe compressed data ends with %llu bytes of a cut "
			"record\n", (unsigned long long)st->decomp_tail);
}

/* perf_session__warn_about_errors, the parts a tracepoint recording can meet. */
static void warn_about_errors(const struct pd_stats *st)
{
	uint64_t samples = st->nr_records[PD_REC_SAMPLE];

	if (st->nr_records[PD_REC_LOST])
		fprintf(stderr, "Warning:\nProcessed %d events and lost %d chunks!\n\n"
			"Check IO/CPU overload!\n\n", (int)st->nr_total,
			(int)st->nr_records[PD_REC_LOST]);
	if (st->nr_lost_samples) {
		double drop = (double)st->nr_lost_samples /
			      (double)(samples + st->nr_lost_samples);

		if (drop > 0.05)
			fprintf(stderr, "Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
				(unsigned long long)(samples + st->nr_lost_samples), drop * 100.0);
	}
	if (st->nr_unknown_id)
		fprintf(stderr, "Warning:\n%u samples with id not present in the header\n",
			(unsigned)st->nr_unknown_id);
	if (st->nr_unordered)
		fprintf(stderr, "Warning:\n%u out of order events recorded.\n",
			(unsigned)st->nr_unordered);
	if (st->unfinished)
		error_msg("warning: the recording was not finished (trace-record was killed or its "
			  "disk filled): read %llu records up to offset 0x%llx%s", (unsigned long long)
			  st->nr_total, (unsigned long long)st->cut_off,
			  st->cut_bytes ? ", ignored the cut record after it" : "");
}

static void print_stats(const struct pd_stats *st)
{
	static const char *const names[PD_REC_MAX] = {
		[PD_REC_MMAP] = "MMAP", [PD_REC_LOST] = "LOST", [PD_REC_COMM] = "COMM",
		[PD_REC_EXIT] = "EXIT", [PD_REC_FORK] = "FORK", [PD_REC_SAMPLE] = "SAMPLE",
		[PD_REC_MMAP2] = "MMAP2", [PD_REC_LOST_SAMPLES] = "LOST_SAMPLES",
		[PD_REC_HEADER_ATTR] = "HEADER_ATTR", [PD_REC_HEADER_TRACING_DATA] = "HEADER_TRACING_DATA",
		[PD_REC_FINISHED_ROUND] = "FINISHED_ROUND", [PD_REC_ID_INDEX] = "ID_INDEX",
		[PD_REC_THREAD_MAP] = "THREAD_MAP", [PD_REC_CPU_MAP] = "CPU_MAP",
		[PD_REC_EVENT_UPDATE] = "EVENT_UPDATE", [PD_REC_HEADER_FEATURE] = "HEADER_FEATURE",
		[PD_REC_FINISHED_INIT] = "FINISHED_INIT", [PD_REC_COMPRESSED] = "COMPRESSED",
	};

	printf("%-20s %12llu\n", "records", (unsigned long long)st->nr_total);
	for (int t = 1; t < PD_REC_MAX; t++)
		if (st->nr_records[t])
			printf("  %-18s %12llu\n", names[t] ? names[t] : "other",
			       (unsigned long long)st->nr_records[t]);
	printf("%-20s %12llu\n", "lost events", (unsigned long long)st->nr_lost_events);
	printf("%-20s %12llu\n", "lost samples", (unsigned long long)st->nr_lost_samples);
	printf("%-20s %12llu\n", "out of order", (unsigned long long)st->nr_unordered);
}

/* A damaged feature section costs only itself (pd_session.c, "what damage
 * costs"): one line names what was lost, exit status unchanged. Pipe mode
 * may lose one while the records are read: then the line comes again. */
static void warn_lost_features(const struct pd_session *s, const char *path, unsigned *shown)
{
	struct tb_err lost = { 0 };
	unsigned nr = pd_session_lost_features(s, &lost);

	if (nr > *shown)
		report_err(path, lost.code, &lost);
	*shown = nr;
}

static const char *default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

int trace_report_main(int argc, char **argv)
{
	struct pd_session *s = NULL;
	struct report_print pr;
	struct pd_consumer c;
	struct ksyms *ks = NULL;
	struct tb_err err = { 0 };
	const char *path;
	struct cat_script canned = { 0 };
	int fd, r, first, ret = 1;
	unsigned lost = 0;

	memset(&o, 0, sizeof(o));
	first = args_parse(&report_help, argc, argv);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (o.recover)
		return report_recover(o.recover, o.output);
	if (o.output) {
		error_msg("-o is for --recover (trace-report prints on stdout)");
		return 1;
	}
	if (o.script && (!strcasecmp(o.script, "lang") || !strcmp(o.script, "list"))) {
		report_list_languages();
		return 0;
	}
	if (!o.script && first < argc) {
		r = cat_find(scripts_dir(), argv[first], CAT_REPORT, &canned);
		if (r == -1 && !have_scripts() && !strchr(argv[first], '/'))
			no_scripts_msg();
		else if (r == -1)
			error_msg("'%s' is neither an option nor a canned script (trace-list "
				  "lists them)", argv[first]);
		else if (r)
			error_msg("out of memory");
		if (r)
			return 1;
		o.script = canned.script;
	}
	path = o.input ? o.input : default_input();
	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(STDIN_FILENO);
	if (fd < 0) {
		perror_msg("%s", path);
		goto out;
	}
	if ((r = pd_session_open(&s, path, fd, &err))) {
		report_err(path, r, &err);
		goto out;
	}
	warn_lost_features(s, path, &lost);
	if (o.header || o.header_only)
		report_print_header(stdout, s, path);
	if (o.header_only) {
		ret = 0;
		goto out;
	}
	if (o.script) {
		/* the script's argv: [script, operands after the options...] */
		int skip = o.script == canned.script ? 0 : 1;   /* argv[0] becomes the script */

		ret = report_run_script(s, path, o.script, argc - first + skip, argv + first - skip);
		if (!o.quiet)
			warn_about_errors(pd_session_stats(s));
		if (!o.quiet && ret == 0)     /* a failed run says one line */
			warn_about_skipped(pd_session_stats(s));
		goto out;
	}
	if (report_print_init(&pr, s, stdout, o.nsecs)) {
		error_msg("out of memory");
		goto out;
	}
	/* perf resolves kernel addresses in file mode only: in pipe mode the
	 * tracing data arrives after it sets up its resolver. */
	if (!pd_session_is_pipe(s))
		ks = ksyms_attach(pd_session_tep(s), "/proc/kallsyms",
				  &pd_session_stats(s)->nr_kernel_mmaps);
	xstdout_buffer();
	c.ctx = &pr;
	c.sample = o.stats ? NULL : report_print_sample;
	r = pd_session_process(s, &c, &err);
	warn_lost_features(s, path, &lost);
	if (!stdout_ok()) {
		r = r ? r : -1;
	} else if (r && !(r == TB_ERR_STOP && !err.code)) {    /* STOP: the printer said why */
		report_err(path, r, &err);
	}
	if (o.stats && !r)
		print_stats(pd_session_stats(s));
	else if (!o.quiet)
		warn_about_errors(pd_session_stats(s));
	if (!o.quiet && !r)                   /* a failed run says one line */
		warn_about_skipped(pd_session_stats(s));
	ret = r ? 1 : 0;
out:
	ksyms_free(ks);
	pd_session_close(s);
	cat_script_free(&canned);
	return ret;
}
