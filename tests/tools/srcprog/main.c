/* main.c - the source-level profiles' test program (tests/source-profile.test): built
 * -O2 -g -fomit-frame-pointer, main -> middle -> leaf (with mix() inlined),
 * the shared library's lib_work, the C++ part's Spinner::spin, and
 * libc_work, which spends its time in libc's qsort. */
#include <stdio.h>
#include <stdlib.h>
#include "hot.h"

unsigned long lib_work(unsigned long n);
unsigned long cxx_work(unsigned long n);

__attribute__((noinline)) static unsigned long leaf(unsigned long n)
{
	unsigned long s = 7;

	for (unsigned long i = 0; i < n; i++)
		s = mix(s ^ i);
	return s;
}

static int cmp(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;

	return x < y ? -1 : x > y;
}

/* time in libc: its lines come from libc6-dbg's debug file */
__attribute__((noinline)) static unsigned long libc_work(unsigned long n)
{
	size_t k = n / 32 + 1;
	unsigned long *v = malloc(k * sizeof(*v)), r;

	if (!v)
		return 0;
	for (size_t i = 0; i < k; i++)
		v[i] = mix(i);
	qsort(v, k, sizeof(*v), cmp);
	r = v[k / 2];
	free(v);
	return r;
}

__attribute__((noinline)) static unsigned long middle(unsigned long n)
{
#ifdef SRCPROG_NO_CXX           /* the arm64 board's: C only, static */
	return leaf(n) + lib_work(n) + libc_work(n);
#else
	return leaf(n) + lib_work(n) + cxx_work(n) + libc_work(n);
#endif
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000;

	printf("%lu\n", middle(n));
	return 0;
}
