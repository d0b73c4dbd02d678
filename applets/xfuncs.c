/* xfuncs.c - helpers only applets use: error lines and stdout set-up. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
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
