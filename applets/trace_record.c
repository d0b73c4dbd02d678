/* trace_record.c - trace-record: record tracepoints into a perf.data file
 * (or a pipe) that perf script and trace-report read. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
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
#include "cpulist.h"
#include "pd_wfeatures.h"
#include "pd_writer.h"
#include "recorder.h"
#include "synth.h"
#include "syscall_map.h"
#include "td_write.h"
#include "tracefs.h"
#include "xfuncs.h"

#define DEFAULT_PAGES 2048        /* 8 MiB per CPU: a syscall storm loses nothing */
#define TRACEBOX_VERSION "tracebox 0.1"

static struct {
	int all, quiet, self;
	const char *cpus, *output, *pid;
	unsigned long period, pages;
	struct opt_list events;
} o;

static const struct opt record_opts[] = {
	{ 'a', "all-cpus", OPT_FLAG, &o.all, NULL, "record on every CPU, every task (system-wide)" },
	{ 'C', "cpu", OPT_STR, &o.cpus, "CPUS", "record on these CPUs only (0-3,6); implies -a" },
	{ 'p', "pid", OPT_STR, &o.pid, "PID", "record the threads of process PID" },
	{ 'e', "event", OPT_LIST, &o.events, "SYS:EVENT",
	  "tracepoint to record (repeat; globs like 'sched:*' allowed)" },
	{ 'c', "count", OPT_UINT, &o.period, "PERIOD", "sample every PERIOD events (default 1)" },
	{ 'm', "mmap-pages", OPT_UINT, &o.pages, "PAGES",
	  "ring buffer pages per CPU, a power of two (default 2048)" },
	{ 'o', "output", OPT_STR, &o.output, "FILE", "output file, - for a pipe (default perf.data)" },
	{ 'q', "quiet", OPT_FLAG, &o.quiet, NULL, "no summary line" },
	{ 0, "self", OPT_FLAG, &o.self, NULL, "system-wide, also record trace-record's own events" },
	OPT_TABLE_END
};

static const struct applet_help record_help = {
	"trace-record",
	"[-a] [-C CPUS] [-p PID] [-e SYS:EVENT]... [-c PERIOD] [-m PAGES] [-o FILE|-] [-q] [--self]\n"
	"                    [[--] COMMAND [ARGS]]\n"
	"       trace-record NAME [ARGS]     (canned recording NAME, see trace-list)",
	"Record kernel tracepoints with perf_event_open into a perf.data file that\n"
	"'perf script' and trace-report read. With COMMAND, record it (and its\n"
	"children) until it exits and return its exit status; with -a, the whole\n"
	"system; with neither, the whole system until SIGINT or SIGTERM.\n"
	"System-wide, trace-record filters out its own events (--self keeps them).\n"
	"The file holds the tracepoint formats from tracefs, the comm of every\n"
	"thread, and the syscall map (from the kernel's tracefs syscall_map when\n"
	"it has one, else a table built from linux-source).",
	record_opts
};

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* Split "sys:event" (globs allowed) into recorder events, checking tracefs. */
struct expand_ctx {
	struct rec_event *evs;
	size_t nr;
	int oom;
};

static void add_event_name(void *ctx, const char *name)
{
	struct expand_ctx *x = ctx;
	struct rec_event *n;
	const char *colon = strchr(name, ':');

	for (size_t i = 0; i < x->nr; i++)
		if (!strncmp(x->evs[i].system, name, (size_t)(colon - name)) &&
		    !x->evs[i].system[colon - name] && !strcmp(x->evs[i].name, colon + 1))
			return;          /* given twice */
	n = realloc(x->evs, (x->nr + 1) * sizeof(*n));
	if (!n) {
		x->oom = 1;
		return;
	}
	x->evs = n;
	memset(&n[x->nr], 0, sizeof(*n));
	n[x->nr].system = strndup(name, (size_t)(colon - name));
	n[x->nr].name = strdup(colon + 1);
	x->nr++;
}

