/* trace_report.c - trace-report: read a perf.data recording and print its
 * events as `perf script` does (scripts come with the engines). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include "applets.h"
#include "args.h"
#include "catalogue.h"
#include "symbols/ksyms.h"
#include "perfdata/pd_pipeline.h"
#include "perfdata/pd_session.h"
#include "report/report_dlfilter.h"
#include "report/report_dump.h"
#include "report/report_filter.h"
#include "report/report_header.h"
#include "report/report_export.h"
#include "report/report_print.h"
#include "report/report_recover.h"
#include "report/report_script.h"
#include "symbols/symbols.h"
#include "report/report_compat.h"
#include "report/report_per_event.h"
#include "report/report_picture.h"
#include "report/report_select.h"
#include "report/report_side.h"
#include "tep_log.h"
#include "report/report_stat.h"
#include "xfuncs.h"

struct report_opts {
	const char *input, *script, *recover, *output, *export_to, *password_file;
	const char *symfs, *kallsyms, *vmlinux;
	int no_demangle;
	int header, header_only, nsecs, quiet, stats, verbose, dump;
	int reltime, deltatime, no_callchain;
	unsigned long max_stack, threads;
	struct opt_list fields;
	struct report_filter filter;       /* --pid, --tid, --comms, -C, --time */
	struct report_side_opts show;      /* --show-*-events */
	struct perf_compat pc;             /* perf script's other options */
	struct report_select sel;          /* -d, -S, --dsos, --switch-on/off */
	struct report_picture picture;     /* trace-report flamegraph|timechart */
};

