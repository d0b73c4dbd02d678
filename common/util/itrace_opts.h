/* itrace_opts.h - perf's --itrace option strings: which ones parse. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ITRACE_OPTS_H
#define ITRACE_OPTS_H

/**
 * itrace_opts_valid - whether perf 6.1 takes @s as --itrace options:
 * i[PERIOD[i|t|ns|us|ms]], b c r x w p o I f m t a A Z q, e/d with
 * (+|-)FLAG..., g G l L [SIZE 1-1024], sNUMBER; spaces and commas between.
 * Returns 0 when it does, -1 when not.
 */
int itrace_opts_valid(const char *s);

#endif
