/* xfuncs.c - helpers only applets use: error lines and stdout set-up. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "xfuncs.h"

void report_err(const char *applet, const char *file, int code, const struct tb_err *err)
{
	const char *msg = err && err->code ? err->msg : tb_strerror(code);

	if (err && err->code && err->has_offset)
		fprintf(stderr, "%s: %s: offset 0x%llx: %s\n", applet, file,
			(unsigned long long)err->offset, msg);
	else
		fprintf(stderr, "%s: %s: %s\n", applet, file, msg[0] ? msg : tb_strerror(code));
}

void xstdout_buffer(void)
{
	static char buf[1 << 16];

	if (!isatty(STDOUT_FILENO))
		setvbuf(stdout, buf, _IOFBF, sizeof(buf));
}

const char *tracebox_dir(void)
{
	static char dir[4096];
	ssize_t n;

	if (dir[0])
		return dir;
	n = readlink("/proc/self/exe", dir, sizeof(dir) - 1);
	if (n <= 0) {
		strcpy(dir, ".");
		return dir;
	}
	dir[n] = 0;
	if (strrchr(dir, '/'))
		*strrchr(dir, '/') = 0;
	return dir;
}

const char *scripts_dir(void)
{
	static char path[4200];
	const char *env = getenv("TRACEBOX_SCRIPTS");
	struct stat st;

	if (env && *env)
		return env;
	/* build/tracebox, then build/dyn/ and build/san/ in a source tree */
	snprintf(path, sizeof(path), "%s/../scripts", tracebox_dir());
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return path;
	snprintf(path, sizeof(path), "%s/../../scripts", tracebox_dir());
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return path;
	snprintf(path, sizeof(path), "%s/../share/tracebox/scripts", tracebox_dir());
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		return path;
	return NULL;
}