static struct report_opts o;
static const struct opt report_opts_table[] = {
	{ 'i', "input", OPT_STR, &o.input, "FILE",
	  "recording to read (default perf.data; stdin when it is a pipe; - for stdin)" },
	{ 's', "script", OPT_STR, &o.script, "[LANG:]FILE",
	  "run a Python (.py) or Perl (.pl) trace script; the operands are its arguments; "
	  "-s lang lists the languages" },
	{ 0, "export", OPT_STR, &o.export_to, "TARGET",
	  "load the recording into sqlite:FILE, clickhouse://[USER[:PASS]@]HOST[:PORT][,...]/DB "
	  "or json:FILE|- (docs/export.md)" },
	{ 0, "export-password-file", OPT_STR, &o.password_file, "FILE",
	  "ClickHouse's password: the first line of FILE, which only its owner may read "
	  "(else CLICKHOUSE_PASSWORD, when the URL holds none)" },
	{ 0, "header", OPT_FLAG, &o.header, NULL, "print the recording's header before the events" },
	{ 0, "header-only", OPT_FLAG, &o.header_only, NULL, "print the header and stop" },
	{ 0, "ns", OPT_FLAG, &o.nsecs, NULL, "show timestamps in nanoseconds" },
	{ 'F', "fields", OPT_LIST, &o.fields, "[TYPE:][+-]FIELD,...",
	  "the columns, as perf script -F: TYPE hw, sw, trace, raw, break or synth; FIELD "
	  "comm, tid, pid, time, cpu, event, trace, ip, sym, dso, addr, symoff, period, "
	  "iregs, uregs, brstack, brstacksym, brstackoff, flags, data_src, weight, "
	  "bpf-output, phys_addr, misc, data_page_size, code_page_size, ins_lat, ... "
	  "(+FIELD adds, -FIELD removes)" },
	{ 0, "reltime", OPT_FLAG, &o.reltime, NULL, "show time stamps relative to the first sample" },
	{ 0, "deltatime", OPT_FLAG, &o.deltatime, NULL,
	  "show time stamps relative to the previous sample" },
	{ 0, "max-stack", OPT_UINT, &o.max_stack, "N", "print at most N frames of a stack (127)" },
	{ 'G', "hide-call-graph", OPT_FLAG, &o.no_callchain, NULL,
	  "print the ip, symbol and DSO on the line instead of the stack" },
	{ 'q', "quiet", OPT_FLAG, &o.quiet, NULL, "no end-of-run warnings" },
	{ 0, "threads", OPT_UINT, &o.threads, "N",
	  "read with N threads: 1, or 2 (the reading on a thread of its own, the same "
	  "output); by default TRACEBOX_THREADS, else 2 when more than one CPU is ours" },
	{ 0, "symfs", OPT_STR, &o.symfs, "DIR",
	  "look for every DSO (and perf's build-id cache, DIR/.debug) under DIR" },
	{ 0, "kallsyms", OPT_STR, &o.kallsyms, "FILE", "kernel symbols from FILE (kallsyms format)" },
	{ 'k', "vmlinux", OPT_STR, &o.vmlinux, "FILE", "kernel symbols from the vmlinux FILE" },
	{ 0, "no-demangle", OPT_FLAG, &o.no_demangle, NULL, "print C++ symbol names as they are mangled" },
	{ 'D', "dump-raw-trace", OPT_FLAG, &o.dump, NULL,
	  "dump every record as perf script -D does (raw bytes, then decoded)" },
	{ 'v', "verbose", OPT_FLAG, &o.verbose, NULL, "perf's debug lines too: build ids received, the kernel symbols' source, default fields dropped" },
	{ 0, "pid", OPT_STR, &o.filter.pid_str, "PID[,PID...]", "only samples of these processes" },
	{ 0, "tid", OPT_STR, &o.filter.tid_str, "TID[,TID...]", "only samples of these threads" },
	{ 'c', "comms", OPT_STR, &o.filter.comm_str, "COMM[,COMM...]",
	  "only samples of threads with these names" },
	{ 0, "comm", OPT_STR, &o.filter.comm_str, "COMM[,COMM...]", "same as --comms" },
	{ 'C', "cpu", OPT_STR, &o.filter.cpu_str, "CPUS", "only samples taken on these cpus (0-3,6)" },
	{ 0, "time", OPT_STR, &o.filter.time_str, "START,STOP",
	  "only samples in this time range (seconds as perf prints them; "
	  "ranges separated by spaces; or percent slices: 10%/2, 0%-10%,30%-40%)" },
	{ 0, "show-task-events", OPT_FLAG, &o.show.task, NULL, "print COMM, FORK and EXIT records" },
	{ 0, "show-mmap-events", OPT_FLAG, &o.show.mmap, NULL, "print MMAP and MMAP2 records" },
	{ 0, "show-lost-events", OPT_FLAG, &o.show.lost, NULL, "print LOST records" },
	{ 0, "show-switch-events", OPT_FLAG, &o.show.swtch, NULL, "print context-switch records" },
	{ 0, "show-namespace-events", OPT_FLAG, &o.show.ns, NULL, "print NAMESPACES records" },
	{ 0, "show-cgroup-events", OPT_FLAG, &o.show.cgroup, NULL, "print CGROUP records" },
	{ 0, "show-bpf-events", OPT_FLAG, &o.show.bpf, NULL, "print KSYMBOL and BPF_EVENT records" },
	{ 0, "stats", OPT_FLAG, &o.stats, NULL,
	  "print record counts and lost events instead of the events" },
	{ 0, "recover", OPT_STR, &o.recover, "FILE",
	  "write FILE, a recording whose recorder was killed (or whose disk filled), "
	  "to -o as the finished file perf's tools read" },
	{ 'o', "output", OPT_STR, &o.output, "NEW", "with --recover: the file to write" },
	REPORT_COMPAT_OPTS(o.pc),
	OPT_TABLE_END
};

