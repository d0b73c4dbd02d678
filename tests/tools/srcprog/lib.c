/* lib.c - the test program's shared library (libsrcprog.so): a loop through the inlined mix(). */
#include "hot.h"

unsigned long lib_work(unsigned long n)
{
	unsigned long s = 1;

	for (unsigned long i = 0; i < n; i++)
		s = mix(s + i);
	return s;
}