static int resolve_events(const char *tfs, struct expand_ctx *x)
{
	struct tb_err err = { 0 };

	for (int i = 0; i < o.events.nr; i++) {
		const char *spec = o.events.items[i];
		const char *colon = strchr(spec, ':');
		long n;

		if (!colon || colon == spec || !colon[1]) {
			error_msg("event '%s' is not SYSTEM:EVENT", spec);
			return -1;
		}
		if (strpbrk(spec, "*?[")) {
			n = tracefs_list_events(tfs, spec, add_event_name, x, &err);
			if (n == 0) {
				error_msg("no tracepoint matches '%s'", spec);
				return -1;
			}
			if (n < 0) {
				error_msg("%s", err.msg);
				return -1;
			}
			continue;
		}
		add_event_name(x, spec);
	}
	for (size_t i = 0; i < x->nr; i++) {
		long id = tracefs_event_id(tfs, x->evs[i].system, x->evs[i].name, &err);

		if (id < 0) {
			error_msg("%s", err.msg);
			return -1;
		}
		x->evs[i].config = (uint64_t)id;
	}
	return x->oom ? -1 : 0;
}

/* A canned recording: scripts/{python,perl}/bin/NAME-record. */
static int run_canned(const char *name, int argc, char **argv)
{
	static const char *langs[] = { "python", "perl" };
	const char *dir = scripts_dir(), *colon = strchr(name, ':');
	char *path, *newpath;
	size_t only = 0, nr = sizeof(langs) / sizeof(langs[0]);
	char **args;

	if (colon) {          /* "perl:NAME" picks the language */
		while (only < nr && strncmp(name, langs[only], (size_t)(colon - name)))
			only++;
		if (only == nr || colon - name < 2)
			return -1;
		nr = only + 1;
		name = colon + 1;
	}
	if (!dir || strchr(name, '/'))
		return -1;
	for (size_t l = only; l < nr; l++) {
		path = xasprintf("%s/%s/bin/%s-record", dir, langs[l], name);
		if (access(path, R_OK)) {
			free(path);
			continue;
		}
		args = calloc((size_t)argc + 3, sizeof(*args));
		if (!args) {
			error_msg("out of memory");
			free(path);
			return 1;
		}
		args[0] = "sh";
		args[1] = path;
		for (int i = 0; i < argc; i++)
			args[i + 2] = argv[i];
		newpath = xasprintf("%s:%s", tracebox_dir(),
				    getenv("PATH") ? getenv("PATH") : "/usr/bin:/bin");
		setenv("PATH", newpath, 1);
		free(newpath);
		execv("/bin/sh", args);
		perror_msg("cannot run %s", path);
		free(args);
		free(path);
		return 127;
	}
	return -1;
}

/* Fork COMMAND stopped on a pipe until the events are open. */
static pid_t start_child(char **argv, int *go_fd, int *err_fd)
{
	int go[2], ep[2];
	pid_t pid;

	if (pipe2(go, O_CLOEXEC) || pipe2(ep, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid == 0) {
		char c;
		int e;

		close(go[1]);
		close(ep[0]);
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
	*go_fd = go[1];
	*err_fd = ep[0];
	return pid;
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
		if (!g)
			break;
		*tids = g;
		(*tids)[n++] = t;
	}
	closedir(d);
	return n;
}

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

		if (rename(path, old))
			perror_msg("cannot keep %s as %s", path, old);
		free(old);
	}
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	return fd;
}

