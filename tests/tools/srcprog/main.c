/* main.c - the source-level profiles' test program (tests/dwarf-unwind.test): built
 * -O2 -g -fomit-frame-pointer, main -> middle -> leaf (with mix() inlined),
 * the shared library's lib_work and the C++ part's Spinner::spin. */
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

__attribute__((noinline)) static unsigned long middle(unsigned long n)
{
#ifdef SRCPROG_NO_CXX           /* the arm64 board's: C only, static */
	return leaf(n) + lib_work(n);
#else
	return leaf(n) + lib_work(n) + cxx_work(n);
#endif
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 0) : 10000000;

	printf("%lu\n", middle(n));
	return 0;
}
