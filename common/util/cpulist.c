/* cpulist.c - parse CPU lists ("0-3,6") as sysfs writes them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/cpulist.h"

#define MAX_CPU 8192

long cpulist_parse(const char *text, int **cpus)
{
	const char *p = text;
	int *out = NULL;
	long n = 0;

	while (*p && *p != '\n') {
		char *end;
		long a = strtol(p, &end, 10), b = a;
		int *grown;

		if (end == p || a < 0 || a >= MAX_CPU)
			goto bad;
		p = end;
		if (*p == '-') {
			b = strtol(p + 1, &end, 10);
			if (end == p + 1 || b < a || b >= MAX_CPU)
				goto bad;
			p = end;
		}
		grown = realloc(out, (size_t)(n + b - a + 1) * sizeof(*out));
		if (!grown)
			goto bad;
		out = grown;
		for (long c = a; c <= b; c++)
			out[n++] = (int)c;
		if (*p == ',')
			p++;
		else if (*p && *p != '\n')
			goto bad;
	}
	if (n == 0)
		goto bad;
	*cpus = out;
	return n;
bad:
	free(out);
	return -1;
}

long cpulist_online(int **cpus)
{
	char buf[4096];
	FILE *f = fopen("/sys/devices/system/cpu/online", "re");
	long n;

	if (f && fgets(buf, sizeof(buf), f)) {
		fclose(f);
		return cpulist_parse(buf, cpus);
	}
	if (f)
		fclose(f);
	n = sysconf(_SC_NPROCESSORS_ONLN);
	if (n <= 0)
		return -1;
	snprintf(buf, sizeof(buf), "0-%ld", n - 1);
	return cpulist_parse(buf, cpus);
}
