/* trace_record.c - trace-record: record tracepoints into a perf.data file
 * (or a pipe) that perf script and trace-report read. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include "applets.h"
#include "args.h"
#include "catalogue.h"
#include "util/cpulist.h"
#include "util/payload.h"
#include "perfdata/pd_compressed.h"
#include "record/pd_wbuild.h"
#include "record/pd_writer.h"
#include "record/record_events.h"
#include "record/record_profile.h"
#include "record/recorder.h"
#include "record/synth.h"
#include "tracepoint/syscall_map.h"
#include "record/td_write.h"
#include "tracepoint/tracefs.h"
#include "record/record_callgraph.h"
#include "xfuncs.h"

#define DEFAULT_PAGES 2048        /* 8 MiB per CPU: a syscall storm loses nothing */
#define TRACEBOX_VERSION "tracebox 0.1"

static struct {
	int all, quiet, self, compress, callchain, data, verbose, no_bid_cache, no_bid;
	const char *cpus, *output, *pid, *freq, *call_graph, *user_regs;
	struct rec_callgraph cg;
	unsigned long period, pages, level;
	struct opt_list events;
} o;

static const struct opt record_opts[] = {
	{ 'a', "all-cpus", OPT_FLAG, &o.all, NULL, "record on every CPU, every task (system-wide)" },
	{ 'C', "cpu", OPT_STR, &o.cpus, "CPUS", "record on these CPUs only (0-3,6); implies -a" },
	{ 'p', "pid", OPT_STR, &o.pid, "PID", "record the threads of process PID" },
	{ 'e', "event", OPT_LIST, &o.events, "EVENT",
	  "SYS:EVENT ('sched:*'), cpu-clock, page-faults, cycles... (repeat, or a,b)" },
	{ 'c', "count", OPT_UINT, &o.period, "PERIOD",
	  "sample every PERIOD events (default: 1 for tracepoints, else -F)" },
	{ 'F', "freq", OPT_STR, &o.freq, "FREQ",
	  "sample FREQ times a second, or max (default 4000)" },
	{ 'g', NULL, OPT_FLAG, &o.callchain, NULL, "record callchains (--call-graph fp)" },
	{ 0, "call-graph", OPT_STR, &o.call_graph, "fp|dwarf[,SIZE]",
	  "callchains by frame pointers, or user registers and SIZE bytes of user\n"
	  "stack (8192) per sample, unwound with DWARF when read" },
	{ 0, "user-regs", OPT_STR, &o.user_regs, "REGS",
	  "sample these user registers (perf's names: ip,sp,...)" },
	{ 'd', "data", OPT_FLAG, &o.data, NULL, "record data mmaps and sample addresses" },
	{ 'N', "no-buildid-cache", OPT_FLAG, &o.no_bid_cache, NULL,
	  "do not copy the DSOs hit into the build-id cache (~/.debug)" },
	{ 'B', "no-buildid", OPT_FLAG, &o.no_bid, NULL,
	  "do not list the build ids of the DSOs hit (nor cache them)" },
	{ 'v', "verbose", OPT_FLAG, &o.verbose, NULL, "say when an event falls back" },
	{ 'm', "mmap-pages", OPT_UINT, &o.pages, "PAGES",
	  "ring buffer pages per CPU, a power of two (default 2048)" },
	{ 'o', "output", OPT_STR, &o.output, "FILE", "output file, - for a pipe (default perf.data)" },
	{ 'q', "quiet", OPT_FLAG, &o.quiet, NULL, "no summary line" },
	{ 'z', NULL, OPT_FLAG, &o.compress, NULL,
	  "compress the samples with zstd, as perf record -z (level 1)" },
	{ 0, "compression-level", OPT_UINT, &o.level, "N",
	  "compress at zstd level N (1-22; implies -z)" },
	{ 0, "self", OPT_FLAG, &o.self, NULL, "system-wide, also record trace-record's own events" },
	OPT_TABLE_END
};

