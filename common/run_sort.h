/* run_sort.h - a stable merge sort of the ascending runs already in an array. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RUN_SORT_H
#define RUN_SORT_H

#include <stdlib.h>
#include <string.h>

/*
 * RUN_SORT(name, type, before) defines
 *   static int name(type *v, size_t n);
 * which sorts @v by before(const type *x, const type *y) (x goes first),
 * keeping the order of equals. Records of a perf.data round come in
 * per-CPU runs already in time order, and a symbol table in runs by
 * address, so each pass merges neighbouring runs: O(n log runs), and one
 * scan when the array is sorted. Returns 0, or -1 when the n-element
 * scratch array cannot be had (@v is then unchanged).
 */
#define RUN_SORT(name, type, before)                                              \
static size_t name##_run(const type *v, size_t from, size_t n)                   \
{                                                                                 \
	size_t i = from + 1;                                                      \
                                                                                  \
	while (i < n && !before(&v[i], &v[i - 1]))                                \
		i++;                                                              \
	return i;                                                                 \
}                                                                                 \
                                                                                  \
static int name(type *v, size_t n)                                               \
{                                                                                 \
	type *tmp;                                                                \
                                                                                  \
	if (n < 2 || name##_run(v, 0, n) == n)                                    \
		return 0;                                                         \
	if (!(tmp = malloc(n * sizeof(*tmp))))                                    \
		return -1;                                                        \
	for (;;) {                                                                \
		size_t a = 0, runs = 0;                                           \
                                                                                  \
		while (a < n) {                                                   \
			size_t b = name##_run(v, a, n), c, i = a, j, o = a;       \
                                                                                  \
			runs++;                                                   \
			if (b == n) {                                             \
				memcpy(tmp + a, v + a, (n - a) * sizeof(*tmp));   \
				break;                                            \
			}                                                         \
			c = name##_run(v, b, n);                                  \
			j = b;                                                    \
			while (i < b && j < c)                                    \
				tmp[o++] = before(&v[j], &v[i]) ? v[j++] : v[i++]; \
			memcpy(tmp + o, v + i, (b - i) * sizeof(*tmp));           \
			o += b - i;                                               \
			memcpy(tmp + o, v + j, (c - j) * sizeof(*tmp));           \
			a = c;                                                    \
		}                                                                 \
		memcpy(v, tmp, n * sizeof(*tmp));                                 \
		if (runs <= 1)                                                    \
			break;                                                    \
	}                                                                         \
	free(tmp);                                                                \
	return 0;                                                                 \
}

#endif
