/* test_msg.c - the applets' two message paths (applets/xfuncs.c): ours say
 * "APPLET: ..." and error_msg keeps a failing exit status, warn_msg does not;
 * perf_msg prints exactly its text; xexit exits with the status kept. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include "unit.h"
#include "xfuncs.h"

static char got[512];

/* what @fn wrote on stderr (fd 2 pointed at a temporary file meanwhile) */
static const char *captured(void (*fn)(void))
{
	FILE *tmp = tmpfile();
	int saved = dup(2);
	ssize_t n;

	got[0] = 0;
	if (!tmp || saved < 0)
		return got;
	fflush(stderr);
	dup2(fileno(tmp), 2);
	fn();
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	n = pread(fileno(tmp), got, sizeof(got) - 1, 0);
	got[n > 0 ? n : 0] = 0;
	fclose(tmp);
	return got;
}

static void say_error(void)    { error_msg("bad %s", "thing"); }
static void say_perror(void)   { errno = ENOENT; perror_msg("f.data"); }
static void say_warning(void)  { warn_msg("warning: %d lost", 3); }
static void say_perf(void)     { perf_msg("Warning:\n%u out of order events recorded.\n", 2u); }
static void say_engine(void)   { engine_log(NULL, "Traceback (most recent call last):\n"); }

static void say_at(void)
{
	struct tb_err e = { 0 };

	tb_err_set(&e, TB_ERR_FORMAT, 0x40, "record size %u below the header", 4u);
	error_msg_at("f.data", e.code, &e);
}

static void say_at_warning(void)
{
	struct tb_err e = { 0 };

	tb_err_set(&e, TB_ERR_FORMAT, TB_NO_OFFSET, "feature 3 is cut");
	warn_msg_at("f.data", e.code, &e);
}

/* the exit status of a child that says @fn and then xexit(@status) */
static int exit_of(void (*fn)(void), int status)
{
	pid_t pid = fork();
	int st = -1;

	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 2);
		applet_exitval = 0;
		if (fn)
			fn();
		xexit(status);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(void)
{
	applet_name = "trace-report";

	T_STR(captured(say_warning), "trace-report: warning: 3 lost\n",
	      "warn_msg: the applet's name, then the text");
	T_EQ(applet_exitval, 0, "warn_msg leaves the exit status");
	T_STR(captured(say_at_warning), "trace-report: f.data: feature 3 is cut\n",
	      "warn_msg_at: no offset, none printed");
	T_EQ(applet_exitval, 0, "warn_msg_at leaves the exit status");
	T_STR(captured(say_perf), "Warning:\n2 out of order events recorded.\n",
	      "perf_msg: perf's words exactly, no prefix");
	T_STR(captured(say_engine), "Traceback (most recent call last):\n",
	      "engine_log: the engine's text as it comes");
	T_EQ(applet_exitval, 0, "perf_msg and engine_log leave the exit status");
	T_STR(captured(say_error), "trace-report: bad thing\n",
	      "error_msg: the applet's name, then the text");
	T_EQ(applet_exitval, 1, "error_msg sets the exit status to 1");
	applet_exitval = 0;
	T_STR(captured(say_perror), "trace-report: f.data: No such file or directory\n",
	      "perror_msg: then strerror(errno)");
	T_EQ(applet_exitval, 1, "perror_msg sets the exit status");
	applet_exitval = 0;
	applet_name = "trace-gen";
	T_STR(captured(say_at), "trace-gen: f.data: offset 0x40: record size 4 below the header\n",
	      "error_msg_at: the file, the offset, the message, under the running applet's name");
	T_EQ(applet_exitval, 1, "error_msg_at sets the exit status");
	applet_exitval = 0;

	T_EQ(exit_of(NULL, 0), 0, "xexit(0) with nothing said: 0");
	T_EQ(exit_of(say_warning, 0), 0, "xexit(0) after a warning: 0");
	T_EQ(exit_of(say_error, 0), 1, "xexit(0) after an error: 1, as toybox's toys.exitval");
	T_EQ(exit_of(say_error, 3), 3, "xexit(3) after an error: the applet's own status wins");
	return done();
}
