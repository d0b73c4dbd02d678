/* engine.h - the scripting engine ops table: the only engine header applets include. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ENGINE_H
#define ENGINE_H

#include <stdio.h>
#include "perfdata/pd_session.h"
#include "util/tb_err.h"

struct engine_run;
struct pd_stat_round;
struct ft_tree;

/* A picture's choices (picture_find), as the applet parsed them. */
struct engine_picture {
	const char *output;        /* the file to write, "-" for stdout */
	int folded;                /* the folded lines instead of a picture */
	const char *title;         /* NULL: the picture's own */
	unsigned width;            /* pixels */
	double minwidth;           /* pixels: narrower frames merge */
	int inverted;              /* an icicle: roots at the top */
	int hot;                   /* FlameGraph's warm colours, not colours by kind */
	int offcpu;                /* charge the time tasks spend switched out (us) */
	/* stackcollapse.py's options: --no-comm, --include-pid, --include-tid, --kernel */
	int no_comm, include_pid, include_tid, annotate_kernel;
	/* --diff: the first recording's run hands its tree over in *collect and
	 * writes nothing; the second one's draws against @before */
	struct ft_tree **collect;
	const struct ft_tree *before;
	int arrows;                /* timechart: wake-up arrows shown at first */
	/* off-CPU: the engine sees every sample (a task comes back in another
	 * task's sched_switch) and charges only the switch-outs @keep passes
	 * (the applet's filters); NULL: all */
	int (*keep)(void *ctx, const struct pd_event *ev);
	void *keep_ctx;
};

/* What an engine needs to start a script. */
struct engine_start {
	const char *script;        /* path of the script */
	int argc;                  /* script arguments (argv[0] is the script) */
	char **argv;
	struct pd_session *session;/* evsels, tracepoint formats, header info */
	const char *exec_path;     /* tracebox's tree: EXEC_PATH/scripts/<lang>/... */
	/* Where tracebacks and script errors go (the applet prints them). */
	void (*log)(void *ctx, const char *text);
	void *log_ctx;
	/* Set (>= 0) when the script ended the run itself (sys.exit, exit):
	 * the exit status to return, nothing more to report. */
	int *exit_status;
	/* Export engines (export_find): where to, after the scheme's "sqlite:"
	 * (a URL keeps its "clickhouse://"), the recording's path, and whether
	 * reading failed, which the applet sets before calling stop. */
	const char *target;
	const char *input;
	const int *failed;
	/* ClickHouse's password when the URL holds none: from the file
	 * @password_file (then a password in the URL too is refused), or from
	 * the environment (@password_file NULL: the URL's wins). NULL: none. */
	const char *password;
	const char *password_file;
	/* Pictures (picture_find): what to draw and where */
	const struct engine_picture *picture;
};

/* What trace-gen needs. */
struct engine_gen {
	struct pd_session *session;
	const char *output;        /* file name to write, "-" for stdout */
	/* Where warnings go (the applet prints them). */
	void (*log)(void *ctx, const char *text);
	void *log_ctx;
};

/*
 * Lifecycle: start (loads the script, calls trace_begin), then event for
 * every sample in order, then stop (trace_end, teardown). An error from
 * event stops the run; stop must still be called, unless start left
 * *run NULL (out of memory before anything began). Engines never print or
 * exit: script output goes to stdout through the interpreter, errors go to
 * @log and come back as TB_ERR_* with @err set.
 */
struct engine_ops {
	const char *name;          /* "Python" */
	const char *alias;         /* "py" */
	const char *ext;           /* ".py" */
	const char *dir;           /* its folder of the script tree: "python" */
	const char *unavailable;   /* non-NULL: this build lacks the engine; how to get it */
	int (*start)(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
	int (*event)(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
	/* optional: 0 when event() does nothing with any sample of @e (a
	 * script with no handler for its event), asked after start */
	int (*wants)(struct engine_run *run, const struct pd_evsel *e);
	int (*stop)(struct engine_run *run, struct tb_err *err);
	/* perf stat record data, at every STAT_ROUND (pd_stat.h); NULL: the
	 * engine has no such callbacks and the applet prints perf's table */
	int (*stat)(struct engine_run *run, const struct pd_stat_round *r, struct tb_err *err);
	int (*generate)(const struct engine_gen *g, struct tb_err *err);
};

/** engine_find - by name or alias, case-insensitive ("python", "py", "Perl", "pl") */
const struct engine_ops *engine_find(const char *name);
/** engine_for_file - by the script's extension */
const struct engine_ops *engine_for_file(const char *path);
/**
 * export_find - the export engine of @target ("sqlite:FILE", "json:FILE|-",
 * "clickhouse://..."), with *@rest set to what the engine is given as
 * engine_start.target; NULL for an unknown scheme
 */
const struct engine_ops *export_find(const char *target, const char **rest);
/**
 * export_shown - @target as messages may show it: a URL's password (as the
 * ClickHouse engine would parse it, or whatever could be one when the
 * target is no URL of ours) left out. malloc'd; NULL: out of memory.
 */
char *export_shown(const char *target);
/** picture_find - the picture engine @name ("flamegraph", "timechart"), or NULL */
const struct engine_ops *picture_find(const char *name);
/** engine_list - the registry, NULL-terminated */
const struct engine_ops *const *engine_list(void);

#endif