int trace_record_main(int argc, char **argv)
{
	struct expand_ctx ev = { 0 };
	struct rec_opts ro = { 0 };
	struct recorder rec;
	struct pd_writer w;
	struct pdw_features feats = { 0 };
	struct pd_wattr *wattrs = NULL;
	struct syscall_map scmap = { 0 };
	struct synth_buf synth = { 0 };
	struct tb_err err = { 0 };
	struct sigaction sa;
	struct utsname u;
	char tfs[512];
	unsigned char *td = NULL;
	size_t td_len = 0;
	int *cpus = NULL, out_fd = -1, is_pipe = 0, go_fd = -1, err_fd = -1;
	int ret = 1, first, rc, write_failed = 0, have_scmap = 0, recorder_open = 0;
	pid_t child = -1, *tids = NULL, synth_pid;
	long nr_cpus, nr_tids = 0;
	int status = 0, child_done = 0;
	const char *outpath;

	memset(&o, 0, sizeof(o));
	first = args_parse(&record_help, argc, argv);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (first < argc && strcmp(argv[first - 1], "--") && !o.events.nr) {
		rc = run_canned(argv[first], argc - first - 1, argv + first + 1);
		if (rc >= 0)
			return rc;
	}
	if (!o.events.nr) {
		error_msg("no events: give -e SYSTEM:EVENT (trace-list --events "
				"lists them) or a canned recording NAME (trace-list)");
		return 1;
	}
	if (o.pages == 0)
		o.pages = DEFAULT_PAGES;
	if (o.pages & (o.pages - 1)) {
		error_msg("-m %lu is not a power of two", o.pages);
		return 1;
	}
	if (tracefs_find(tfs, sizeof(tfs), &err)) {
		error_msg("%s", err.msg);
		return 1;
	}
	if (resolve_events(tfs, &ev))
		goto out;
	nr_cpus = o.cpus ? cpulist_parse(o.cpus, &cpus) : cpulist_online(&cpus);
	if (nr_cpus <= 0) {
		error_msg("bad CPU list '%s'", o.cpus ? o.cpus : "(online)");
		goto out;
	}
	if (o.pid) {
		pid_t pid = (pid_t)atoi(o.pid);

		nr_tids = pid > 0 ? list_threads(pid, &tids) : -1;
		if (nr_tids <= 0) {
			error_msg("no such process: %s", o.pid);
			goto out;
		}
	}
	if (first < argc) {
		child = start_child(argv + first, &go_fd, &err_fd);
		if (child < 0) {
			perror_msg("cannot fork");
			goto out;
		}
		if (!o.all && !o.cpus && !o.pid) {
			tids = malloc(sizeof(*tids));
			if (!tids)
				goto out;
			tids[0] = child;
			nr_tids = 1;
			ro.enable_on_exec = 1;
		}
	}
	ro.cpus = cpus;
	ro.nr_cpus = (size_t)nr_cpus;
	ro.tids = tids;
	ro.nr_tids = (size_t)nr_tids;
	ro.period = o.period ? o.period : 1;
	ro.pages = o.pages;
	ro.exclude_pid = (!tids && !o.self) ? getpid() : 0;
	if ((rc = rec_open(&rec, ev.evs, ev.nr, &ro, &err))) {
		error_msg("%s", err.msg);
		goto out;
	}
	recorder_open = 1;

	/* What goes in the file besides the samples. */
	{
		struct td_event_name *names = calloc(ev.nr, sizeof(*names));

		wattrs = calloc(ev.nr, sizeof(*wattrs));
		if (!names || !wattrs) {
			free(names);
			goto out;
		}
		for (size_t i = 0; i < ev.nr; i++) {
			names[i].system = ev.evs[i].system;
			names[i].name = ev.evs[i].name;
		}
		rc = td_build(tfs, names, ev.nr, &td, &td_len, &err);
		free(names);
		if (rc) {
			error_msg("tracing data: %s", err.msg);
			goto out;
		}
	}
	for (size_t i = 0; i < ev.nr; i++) {
		char *name = malloc(strlen(ev.evs[i].system) + strlen(ev.evs[i].name) + 2);

		if (!name)
			goto out;
		sprintf(name, "%s:%s", ev.evs[i].system, ev.evs[i].name);
		rec_attr(&rec, &ro, i, wattrs[i].attr);
		wattrs[i].ids = ev.evs[i].ids;
		wattrs[i].nr_ids = ev.evs[i].nr_ids;
		wattrs[i].name = name;
	}
	if (uname(&u) == 0 && scmap_load(&scmap, tfs, u.machine, &err) == 0)
		have_scmap = 1;
	else if (!o.quiet)
		error_msg("no syscall map recorded: %s", err.msg);
	if ((rc = pdw_features_build(&feats, td, td_len, TRACEBOX_VERSION, argc, argv, wattrs,
				     ev.nr, have_scmap ? &scmap : NULL))) {
		td = NULL;
		error_msg("out of memory");
		goto out;
	}
	td = NULL;

	outpath = o.output ? o.output : "perf.data";
	out_fd = open_output(outpath, &is_pipe);
	if (out_fd < 0) {
		perror_msg("%s", outpath);
		goto out;
	}
	if ((rc = pd_writer_start(&w, out_fd, is_pipe, wattrs, ev.nr, feats.f, feats.nr, &err))) {
		report_err(is_pipe ? "(stdout)" : outpath, rc, &err);
		goto out;
	}
	synth.id = ev.evs[0].nr_ids ? ev.evs[0].ids[0] : 0;
	/* names of the threads already running: all, the -p process, or the child */
	synth_pid = o.pid ? (pid_t)atoi(o.pid) : child;
	if (synth_threads(&synth, tids ? &synth_pid : NULL, tids ? 1 : 0) < 0)
		goto out;
	if (synth.b.len) {
		struct iovec v = { synth.b.p, synth.b.len };

		if ((rc = pd_writer_write(&w, &v, 1, &err))) {
			report_err(is_pipe ? "(stdout)" : outpath, rc, &err);
			write_failed = 1;
		}
	}

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (!ro.enable_on_exec && !write_failed && rec_enable(&rec, &err)) {
		error_msg("%s", err.msg);
		goto out;
	}
	if (child > 0) {
		int e = 0;

		if (write(go_fd, "g", 1) != 1 || read(err_fd, &e, sizeof(e)) == sizeof(e)) {
			error_msg("cannot run %s: %s", argv[first],
				strerror(e ? e : EPIPE));
			waitpid(child, NULL, 0);
			child = -1;
			goto out;
		}
	}

	while (!write_failed) {
		if (stop_signal && child > 0 && !child_done) {
			kill(child, SIGTERM);
			stop_signal = 0;
		} else if (stop_signal) {
			break;
		}
		if (child > 0 && !child_done && waitpid(child, &status, WNOHANG) == child)
			child_done = 1;
		if (child_done)
			break;
		rec_poll(&rec, 100);
		if (rec_drain(&rec, &w, &err)) {
			report_err(is_pipe ? "(stdout)" : outpath, TB_ERR_IO, &err);
			write_failed = 1;
		}
	}
	rec_disable(&rec);
	if (!write_failed && rec_drain(&rec, &w, &err)) {
		report_err(is_pipe ? "(stdout)" : outpath, TB_ERR_IO, &err);
		write_failed = 1;
	}
	if ((rc = pd_writer_finish(&w, &err))) {
		report_err(outpath, rc, &err);
		write_failed = 1;
	} else if (write_failed && !is_pipe) {
		error_msg("%s: stopped; the file holds the records up to the "
				"failure (%llu bytes of records dropped to fit the header)", outpath,
			(unsigned long long)w.dropped);
	}
	if (!o.quiet && !is_pipe)
		fprintf(stderr, "[ %s: Captured and wrote %.3f MB %s (%llu samples) ]\n", applet_name,
			(double)(w.data_offset + w.data_size) / (1024.0 * 1024.0), outpath,
			(unsigned long long)rec.counts.samples);
	else if (!o.quiet)
		fprintf(stderr, "[ %s: Captured %llu samples ]\n", applet_name,
			(unsigned long long)rec.counts.samples);
	if (rec.counts.lost_records)
		error_msg("warning: %llu events lost in %llu LOST records "
				"(the ring buffer overran: try a larger -m)",
			(unsigned long long)rec.counts.lost_events,
			(unsigned long long)rec.counts.lost_records);
	if (child > 0 && !child_done && waitpid(child, &status, 0) == child)
		child_done = 1;
	if (write_failed)
		ret = 1;
	else if (child_done)
		ret = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	else
		ret = 0;
out:
	if (child > 0 && !child_done) {
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	if (recorder_open)
		rec_close(&rec);
	if (go_fd >= 0)
		close(go_fd);
	if (err_fd >= 0)
		close(err_fd);
	if (out_fd >= 0)
		close(out_fd);
	synth_free(&synth);
	pdw_features_free(&feats);
	free(td);
	if (have_scmap)
		scmap_free(&scmap);
	for (size_t i = 0; wattrs && i < ev.nr; i++)
		free((char *)wattrs[i].name);
	free(wattrs);
	for (size_t i = 0; i < ev.nr; i++) {
		free(ev.evs[i].system);
		free(ev.evs[i].name);
		free(ev.evs[i].ids);
	}
	free(ev.evs);
	free(cpus);
	free(tids);
	free(o.events.items);
	return ret;
}
