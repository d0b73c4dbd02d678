/* report_recover.h - trace-report --recover F -o G. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_RECOVER_H
#define REPORT_RECOVER_H

/** report_recover - write @out, the finished form of the cut recording @in;
 * messages on stderr; returns the exit status */
int report_recover(const char *in, const char *out);

#endif
