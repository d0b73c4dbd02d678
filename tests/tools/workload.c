/* workload.c - a known workload for the oracle tests: exactly N getppid()
 * calls and M open() calls that fail with ENOENT, then exit 0.
 * usage: workload N M [SPIN_MS] (SPIN_MS: keep calling getppid for that long) */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	long m = argc > 2 ? atol(argv[2]) : 10;
	long spin_ms = argc > 3 ? atol(argv[3]) : 0;
	struct timespec t0, t;

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);      /* no libc caching, one syscall each */
	for (long i = 0; i < m; i++)
		if (syscall(SYS_open, "/nonexistent/tracebox-workload", O_RDONLY) != -1 ||
		    errno != ENOENT)
			return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (spin_ms > 0) {
		syscall(SYS_getppid);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= spin_ms)
			break;
	}
	return 0;
}