static const struct applet_help report_help = {
	"trace-report", "[-i FILE] [--header|--header-only] [--ns] [--stats] [-q] [-D] [-v]\n"
	"       [-F FIELDS] [--reltime|--deltatime] [--max-stack N] [-G]\n"
	"       [--pid PIDS] [--tid TIDS] [--comm COMMS] [-C CPUS] [--time START,STOP]\n"
	"       [--show-task-events] [--show-mmap-events] [--show-lost-events] ...\n"
	"       trace-report [-i FILE] -s [LANG:]SCRIPT [ARGS...]\n"
	"       trace-report [-i FILE] NAME [ARGS...]   (canned script NAME, see trace-list)\n"
	"       trace-report [-i FILE] flamegraph|timechart [OPTIONS]   (a picture: NAME --help)\n"
	"       trace-report --recover FILE -o NEW\n"
	"       trace-report [-i FILE] --export sqlite:FILE|json:FILE|clickhouse://HOST/DB\n"
	"       trace-report [-i FILE] --export-password-file FILE --export clickhouse://USER@HOST/DB",
	"Print every sample of a perf.data recording exactly as 'perf script'\n"
	"prints it: comm, tid, [cpu], time, period, event name, then a\n"
	"tracepoint's fields as its print format renders them, or the ip with\n"
	"its symbol and DSO, the stack under the line for -g recordings. Reads\n"
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
	if (st->skipped_features[0] | st->skipped_features[1] | st->skipped_features[2] |
	    st->skipped_features[3]) {
		char list[256 * 5];      /* "255, " at most 256 times */
		size_t len = 0;
		int n = 0;

		list[0] = 0;
		for (int f = 0; f < 256; f++)
			if (st->skipped_features[f / 64] >> (f % 64) & 1)
				len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d",
							n++ ? ", " : "", f);
		warn_msg("warning: skipped feature bit%s %s (unknown to perf 6.1 and tracebox)",
			 n > 1 ? "s" : "", list);
	}
	if (st->nr_unknown_records) {
		char list[8 * 12 + 8];   /* at most 8 types, then ", ..." */
		size_t len = 0;

		list[0] = 0;
		for (unsigned i = 0; i < st->nr_unknown_types; i++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%u",
						i ? ", " : " ", st->unknown_types[i]);
		warn_msg("warning: skipped %llu record%s of unknown type%s%s",
			 (unsigned long long)st->nr_unknown_records,
			 st->nr_unknown_records > 1 ? "s" : "", list,
			 st->nr_unknown_types == 8 ? ", ..." : "");
	}
	if (st->nr_big_attrs)
		warn_msg("warning: %u attrs larger than perf 6.1's 128 bytes (up to %u): "
			 "the bytes past 128 were ignored%s", st->nr_big_attrs, st->big_attr_size,
			 st->big_attr_nonzero ? ", and some were not 0" : "");
	/* perf's words for READ values of an id no attr lists; said only
	 * after a clean run, as a misread sample would make them up.
	 * perf 6.1: util/session.c perf_session__warn_about_errors (ui__warning) */
	if (st->nr_unknown_id)
		perf_msg("Warning:\n%u samples with id not present in the header\n",
			 (unsigned)st->nr_unknown_id);
	if (st->decomp_tail)
		warn_msg("warning: the compressed data ends with %llu bytes of a cut record",
			 (unsigned long long)st->decomp_tail);
}

/* perf_session__warn_about_errors, the parts a tracepoint recording can meet. */
static void warn_about_errors(const struct pd_stats *st)
{
	uint64_t samples = st->nr_records[PD_REC_SAMPLE];

	/* perf 6.1: util/session.c perf_session__warn_about_errors (ui__warning),
	 * not when it printed the LOST records */
	if (st->nr_records[PD_REC_LOST] && !o.show.lost)
		perf_msg("Warning:\nProcessed %d events and lost %d chunks!\n\n"
			 "Check IO/CPU overload!\n\n", (int)st->nr_total,
			 (int)st->nr_records[PD_REC_LOST]);
	if (st->nr_lost_samples) {
		double drop = (double)st->nr_lost_samples /
			      (double)(samples + st->nr_lost_samples);

		/* perf 6.1: util/session.c perf_session__warn_about_errors (ui__warning) */
		if (drop > 0.05)
			perf_msg("Warning:\nProcessed %llu samples and lost %3.2f%%!\n\n",
				 (unsigned long long)(samples + st->nr_lost_samples), drop * 100.0);
	}
	/* perf 6.1: util/session.c perf_session__warn_about_errors (ui__warning) */
	if (st->nr_unordered)
		perf_msg("Warning:\n%u out of order events recorded.\n",
			 (unsigned)st->nr_unordered);
	if (st->unfinished)
		warn_msg("warning: the recording was not finished (trace-record was killed or its "
			 "disk filled): read %llu records up to offset 0x%llx%s", (unsigned long long)
			 st->nr_total, (unsigned long long)st->cut_off,
			 st->cut_bytes ? ", ignored the cut record after it" : "");
}

