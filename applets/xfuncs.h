/* xfuncs.h - helpers only applets use: error lines, allocated strings,
 * stdout set-up and the write check at exit. An x-function dies on failure. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef XFUNCS_H
#define XFUNCS_H

#include "util/tb_err.h"

/* The running applet's name, set once by the dispatcher (main.c), as
 * toybox's toys.which->name; every message below starts with it. */
extern const char *applet_name;

/** error_msg - print "APPLET: message\n" on stderr */
void error_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** perror_msg - print "APPLET: message: strerror(errno)\n" on stderr */
void perror_msg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** report_err - print "APPLET: FILE: offset 0xN: message" for a common/ error */
void report_err(const char *file, int code, const struct tb_err *err);

/** xasprintf - an allocated formatted string; out of memory: message, exit 1 */
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/** xexit - check stdout (stdout_ok) and exit with @status, or 1 on a write error */
void xexit(int status) __attribute__((noreturn));
/** stdout_ok - flush stdout; 1 if every write succeeded, else print
 * "APPLET: write error: ..." (once per run) and return 0 */
int stdout_ok(void);

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
