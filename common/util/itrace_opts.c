/* itrace_opts.c - perf 6.1's --itrace option grammar (util/auxtrace.c
 * itrace_do_parse_synth_opts): which strings it takes. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <stdlib.h>
#include "util/itrace_opts.h"

/* get_flags of perf's itrace parser: (+|-)letter, repeated. */
static int itrace_flags(const char **p)
{
	while (**p == '+' || **p == '-') {
		(*p)++;
		if (**p < 'a' || **p > 'z')
			return -1;
		(*p)++;
	}
	return 0;
}

/* An optional number in [1, 1024] (g, G, l, L sizes). */
static int itrace_size(const char **p)
{
	char *end;
	unsigned long v;

	if (!isdigit((unsigned char)**p))
		return 0;
	v = strtoul(*p, &end, 10);
	*p = end;
	return v >= 1 && v <= 1024 ? 0 : -1;
}

/* The period after i: NUMBER then i, t, ns, us or ms (or nothing). */
static int itrace_period(const char **p)
{
	char *end;

	while (**p == ' ' || **p == ',')
		(*p)++;
	if (!isdigit((unsigned char)**p))
		return 0;
	strtoull(*p, &end, 10);
	*p = end;
	while (**p == ' ' || **p == ',')
		(*p)++;
	switch (*(*p)++) {
	case 'i': case 't':
		return 0;
	case 'm': case 'u': case 'n':
		return *(*p)++ == 's' ? 0 : -1;
	case 0:
		(*p)--;
		return 0;
	default:
		return -1;
	}
}

int itrace_opts_valid(const char *s)
{
	const char *p = s;
	char *end;

	while (*p) {
		switch (*p++) {
		case 'i':
			if (itrace_period(&p))
				return -1;
			break;
		case 'b': case 'c': case 'r': case 'x': case 'w': case 'p': case 'o':
		case 'I': case 'f': case 'm': case 't': case 'a': case 'A': case 'Z':
		case 'q': case ' ': case ',':
			break;
		case 'e': case 'd':
			if (itrace_flags(&p))
				return -1;
			break;
		case 'g': case 'G': case 'l': case 'L':
			if (itrace_size(&p))
				return -1;
			break;
		case 's':
			strtoul(p, &end, 10);
			if (end == p)
				return -1;
			p = end;
			break;
		default:
			return -1;
		}
	}
	return 0;
}