/* perf warns when the reading ends, before the script's trace_end runs. */
static void warn_script_errors(struct pd_session *s)
{
	warn_about_errors(pd_session_stats(s));
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
		warn_msg_at(path, lost.code, &lost);
	*shown = nr;
}

static const char *default_input(void)
{
	struct stat st;

	if (!fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode))
		return "-";
	return "perf.data";
}

/* The default: every sample printed as perf script prints it. Returns
 * the exit status. */
static int print_events(struct pd_session *s, const char *path, unsigned *lost)
{
	struct report_per_event pe = { 0 };
	struct report_print pr;
	struct pd_consumer c = { 0 }, head;
	struct ksyms *ks = NULL;
	struct tb_err err = { 0 };
	int r;

	if (report_print_init(&pr, s, stdout, o.nsecs)) {
		error_msg("out of memory");
		return 1;
	}
	pr.rf.verbose = o.verbose;
	pr.latency = o.pc.latency;
	if (report_print_setup(&pr, o.fields.items, o.fields.nr, o.reltime, o.deltatime,
			       o.no_callchain, o.max_stack)) {
		report_print_finish(&pr);
		return 1;
	}
	/* fields that name no code (-F comm,tid,time), or --stats: no symbols
	 * read ahead */
	{
		uint64_t any = 0;

		for (int t = 0; t < RF_NR_TYPES; t++)
			any |= pr.rf.t[t].fields;
		if (o.stats || !(any & (RF_IP | RF_SYM | RF_DSO | RF_ADDR | RF_SYMOFFSET | RF_BRSTACK |
					RF_BRSTACKSYM | RF_BRSTACKOFF | RF_CALLINDENT)))
			sym_machine_set_prefetch(pd_session_symbols(s), 0);
		sym_machine_read_ahead(pd_session_symbols(s));
	}
	/* perf resolves kernel addresses in file mode only: in pipe mode the
	 * tracing data arrives after it sets up its resolver. */
	if (!pd_session_is_pipe(s))
		ks = ksyms_attach(pd_session_tep(s), "/proc/kallsyms",
				  &pd_session_stats(s)->nr_kernel_mmaps);
	xstdout_buffer();
	c.ctx = &pr;
	c.sample = o.stats ? NULL : report_print_sample;
	if (o.pc.per_event_dump && !o.stats) {
		if (report_per_event_open(&pe, &pr, s, path)) {
			report_per_event_close(&pe);
			report_print_finish(&pr);
			return 1;
		}
		c.ctx = &pe;       /* report_stat_table takes no context */
		c.sample = report_per_event_sample;
	}
	c.stat_round = o.stats ? NULL : report_stat_table;
	o.filter.flush = report_print_flush;
	o.filter.flush_ctx = &pr;
	if (o.filter.side)           /* side-band lines take -F as the samples do */
		o.filter.side->rf = &pr.rf;
	report_filter_wrap(&o.filter, &c, &head);
	r = pd_session_process(s, &head, &err);
	if (report_print_finish(&pr) && !r)
		r = -1;
	if (pe.files && report_per_event_close(&pe) && !r)
		r = -1;
	tep_log_flush(r == 0);           /* a failed run says one line */
	warn_lost_features(s, path, lost);
	if (!stdout_ok()) {
		r = r ? r : -1;
	} else if (r && !(r == TB_ERR_STOP && !err.code)) {    /* STOP: the printer said why */
		error_msg_at(path, r, &err);
	}
	for (const char *w; (w = sym_machine_next_warning(pd_session_symbols(s)));)
		/* perf 6.1: util/symbol.c dso__load_kernel_sym, dso__load_vmlinux
		 * (pr_warning, pr_debug): common/symbols words them as perf does */
		if (!o.quiet)
			perf_msg("%s\n", w);
	if (o.stats && !r)
		print_stats(pd_session_stats(s));
	else if (!o.quiet)
		warn_about_errors(pd_session_stats(s));
	if (!o.quiet && !r)                   /* a failed run says one line */
		warn_about_skipped(pd_session_stats(s));
	ksyms_free(ks);
	return r ? 1 : 0;
}

