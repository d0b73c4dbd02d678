/* xfuncs.h - helpers only applets use: error lines and stdout set-up. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef XFUNCS_H
#define XFUNCS_H

#include "tb_err.h"

/** report_err - print "APPLET: FILE: offset 0xN: message" for a common/ error */
void report_err(const char *applet, const char *file, int code, const struct tb_err *err);
/** xstdout_buffer - a large buffer for stdout unless it is a terminal */
void xstdout_buffer(void);

/** tracebox_dir - the directory holding the running tracebox binary (static buffer) */
const char *tracebox_dir(void);
/** scripts_dir - tracebox's script tree: $TRACEBOX_SCRIPTS, DIR/../scripts,
 * DIR/../../scripts (build/dyn) or DIR/../share/tracebox/scripts; NULL if none */
const char *scripts_dir(void);

#endif
