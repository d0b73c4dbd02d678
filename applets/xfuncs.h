/* xfuncs.h - helpers only applets use: error lines, allocated strings,
 * stdout set-up and the write check at exit. An x-function dies on failure. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef XFUNCS_H
#define XFUNCS_H

#include "util/tb_err.h"

/* The running applet's name, set once by the dispatcher (main.c), as
 * toybox's toys.which->name; every message of ours starts with it. */
extern const char *applet_name;
/* The exit status our errors leave, as toybox's toys.exitval: 0 until
 * error_msg() or one of its friends runs, then 1. xexit() exits with it
 * when the applet returns 0, so a caller cannot forget the status. */
extern int applet_exitval;

/*
 * Two ways to stderr, and only two:
 *  - ours: error_msg() and friends print "APPLET: message
" with the
 *    running applet's name (toybox lib/lib.c verror_msg); error_msg,
 *    perror_msg and error_msg_at also set applet_exitval, warn_msg does not;
 *  - perf's own words, copied on purpose so that our stderr reads as
 *    perf 6.1's: perf_msg() prints exactly its text, no prefix, no newline
 *    added, no status. Every call names the perf function it mirrors in a
 *    comment ("perf 6.1: FILE FUNCTION"); tests/messages.test checks it.
 */
/** error_msg - print "APPLET: message\n" on stderr; the exit status becomes 1 */
void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** perror_msg - print "APPLET: message: strerror(errno)\n"; the exit status becomes 1 */
void perror_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** warn_msg - print "APPLET: message\n" on stderr; the exit status stays */
void warn_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** error_msg_at - error_msg for a common/ error @err (or, without one, @code):
 * "APPLET: FILE: offset 0xN: message" when @err has an offset, else
 * "APPLET: FILE: message"; the exit status becomes 1 */
void error_msg_at(const char *file, int code, const struct tb_err *err);
/** warn_msg_at - error_msg_at's line; the exit status stays */
void warn_msg_at(const char *file, int code, const struct tb_err *err);
/** exit_copy_msg - "APPLET: @msg\n" in one write(2), then _exit(1) with
 * nothing flushed: for a copy of the process (a script's fork) whose
 * buffers hold the parent's output */
void exit_copy_msg(const char *msg) __attribute__((noreturn));
/** perf_msg - print @fmt exactly as perf 6.1 does (no prefix, no newline added,
 * stdout not flushed, as perf's fprintf(stderr) is not); the exit status stays */
void perf_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** engine_log - the log callback applets give engines (struct engine_start,
 * struct engine_gen): flush stdout, then the engine's text as it comes
 * (tracebacks as perf's PyErr_Print and die print them) */
void engine_log(void *ctx, const char *text);
/** xasprintf - an allocated formatted string; out of memory: message, exit 1 */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** xexit - check stdout (stdout_ok) and exit with @status (applet_exitval when
 * @status is 0), or 1 on a write error */
void xexit(int status) __attribute__((noreturn));
/** stdout_ok - flush stdout; 1 if every write succeeded, else print
 * "APPLET: write error: ..." (once per run) and return 0 */
int stdout_ok(void);
/** stdout_error_shown - an applet said why writing stdout failed (an engine's
 * error naming "-"): stdout_ok says it no more */
void stdout_error_shown(void);

/** xstdout_buffer - a large buffer for stdout unless it is a terminal */
void xstdout_buffer(void);

/** tracebox_dir - the directory holding the running tracebox binary (allocated once) */
const char *tracebox_dir(void);
/** scripts_dir - tracebox's script tree: $TRACEBOX_SCRIPTS, DIR/../scripts,
 * DIR/../../scripts (build/dyn) or DIR/../share/tracebox/scripts; NULL if none */
const char *scripts_dir(void);
/** no_scripts_msg - say that scripts_dir() found none, and how to name one */
void no_scripts_msg(void);
/** have_scripts - a script tree on disk, or the scripts carried in the binary */
int have_scripts(void);

#endif