static const struct applet_help record_help = {
	"trace-record",
	"[-a] [-C CPUS] [-p PID] [-e EVENT]... [-g] [--call-graph fp|dwarf[,SIZE]]\n"
	"                    [--user-regs REGS] [-F FREQ|-c PERIOD] [-d] [-m PAGES]\n"
	"                    [-o FILE|-] [-q] [-z] [-N] [-B] [-v] [--self]\n"
	"                    [[--] COMMAND [ARGS]]\n"
	"       trace-record NAME [ARGS]     (canned recording NAME, see trace-list)",
	"Record kernel tracepoints, and profiles with stacks (perf's software and\n"
	"hardware events), with perf_event_open into a perf.data file that\n"
	"'perf script' and trace-report read. With COMMAND, record it (and its\n"
	"children) until it exits and return its exit status; with -a, the whole\n"
	"system; with neither, the whole system until SIGINT or SIGTERM.\n"
	"System-wide, trace-record filters out its own tracepoint events (--self\n"
	"keeps them). EVENT is a tracepoint or an event perf names: cpu-clock,\n"
	"task-clock, page-faults, minor-faults, major-faults, context-switches,\n"
	"cpu-migrations, cycles, instructions... (cycles falls back to cpu-clock\n"
	"without a hardware PMU, as perf); no -e records perf's default event.\n"
	"The file holds the tracepoint formats from tracefs, the comm of every\n"
	"thread, and the syscall map (from the kernel's tracefs syscall_map when\n"
	"it has one, else a table built from linux-source), and, as perf record,\n"
	"the mappings of the processes recorded and the build ids of the files\n"
	"sampled (copied into perf's build-id cache, ~/.debug, unless -N).",
	record_opts
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* A canned recording ([LANG:]NAME, see engines/catalogue.h): its
 * scripts/LANG/bin/NAME-record. One that is only `exec trace-record
 * WORDS "$@"` runs here, without a shell; any other runs under /bin/sh
 * with trace-record first in PATH (sh -c TEXT when the binary carries it). */
int trace_record_main(int argc, char **argv);

/* The pictures' canned recordings (trace-report flamegraph --offcpu,
 * trace-report timechart), built in: no script tree needed. */
/* --self: a switch to or from the recorder is half of another task's story */
static const char *const offcpu_words[] = { "-a", "--self", "-g", "-e", "sched:sched_switch", NULL };
static const char *const timechart_words[] = {
	"-a", "--self", "-e", "sched:sched_switch", "-e", "sched:sched_wakeup", "-e", "sched:sched_wakeup_new",
	"-e", "sched:sched_process_exit", NULL
};
static const struct builtin_canned {
	const char *name;
	const char *const *words;
} builtin_canned[] = {
	{ "offcpu", offcpu_words },
	{ "timechart", timechart_words },
};

/* @name's built-in recording with @argc/@argv after its words, or -1. */
static int run_builtin_canned(const char *name, int argc, char **argv)
{
	for (size_t i = 0; i < sizeof(builtin_canned) / sizeof(builtin_canned[0]); i++) {
		const char *const *w = builtin_canned[i].words;
		char **args;
		int n = 0, r;

		if (strcmp(name, builtin_canned[i].name))
			continue;
		if (!(args = calloc((size_t)argc + 16, sizeof(*args)))) {
			error_msg("out of memory");
			return 1;
		}
		args[n++] = "trace-record";
		while (*w)
			args[n++] = (char *)*w++;
		for (int k = 0; k < argc; k++)
			args[n++] = argv[k];
		args[n] = NULL;
		r = trace_record_main(n, args);
		free(args);
		return r;
	}
	return -1;
}

static int run_canned(const char *name, int argc, char **argv)
{
	struct cat_script cs;
	char *newpath, **args = NULL, *text = NULL, *copy = NULL, **words = NULL;
	size_t len;
	int r = run_builtin_canned(name, argc, argv), n = 0, nw = -1;

	if (r >= 0)
		return r;
	r = cat_find(scripts_dir(), name, CAT_RECORD, &cs);
	if (r == TB_ERR_NOMEM)
		error_msg("out of memory");
	if (r)
		return r == -1 ? -1 : 1;
	if ((r = vfile_read(cs.descriptor, (unsigned char **)&text, &len))) {
		if (r == -1)
			perror_msg("cannot read %s", cs.descriptor);
		else
			error_msg("%s: %s", cs.descriptor, tb_strerror(r));
		cat_script_free(&cs);
		return 1;
	}
	if ((copy = strdup(text)))
		nw = cat_record_words(copy, &words);
	if (copy && nw != TB_ERR_NOMEM)
		args = calloc((size_t)argc + (nw > 0 ? (size_t)nw : 0) + 4, sizeof(*args));
	if (!args) {
		error_msg("out of memory");
		r = 1;
		goto out;
	}
	if (nw >= 0) {
		args[n++] = "trace-record";
		for (int i = 0; i < nw; i++)
			args[n++] = words[i];
		for (int i = 0; i < argc; i++)
			args[n++] = argv[i];
		r = trace_record_main(n, args);
		goto out;
	}
	args[n++] = "sh";
	if (payload_is(cs.descriptor)) {
		args[n++] = "-c";
		args[n++] = text;
	}
	args[n++] = cs.descriptor;
	for (int i = 0; i < argc; i++)
		args[n++] = argv[i];
	newpath = xasprintf("%s:%s", tracebox_dir(), getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
	setenv("PATH", newpath, 1);
	free(newpath);
	execv("/bin/sh", args);
	perror_msg("cannot run %s", cs.descriptor);
	r = 127;
out:
	free(words);
	free(copy);
	free(text);
	free(args);
	cat_script_free(&cs);
	return r;
}

/* Everything one recording owns; record_free() releases it all. */
struct record_run {
	int argc, first;            /* COMMAND is argv[first..] when first < argc */
	char **argv;
	char tfs[512];
	struct rec_evlist ev;
	int *cpus;
	long nr_cpus;
	pid_t *tids;
	long nr_tids;
	struct rec_opts ro;
	struct recorder rec;
	int recorder_open;
	struct pd_wattr *wattrs;    /* ev.nr of them, names allocated */
	struct syscall_map scmap;
	int have_scmap;
	struct pdw_features feats;
	struct pd_comp comp;        /* -z: the zstd stream of the samples */
	int have_comp;
	unsigned char *comp_feat;   /* its HEADER_COMPRESSED payload, in feats */
	const char *outpath, *shown;   /* shown: the output's name in messages */
	int out_fd, is_pipe;
	struct pd_writer w;
	struct synth_buf synth;
	pid_t child;
	int go_fd, err_fd, child_done, status;
	int write_failed;
	int system_wide, nr_tp;     /* nr_tp: the tracepoints among the events */
	struct dso_hits hits;       /* the files sampled, for HEADER_BUILD_ID */
	int track_hits;
	struct tb_err err;
};

static void record_free(struct record_run *r)
{
	if (r->child > 0 && !r->child_done) {
		kill(r->child, SIGKILL);
		waitpid(r->child, NULL, 0);
	}
	if (r->recorder_open)
		rec_close(&r->rec);
	if (r->go_fd >= 0)
		close(r->go_fd);
	if (r->err_fd >= 0)
		close(r->err_fd);
	if (r->out_fd >= 0)
		close(r->out_fd);
	pd_writer_free(&r->w);
	synth_free(&r->synth);
	dso_hits_free(&r->hits);
	pdw_features_free(&r->feats);
	if (r->have_comp)
		pd_comp_free(&r->comp);
	if (r->have_scmap)
		scmap_free(&r->scmap);
	for (size_t i = 0; r->wattrs && i < r->ev.nr; i++)
		free((char *)r->wattrs[i].name);
	free(r->wattrs);
	record_events_free(&r->ev);
	free(r->cpus);
	free(r->tids);
}

/* Fork COMMAND stopped on a pipe until the events are open. */
static int start_child(struct record_run *r)
{
	int go[2], ep[2];
	char **argv = r->argv + r->first;

	if (pipe2(go, O_CLOEXEC)) {
		perror_msg("cannot make a pipe");
		return -1;
	}
	if (pipe2(ep, O_CLOEXEC)) {
		perror_msg("cannot make a pipe");
		close(go[0]);
		close(go[1]);
		return -1;
	}
	r->child = fork();
	if (r->child == 0) {
		char c;
		int e;

		close(go[1]);
		close(ep[0]);
		/* -o -: stdout carries the recording, so COMMAND's output goes to stderr (as perf) */
		if (o.output && !strcmp(o.output, "-") && dup2(STDERR_FILENO, STDOUT_FILENO) < 0)
			_exit(127);
		if (read(go[0], &c, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(ep[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(ep[1]);
	r->go_fd = go[1];
	r->err_fd = ep[0];
	if (r->child < 0) {
		perror_msg("cannot fork");
		return -1;
	}
	return 0;
}

static long list_threads(pid_t pid, pid_t **tids)
{
	char path[64];
	struct dirent *e;
	DIR *d;
	long n = 0;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		pid_t t = (pid_t)atoi(e->d_name);
		pid_t *g;

		if (t <= 0)
			continue;
		g = realloc(*tids, (size_t)(n + 1) * sizeof(*g));
		if (!g) {
			closedir(d);
			return -2;
		}
		*tids = g;
		(*tids)[n++] = t;
	}
	closedir(d);
	return n;
}

/* The output's fd; an existing X is kept as X.old or refused (-2, said why). */
static int open_output(const char *path, int *is_pipe)
{
	struct stat st;
	int fd;

	if (!strcmp(path, "-")) {
		*is_pipe = 1;
		return dup(STDOUT_FILENO);
	}
	*is_pipe = 0;
	if (stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		char *old = xasprintf("%s.old", path);

		if (rename(path, old)) {     /* refuse rather than lose the old recording */
			perror_msg("cannot keep %s as %s", path, old);
			free(old);
			return -2;
		}
		free(old);
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	return fd;
}

/* Every CPU of -C must be online: else name it and list the online ones. */
static int check_cpus_online(struct record_run *r)
{
	int *on = NULL;
	long n = cpulist_online(&on);
	char list[512] = "";
	size_t len = 0;

	for (long i = 0; i < r->nr_cpus; i++) {
		long k = 0;

		while (k < n && on[k] != r->cpus[i])
			k++;
		if (k < n)
			continue;
		for (long j = 0; j < n && len + 16 < sizeof(list); j++)
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%d", j ? "," : "",
						on[j]);
		error_msg("no such CPU %d: the online CPUs are %s", r->cpus[i], n > 0 ? list : "unknown");
		free(on);
		return -1;
	}
	free(on);
	return 0;
}

/* Whether process @pid is gone (no /proc entry, or a zombie). */
static int process_gone(pid_t pid)
{
	char path[64], buf[512], *p;
	FILE *f;
	int gone = 1;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return 1;
	if (fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')')) && p[1] == ' ')
		gone = p[2] == 'Z' || p[2] == 'X';
	fclose(f);
	return gone;
}

/* tracefs, the events, the CPUs, the threads to follow, the command. */
static int record_targets(struct record_run *r)
{
	int system_wide = o.all || o.cpus || (!o.pid && r->first >= r->argc);

	if (o.pid)
		system_wide = 0;
	if (record_events_has_tracepoint(&o.events) && tracefs_find(r->tfs, sizeof(r->tfs), &r->err)) {
		error_msg("%s", r->err.msg);
		return -1;
	}
	if (record_events_resolve(r->tfs, &o.events, system_wide, o.callchain || o.data, &r->ev))
		return -1;
	r->system_wide = system_wide;
	/* system-wide tracepoints only: no mmap side-band (README) */
	r->ro.no_mmaps = system_wide && !record_events_profile(&r->ev, o.callchain || o.data);
	r->nr_cpus = o.cpus ? cpulist_parse(o.cpus, &r->cpus) : cpulist_online(&r->cpus);
	if (r->nr_cpus <= 0) {
		error_msg("bad CPU list '%s'", o.cpus ? o.cpus : "(online)");
		return -1;
	}
	if (o.cpus && check_cpus_online(r))
		return -1;
	/* perf 6.1: builtin-record.c cmd_record (target__validate, ui__warning) */
	if (o.pid && (o.all || o.cpus))
		perf_msg("Warning:\nPID/TID switch overriding SYSTEM\n");
	if (o.pid) {
		pid_t pid = (pid_t)atoi(o.pid);

		r->nr_tids = pid > 0 ? list_threads(pid, &r->tids) : -1;
		if (r->nr_tids == -2) {
			error_msg("out of memory");
			return -1;
		}
		if (r->nr_tids <= 0) {
			error_msg("no such process: %s", o.pid);
			return -1;
		}
	}
	if (r->first >= r->argc)
		return 0;
	if (start_child(r))
		return -1;
	if (!o.all && !o.cpus && !o.pid) {
		r->tids = malloc(sizeof(*r->tids));
		if (!r->tids) {
			error_msg("out of memory");
			return -1;
		}
		r->tids[0] = r->child;
		r->nr_tids = 1;
		r->ro.enable_on_exec = 1;
	}
	return 0;
}

static int record_open_events(struct record_run *r)
{
	r->ro.cpus = r->cpus;
	r->ro.nr_cpus = (size_t)r->nr_cpus;
	r->ro.tids = r->tids;
	r->ro.nr_tids = (size_t)r->nr_tids;
	if (record_sampling(&r->ro, o.freq, o.period))
		return -1;
	r->ro.callchain = o.callchain;
	r->ro.regs_user = o.cg.regs_user;
	r->ro.stack_user = o.cg.stack_size;
	r->ro.exclude_callchain_user = o.cg.dwarf;
	r->ro.sample_cpu = r->system_wide;
	r->ro.mmap_data = o.data;
	r->ro.pages = o.pages;
	r->ro.exclude_pid = (!r->tids && !o.self) ? getpid() : 0;
	if (rec_open(&r->rec, r->ev.evs, r->ev.nr, &r->ro, &r->err)) {
		error_msg("%s", r->err.msg);
		return -1;
	}
	r->recorder_open = 1;
	for (size_t i = 0; i < r->ev.nr; i++)
		/* perf 6.1: builtin-record.c record__open (evsel__fallback, ui__warning
		 * with -v, not -q) */
		if (r->ev.evs[i].fell_back && o.verbose && !o.quiet)
			perf_msg("Warning:\nThe %s event is not supported, trying to fall back "
				 "to cpu-clock-ticks\n", r->ev.evs[i].name);
	return 0;
}

/* perf's mmap_len: the ring and its control page, the most one drain (and so
 * one COMPRESSED record) decompresses to. */
static uint32_t ring_bytes(void)
{
	return (uint32_t)((o.pages + 1) * (unsigned long)sysconf(_SC_PAGESIZE));
}

/* -z: the zstd stream and its HEADER_COMPRESSED feature (the ratio is
 * filled in at the end). */
static int record_compression(struct record_run *r)
{
	if (o.level > 22) {
		error_msg("--compression-level %lu: zstd has levels 1 to 22", o.level);
		return -1;
	}
	if (pd_comp_init(&r->comp, o.level ? (int)o.level : 1, &r->err)) {
		error_msg("%s", r->err.msg);
		return -1;
	}
	r->have_comp = 1;
	r->comp_feat = malloc(PD_COMP_FEATURE_SIZE);
	if (r->comp_feat)
		pd_comp_feature(r->comp_feat, &r->comp, ring_bytes());
	if (pdw_features_add(&r->feats, PD_FEAT_COMPRESSED, r->comp_feat, PD_COMP_FEATURE_SIZE)) {
		error_msg("out of memory");
		return -1;
	}
	return 0;
}

/* What goes in the file besides the samples: attrs, tracing data, features. */
static int record_features(struct record_run *r)
{
	struct td_event_name *names = calloc(r->ev.nr, sizeof(*names));
	unsigned char *td = NULL;
	size_t td_len = 0;
	struct utsname u;
	int rc;

	r->wattrs = calloc(r->ev.nr, sizeof(*r->wattrs));
	if (!names || !r->wattrs) {
		free(names);
		error_msg("out of memory");
		return -1;
	}
	for (size_t i = 0; i < r->ev.nr; i++) {
		if (r->ev.evs[i].kind != REC_TRACEPOINT)
			continue;
		names[r->nr_tp].system = r->ev.evs[i].system;
		names[r->nr_tp++].name = r->ev.evs[i].name;
	}
	/* tracing data only for tracepoints, as perf */
	rc = r->nr_tp ? td_build(r->tfs, names, (size_t)r->nr_tp, &td, &td_len, &r->err) : 0;
	free(names);
	if (rc) {
		error_msg("tracing data: %s", r->err.msg);
		return -1;
	}
	for (size_t i = 0; i < r->ev.nr; i++) {
		struct rec_event *e = &r->ev.evs[i];

		rec_attr(&r->rec, &r->ro, i, r->wattrs[i].attr);
		r->wattrs[i].ids = e->ids;
		r->wattrs[i].nr_ids = e->nr_ids;
		r->wattrs[i].name = record_event_name(e);
	}
	if (!r->nr_tp)
		;                 /* no syscall map without tracepoints */
	else if (uname(&u) == 0 && scmap_load(&r->scmap, r->tfs, u.machine, &r->err) == 0)
		r->have_scmap = 1;
	else if (!o.quiet)
		warn_msg("no syscall map recorded: %s", r->err.msg);
	/* the features own td from here, whatever the outcome */
	if (pdw_features_build(&r->feats, td, td_len, TRACEBOX_VERSION, r->argc, r->argv,
			       r->wattrs, r->ev.nr, r->have_scmap ? &r->scmap : NULL)) {
		error_msg("out of memory");
		return -1;
	}
	if (o.no_bid)             /* as perf record -B: no BUILD_ID feature at all */
		pdw_features_remove(&r->feats, PD_FEAT_BUILD_ID);
	return o.compress || o.level ? record_compression(r) : 0;
}

/* The kernel's map, the threads already running (all, the -p process, or
 * the child) with their maps (not the child's: it has not run COMMAND
 * yet, the kernel reports its maps), in the tracking event's trailer. */
static void feed_hits(void *ctx, const struct iovec *iov, int n)
{
	dso_hits_feed(ctx, iov, n);
}

static long record_synth(struct record_run *r)
{
	const struct rec_event *t = &r->ev.evs[rec_tracking(r->ev.evs, r->ev.nr)];
	pid_t synth_pid = o.pid ? (pid_t)atoi(o.pid) : r->child;
	struct perf_event_attr a;
	long n;

	memcpy(&a, r->wattrs[0].attr, sizeof(a) < 128 ? sizeof(a) : 128);
	r->synth.sample_type = a.sample_type;
	r->synth.id = t->nr_ids ? t->ids[0] : 0;
	r->synth.maps = (r->system_wide || o.pid) && !r->ro.no_mmaps;
	r->synth.data_maps = o.data;
	synth_kernel_mmap(&r->synth);
	n = synth_threads(&r->synth, r->tids ? &synth_pid : NULL, r->tids ? 1 : 0);
	if (n >= 0 && r->track_hits) {
		struct iovec v = { r->synth.b.p, r->synth.b.len };

		dso_hits_feed(&r->hits, &v, 1);
	}
	return n;
}

/* The output, its header, and the names of the threads already running. */
static int record_start_output(struct record_run *r)
{
	int rc;

	r->outpath = o.output ? o.output : "perf.data";
	r->out_fd = open_output(r->outpath, &r->is_pipe);
	if (r->out_fd == -1)
		perror_msg("%s", r->outpath);
	if (r->out_fd < 0)
		return -1;
	r->shown = r->is_pipe ? "(stdout)" : r->outpath;
	/* perf record's build-id pass, done as the records go by */
	if (!r->is_pipe && !o.no_bid) {
		struct perf_event_attr a;

		memcpy(&a, r->wattrs[0].attr, sizeof(a) < 128 ? sizeof(a) : 128);
		dso_hits_init(&r->hits, (a.sample_type & PERF_SAMPLE_IDENTIFIER) != 0);
		r->track_hits = 1;
		r->rec.scan = feed_hits;
		r->rec.scan_ctx = &r->hits;
	}
	if ((rc = pd_writer_start(&r->w, r->out_fd, r->is_pipe, r->wattrs, r->ev.nr, r->feats.f,
				  r->feats.nr, &r->err))) {
		error_msg_at(r->shown, rc, &r->err);
		return -1;
	}
	if (r->have_comp)
		pd_writer_compress(&r->w, &r->comp);
	if (record_synth(r) < 0) {
		error_msg("out of memory");
		return -1;
	}
	if (r->synth.b.len) {
		struct iovec v = { r->synth.b.p, r->synth.b.len };

		if ((rc = pd_writer_write(&r->w, &v, 1, &r->err))) {
			error_msg_at(r->shown, rc, &r->err);
			r->write_failed = 1;
		}
	}
	return 0;
}

/* Signals, the events on, the command released. */
static int record_go(struct record_run *r)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (!r->ro.enable_on_exec && !r->write_failed && rec_enable(&r->rec, &r->err)) {
		error_msg("%s", r->err.msg);
		return -1;
	}
	if (r->child > 0) {
		int e = 0;

		if (write(r->go_fd, "g", 1) != 1 || read(r->err_fd, &e, sizeof(e)) == sizeof(e)) {
			error_msg("cannot run %s: %s", r->argv[r->first], strerror(e ? e : EPIPE));
			waitpid(r->child, NULL, 0);
			r->child = -1;
			return -1;
		}
	}
	return 0;
}

/* Drain the rings until the command ends, a signal, or a write error. */
static void record_loop(struct record_run *r)
{
	while (!r->write_failed) {
		if (stop_signal && r->child > 0 && !r->child_done) {
			kill(r->child, SIGTERM);
			stop_signal = 0;
		} else if (stop_signal) {
			break;
		}
		if (r->child > 0 && !r->child_done && waitpid(r->child, &r->status, WNOHANG) == r->child)
			r->child_done = 1;
		if (r->child_done)
			break;
		/* -p PID: stop when the process is gone, as perf does */
		if (o.pid && r->child <= 0 && process_gone((pid_t)atoi(o.pid)))
			break;
		rec_poll(&r->rec, 100);
		if (rec_drain(&r->rec, &r->w, &r->err)) {
			error_msg_at(r->shown, TB_ERR_IO, &r->err);
			r->write_failed = 1;
		}
	}
}

/* The last records, the file's index, the summary; returns the exit status. */
static int record_finish(struct record_run *r)
{
	unsigned long long samples;
	int rc;

	rec_disable(&r->rec);
	if (!r->write_failed && rec_drain(&r->rec, &r->w, &r->err)) {
		error_msg_at(r->shown, TB_ERR_IO, &r->err);
		r->write_failed = 1;
	}
	pdw_features_sample_time(&r->feats, r->rec.counts.first_time, r->rec.counts.last_time);
	if (r->track_hits && !r->write_failed &&
	    record_buildids(&r->hits, &r->feats, o.no_bid_cache || o.no_bid))
		warn_msg("out of memory: no build ids recorded");
	if (r->have_comp)          /* the ratio, now that it is known */
		pd_comp_feature(r->comp_feat, &r->comp, ring_bytes());
	if ((rc = pd_writer_finish(&r->w, &r->err))) {
		error_msg_at(r->outpath, rc, &r->err);
		r->write_failed = 1;
	} else if (r->write_failed && !r->is_pipe) {
		error_msg("%s: stopped; the file holds the records up to the failure (%llu bytes "
			  "of records dropped to fit the header)", r->outpath,
			  (unsigned long long)r->w.dropped);
	}
	samples = (unsigned long long)r->w.samples;     /* what the output holds */
	/* perf 6.1: builtin-record.c __cmd_record, with our name for "perf record" */
	if (!o.quiet && !r->is_pipe)
		perf_msg("[ %s: Captured and wrote %.3f MB %s (%llu samples) ]\n", applet_name,
			 (double)(r->w.data_offset + r->w.data_size) / (1024.0 * 1024.0), r->outpath,
			 samples);
	else if (!o.quiet)     /* perf 6.1: builtin-record.c __cmd_record */
		perf_msg("[ %s: Captured %llu samples ]\n", applet_name, samples);
	/* -o - into a reader that went away: samples counts what it read */
	if (r->w.reader_gone && r->w.unread)
		warn_msg("warning: %llu samples lost: the reader of the pipe went away",
			 (unsigned long long)r->w.unread);
	if (r->rec.counts.lost_records)
		warn_msg("warning: %llu events lost in %llu LOST records (the ring buffer "
			 "overran: try a larger -m)", (unsigned long long)r->rec.counts.lost_events,
			 (unsigned long long)r->rec.counts.lost_records);
	if (r->child > 0 && !r->child_done && waitpid(r->child, &r->status, 0) == r->child)
		r->child_done = 1;
	if (r->write_failed)
		return 1;
	if (r->child_done)
		return WIFEXITED(r->status) ? WEXITSTATUS(r->status) : 128 + WTERMSIG(r->status);
	return 0;
}

static int record(struct record_run *r)
{
	if (record_targets(r) || record_open_events(r) || record_features(r) ||
	    record_start_output(r) || record_go(r))
		return 1;
	record_loop(r);
	return record_finish(r);
}

/* Whether @name runs as a command: a path, or found in $PATH. */
static int runnable(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs, *save = NULL;
	int found = 0;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	dirs = xasprintf("%s", path ? path : "/usr/bin:/bin");
	for (char *d = strtok_r(dirs, ":", &save); d && !found; d = strtok_r(NULL, ":", &save)) {
		char *full = xasprintf("%s/%s", *d ? d : ".", name);

		found = access(full, X_OK) == 0;
		free(full);
	}
	free(dirs);
	return found;
}

/* No -e: perf's default event for "-- COMMAND", a runnable COMMAND (not a
 * canned NAME), or a profile without a command (-a, -C, -p, -g, -F). */
static int default_event(const struct record_run *r)
{
	if (r->first < r->argc)
		return !strcmp(r->argv[r->first - 1], "--") || runnable(r->argv[r->first]);
	return o.all || o.cpus || o.pid || o.callchain || o.freq;
}

int trace_record_main(int argc, char **argv)
{
	struct record_run r = { .argc = argc, .argv = argv, .out_fd = -1, .go_fd = -1,
				.err_fd = -1, .child = -1 };
	int ret, rc;

	memset(&o, 0, sizeof(o));
	r.first = args_parse(&record_help, argc, argv);
	if (r.first < 0)
		return r.first == -2 ? 0 : 1;
	{
		char why[512];

		int bad = rec_callgraph_parse(o.callchain, o.call_graph, o.user_regs, &o.cg, why,
					      sizeof(why));

		if (bad == -2)  /* perf 6.1: util/callchain.c parse_callchain_record, get_stack_size */
			perf_msg("%s\n", why);
		else if (bad)
			error_msg("%s", why);
		if (bad)
			return 1;
		o.callchain = o.cg.callchain;
		o.data |= o.cg.dwarf;      /* perf: DWARF unwinding samples addresses */
	}
	if (r.first < argc && strcmp(argv[r.first - 1], "--") && !o.events.nr) {
		rc = run_canned(argv[r.first], argc - r.first - 1, argv + r.first + 1);
		if (rc >= 0)
			return rc;
	}
	if (!o.events.nr && default_event(&r))
		;                 /* perf's default event, as perf record */
	else if (!o.events.nr && r.first < argc && !have_scripts()) {
		no_scripts_msg();
		return 1;
	} else if (!o.events.nr) {
		error_msg("no events: give -e SYSTEM:EVENT (trace-list --events lists them) or a "
			  "canned recording NAME (trace-list)");
		return 1;
	}
	if (o.pages == 0)
		o.pages = DEFAULT_PAGES;
	if (o.pages & (o.pages - 1)) {
		error_msg("-m %lu is not a power of two", o.pages);
		free(o.events.items);
		return 1;
	}
	ret = record(&r);
	record_free(&r);
	free(o.events.items);
	return ret;
}