/* What needs no recording: --recover, -s lang, the canned script's name.
 * Returns an exit status, or -1 to go on reading the recording. */
static int early_modes(int argc, char **argv, int first, struct cat_script *canned)
{
	int r;

	if (o.recover)
		return report_recover(o.recover, o.output);
	if (o.output) {
		error_msg("-o is for --recover (%s prints on stdout)", applet_name);
		return 1;
	}
	if (o.script && (!strcasecmp(o.script, "lang") || !strcmp(o.script, "list"))) {
		report_list_languages();
		return 0;
	}
	if (!o.script && first < argc && picture_find(argv[first]))
		return report_picture_args(&o.picture, argc - first, argv + first);
	if (!o.script && first < argc) {
		r = cat_find(scripts_dir(), argv[first], CAT_REPORT, canned);
		if (r == -1 && !have_scripts() && !strchr(argv[first], '/'))
			no_scripts_msg();
		else if (r == -1)
			error_msg("'%s' is neither an option nor a canned script (trace-list "
				  "lists them)", argv[first]);
		else if (r)
			error_msg("out of memory");
		if (r)
			return 1;
		o.script = canned->script;
	}
	return -1;
}

/* -g LANG: perf's perf-script.EXT, as trace-gen writes it. */
static int gen_script(const char *lang)
{
	char *av[] = { (char *)"trace-gen", (char *)"-g", (char *)lang, (char *)"-i",
		       (char *)(o.input ? o.input : default_input()), NULL };

	if (!engine_find(lang)) {
		/* perf 6.1: builtin-script.c cmd_script (fprintf, no newline) */
		perf_msg("invalid language specifier");
		return 254;
	}
	return applet_find("trace-gen")->main(5, av);
}

/* A password in --export's URL leaves argv (what ps shows) now: the
 * option's bytes there become the URL without it; @own gets the whole URL. */
static void hide_password(char **own)
{
	char *shown = export_shown(o.export_to);
	size_t n = strlen(o.export_to), k;

	if (!shown || !strcmp(shown, o.export_to)) {
		free(shown);
		return;
	}
	*own = xasprintf("%s", o.export_to);
	k = strlen(shown);
	memcpy((char *)o.export_to, shown, k);
	memset((char *)o.export_to + k, 0, n - k);
	o.export_to = *own;
	free(shown);
}

/* What is decided before the recording is read: perf script's own early
 * options (report_compat.c), -g, --recover, -s lang, a canned name, and
 * perf's check of -k and --kallsyms. Returns an exit status, or -1 to go on. */
static int before_reading(int argc, char **argv, int first, struct cat_script *canned)
{
	int r;

	if ((r = report_compat_early(&o.pc)) >= 0 ||
	    (r = report_compat_fields(&o.pc, &o.fields, &o.nsecs)))
		return r;
	/* perf script: any guest option enables guest sample processing */
	o.filter.keep_guest = o.pc.guest_code || o.pc.guestkallsyms || o.pc.guestmodules ||
			      o.pc.guestmount || o.pc.guestvmlinux;
	if (o.pc.xed && report_compat_xed())
		return 1;
	if (o.pc.gen_lang)
		return gen_script(o.pc.gen_lang);
	if ((r = early_modes(argc, argv, first, canned)) >= 0)
		return r;
	/* perf 6.1: util/symbol.c symbol__validate_sym_arguments (pr_err), before the data */
	if ((o.vmlinux && access(o.vmlinux, R_OK)) || (o.kallsyms && access(o.kallsyms, R_OK))) {
		perf_msg("Invalid file: %s\n", o.vmlinux && access(o.vmlinux, R_OK) ?
			 o.vmlinux : o.kallsyms);
		return 255;
	}
	return -1;
}

