/* xfuncs.c - helpers only applets use: error lines, allocated strings,
 * stdout set-up and the write check at exit (toybox lib/lib.c verror_msg,
 * lib/xwrap.c xexit; busybox libbb/verror_msg.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/payload.h"
#include "xfuncs.h"

const char *applet_name = "tracebox";
int applet_exitval;

/* tracebox_dir() and scripts_dir(), found once, freed by xexit() */
static char *exe_dir, *scripts_path;

/* The one place that writes to stderr (tests/messages.test holds the
 * rest of applets/ and engines/ to it). Ours: "APPLET: text[: strerror]\n",
 * stdout flushed first so that the two streams interleave in order; @fail
 * sets the exit status as toybox's verror_msg sets toys.exitval. */
static void verror_msg(const char *fmt, va_list ap, int err, int fail)
{
	fflush(stdout);
	fprintf(stderr, "%s: ", applet_name);
	vfprintf(stderr, fmt, ap);
	if (err)
		fprintf(stderr, ": %s", strerror(err));
	fputc('\n', stderr);
	if (fail && !applet_exitval)
		applet_exitval = 1;
}

void error_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_msg(fmt, ap, 0, 1);
	va_end(ap);
}

void perror_msg(const char *fmt, ...)
{
	int err = errno;
	va_list ap;

	va_start(ap, fmt);
	verror_msg(fmt, ap, err ? err : EIO, 1);
	va_end(ap);
}

void warn_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror_msg(fmt, ap, 0, 0);
	va_end(ap);
}

/* "FILE: offset 0xN: message" or "FILE: message" for a common/ error */
static void msg_at(const char *file, int code, const struct tb_err *err, int fail)
{
	const char *msg = err && err->code ? err->msg : tb_strerror(code);
	void (*say)(const char *, ...) = fail ? error_msg : warn_msg;

	if (err && err->code && err->has_offset)
		say("%s: offset 0x%llx: %s", file, (unsigned long long)err->offset, msg);
	else
		say("%s: %s", file, msg[0] ? msg : tb_strerror(code));
}

void exit_copy_msg(const char *msg)
{
	char line[320];
	int n = snprintf(line, sizeof(line), "%s: %s\n", applet_name, msg);

	if (n > 0)       /* nothing to do on failure: the copy ends either way */
		(void)!write(2, line, (size_t)n < sizeof(line) ? (size_t)n : sizeof(line) - 1);
	_exit(1);
}

void error_msg_at(const char *file, int code, const struct tb_err *err)
{
	msg_at(file, code, err, 1);
}

void warn_msg_at(const char *file, int code, const struct tb_err *err)
{
	msg_at(file, code, err, 0);
}

/* perf's words: stderr as perf's own fprintf(stderr) leaves it, stdout
 * not flushed (perf does not flush it either). */
void perf_msg(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
}

void engine_log(void *ctx, const char *text)
{
	(void)ctx;
	fflush(stdout);
	/* perf 6.1: scripting-engines/trace-event-python.c handler_call_die
	 * (PyErr_Print) and trace-event-perl.c (die with $@): the text as the
	 * interpreter wrote it */
	perf_msg("%s", text);
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0) {
		error_msg("out of memory");
		xexit(1);
	}
	return s;
}

/* stdout's write error has been said (stdout_ok, stdout_error_shown) */
static int stdout_reported;

void stdout_error_shown(void)
{
	stdout_reported = 1;
}

int stdout_ok(void)
{
	int e;

	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return 1;
	e = errno ? errno : EIO;
	if (!stdout_reported)
		error_msg("write error: %s", strerror(e));
	stdout_reported = 1;
	return 0;
}

void xexit(int status)
{
	if (!status)
		status = applet_exitval;
	if (!stdout_ok())
		status = 1;
	free(exe_dir);
	free(scripts_path);
	exit(status);
}

void xstdout_buffer(void)
{
	static char buf[1 << 16];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

/* readlink into a buffer that grows until the target fits */
static char *xreadlink(const char *path)
{
	size_t len = 256;

	for (;;) {
		char *buf = malloc(len);
		ssize_t n;

		if (!buf) {
			error_msg("out of memory");
			xexit(1);
		}
		n = readlink(path, buf, len);
		if (n < 0) {
			free(buf);
			return NULL;
		}
		if ((size_t)n < len) {
			buf[n] = 0;
			return buf;
		}
		free(buf);
		len *= 2;
	}
}

const char *tracebox_dir(void)
{
	if (exe_dir)
		return exe_dir;
	exe_dir = xreadlink("/proc/self/exe");
	if (!exe_dir && getauxval(AT_EXECFN))     /* no /proc (a bare chroot): the exec'd path */
		exe_dir = realpath((const char *)getauxval(AT_EXECFN), NULL);
	if (!exe_dir)
		exe_dir = xasprintf(".");
	else if (strrchr(exe_dir, '/'))
		*strrchr(exe_dir, '/') = 0;
	return exe_dir;
}

int have_scripts(void)
{
	return scripts_dir() || payload_size();
}

void no_scripts_msg(void)
{
	error_msg("no script tree next to %s (looked for ../scripts, ../../scripts and "
		  "../share/tracebox/scripts): set TRACEBOX_SCRIPTS to the scripts/ folder of "
		  "a tracebox source tree", tracebox_dir());
}

const char *scripts_dir(void)
{
	/* build/tracebox, then build/dyn/ and build/san/ in a source tree */
	static const char *const tails[] = { "../scripts", "../../scripts",
					     "../share/tracebox/scripts" };
	const char *env = getenv("TRACEBOX_SCRIPTS");
	struct stat st;

	if (env && *env)
		return env;
	if (scripts_path)
		return scripts_path;
	for (size_t i = 0; i < sizeof(tails) / sizeof(tails[0]); i++) {
		char *p = xasprintf("%s/%s", tracebox_dir(), tails[i]);

		if (stat(p, &st) == 0 && S_ISDIR(st.st_mode))
			return scripts_path = p;
		free(p);
	}
	return NULL;
}