/* The symbols machine, kallsyms read ahead when stacks or sampled ips
 * want kernel symbols; -v's build-id lines. 0, or -1 after saying why. */
static int use_symbols(struct pd_session *s)
{
	struct sym_opts so = { .symfs = o.symfs, .kallsyms = o.kallsyms, .vmlinux = o.vmlinux,
			       .no_demangle = o.no_demangle, .verbose = o.verbose,
			       .full_source_path = o.pc.full_source_path,
			       .no_inline = o.pc.no_inline,
			       .one_thread = pd_pipeline_threads(o.threads > 2 ? 2 : (int)o.threads) < 2 };

	for (size_t i = 0; i < pd_session_nr_evsels(s); i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);

		so.prefetch_kernel |= (e->sample_type & PD_S_CALLCHAIN) ||
				      (e->type != PD_TYPE_TRACEPOINT &&
				       !(e->type == PD_TYPE_SOFTWARE && e->config == 9 /* dummy */));
	}
	if (pd_session_use_symbols(s, &so)) {
		error_msg("out of memory");
		return -1;
	}
	/* -v: the build ids perf reports on reading the header.
	 * perf 6.1: util/header.c __event_process_build_id (pr_debug) */
	for (const char *w; o.verbose && (w = sym_machine_next_warning(pd_session_symbols(s)));)
		perf_msg("%s\n", w);
	return 0;
}

/* --show-*-events' printer and -D's dumper (unsorted: perf's
 * ordered_events = false, as --show-round-events has it too). */
static void set_up_side_and_dump(struct pd_session *s, const char *path, struct report_side *side,
				 struct report_dump *dump)
{
	side->session = s;
	side->out = stdout;
	side->nsecs = o.nsecs;
	side->latency = o.pc.latency;
	side->types = report_side_types(&o.show);
	o.filter.side = side->types ? side : NULL;
	report_dump_init(dump, s, stdout, path);
	dump->show_lost = o.show.lost;
	dump->defer_exit = o.show.task;
	if (o.pc.dump_unsorted)
		o.dump = 1;
	dump->unordered = o.pc.dump_unsorted || o.pc.show_round;
	if (dump->unordered)
		pd_session_set_unordered(s);
	o.filter.show_round = o.pc.show_round;
	o.filter.dump = o.dump ? dump : NULL;
	if (o.dump)
		report_dump_begin(dump);
}

/* perf script's checks once the recording is open, -d/-S/--dsos/
 * --switch-on/off, --graph-function and --dlfilter. An exit status, or -1. */
static int set_up_selection(struct pd_session *s)
{
	int r;

	if ((r = report_compat_check(&o.pc, s)) >= 0)
		return r;
	o.sel.debug_mode = o.pc.debug_mode;
	o.sel.show_on_off = o.pc.show_on_off;
	o.sel.sym_str = o.pc.symbols;
	o.sel.dso_str = o.pc.dsos;
	o.sel.addr_range = o.pc.addr_range;
	o.sel.on_str = o.pc.switch_on;
	o.sel.off_str = o.pc.switch_off;
	o.sel.graph_function = o.pc.graph_function;
	if ((r = report_select_init(&o.sel, s)))
		return r;
	if (o.sel.debug_mode || o.sel.nr_syms || o.sel.nr_dsos || o.sel.on || o.sel.off ||
	    o.sel.graph_function)
		o.filter.select = &o.sel;      /* none asked for: no call per sample */
	if (o.pc.dlfilter &&
	    (r = report_dlfilter_open(&o.filter.dlfilter, o.pc.dlfilter, (char **)o.pc.dlargs.items,
				      o.pc.dlargs.nr, s)))
		return r;
	return -1;
}

/* Open @path and set up what every run over it needs: the symbols, the
 * header lines, side-band and dump printers, the selections, the filters.
 * Returns an exit status, or -1 with *@s open. */
static int open_recording(const char *path, struct pd_session **s, struct report_side *side,
			  struct report_dump *dump, unsigned *lost)
{
	struct tb_err err = { 0 };
	int fd, r;

	fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : dup(STDIN_FILENO);
	if (fd < 0) {
		perror_msg("%s", path);
		return 1;
	}
	if ((r = pd_session_open(s, path, fd, &err))) {
		error_msg_at(path, r, &err);
		return 1;
	}
	warn_lost_features(*s, path, lost);
	pd_session_set_threads(*s, o.threads > 2 ? 2 : (int)o.threads);
	if (use_symbols(*s))
		return 1;
	if (o.header || o.header_only)
		report_print_header(stdout, *s, path, o.header_only, o.pc.show_info);
	if (o.header_only) {
		tep_log_flush(1);
		return 0;
	}
	set_up_side_and_dump(*s, path, side, dump);
	if ((r = set_up_selection(*s)) >= 0)
		return r;
	if (report_filter_init(&o.filter, *s))
		return 1;
	return -1;
}

/* trace-report flamegraph|timechart: the picture over its recording, or
 * over BEFORE then AFTER for --diff. */
static int run_pictures(struct report_side *side, struct report_dump *dump)
{
	const char *in[2];
	int n = report_picture_inputs(&o.picture, o.input ? o.input : default_input(), in);
	int ret = 0, r = -1;

	for (int i = 0; i < n && !ret; i++) {
		struct pd_session *s = NULL;
		unsigned lost = 0;

		if ((r = open_recording(in[i], &s, side, dump, &lost)) >= 0)
			ret = r;
		else
			ret = report_picture_run(&o.picture, s, in[i], &o.filter, i + 1 < n);
		if (!ret && !o.quiet)
			warn_about_errors(pd_session_stats(s));
		report_filter_free(&o.filter);
		pd_session_close(s);
		if (r == 0)
			break;
	}
	report_picture_free(&o.picture);
	return ret;
}

int trace_report_main(int argc, char **argv)
{
	struct pd_session *s = NULL;
	struct report_side side = { 0 };
	struct report_dump dump;
	const char *path;
	struct cat_script canned = { 0 };
	char *export_to = NULL;
	int r, first, ret = 1;
	unsigned lost = 0;

	memset(&o, 0, sizeof(o));
	o.max_stack = 127;
	first = args_parse(&report_help, argc, argv);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (o.export_to)
		hide_password(&export_to);
	if (o.password_file && !o.export_to) {
		error_msg("--export-password-file is for --export clickhouse://...");
		goto out;
	}
	if ((r = before_reading(argc, argv, first, &canned)) >= 0) {
		ret = r;
		goto out;
	}
	tep_log_like_perf();
	if (o.picture.ops) {
		ret = run_pictures(&side, &dump);
		goto out;
	}
	path = o.input ? o.input : default_input();
	if ((r = open_recording(path, &s, &side, &dump, &lost)) >= 0) {
		ret = r;
		goto out;
	}
	if (o.export_to) {
		ret = report_run_export(s, path, o.export_to, o.password_file);
		if (!o.quiet)
			warn_about_errors(pd_session_stats(s));
		goto out;
	}
	if (o.script) {
		/* the script's argv: [script, operands after the options...] */
		int skip = o.script == canned.script ? 0 : 1;   /* argv[0] becomes the script */

		tep_log_flush(1);
		ret = report_run_script(s, path, o.script, argc - first + skip, argv + first - skip,
					&o.filter, o.quiet ? NULL : warn_script_errors);
		if (!o.quiet && ret == 0)     /* a failed run says one line */
			warn_about_skipped(pd_session_stats(s));
		report_select_end(&o.sel);
		goto out;
	}
	ret = print_events(s, path, &lost);
	report_select_end(&o.sel);
out:
	report_dlfilter_close(o.filter.dlfilter);
	report_select_free(&o.sel);
	report_filter_free(&o.filter);
	pd_session_close(s);
	cat_script_free(&canned);
	free(o.fields.items);
	free(o.pc.dlargs.items);
	if (export_to) {
		explicit_bzero(export_to, strlen(export_to));
		free(export_to);
	}
	return ret;
}
