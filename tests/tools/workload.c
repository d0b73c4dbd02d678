/* workload.c - a known workload for the oracle tests: exactly N getppid()
 * calls and M open() calls that fail with ENOENT, then exit 0 (openat() on
 * arches without open, such as aarch64).
 * usage: workload N M [SPIN_MS [SIGNALS]] (SPIN_MS: keep calling getppid for
 * that long; SIGNALS: send itself that many SIGUSR1 with tgkill, si_code
 * SI_TKILL = -6, and as many SIGUSR2 with sigqueue, SI_QUEUE = -1, after the
 * opens: signal:signal_generate's negative %d "code")
 * With WORKLOAD_TIMES=FILE it writes "elapsed_s cpu_s" of its own run there. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t caught;

static void on_signal(int sig)
{
	caught++;
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 100;
	long m = argc > 2 ? atol(argv[2]) : 10;
	long spin_ms = argc > 3 ? atol(argv[3]) : 0;
	long sigs = argc > 4 ? atol(argv[4]) : 0;
	const char *times = getenv("WORKLOAD_TIMES");
	struct timespec t0, t, start;
	struct rusage ru;
	FILE *f;

	clock_gettime(CLOCK_MONOTONIC, &start);

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);      /* no libc caching, one syscall each */
	for (long i = 0; i < m; i++)
#ifdef SYS_open
		if (syscall(SYS_open, "/nonexistent/tracebox-workload", O_RDONLY) != -1 ||
#else
		if (syscall(SYS_openat, AT_FDCWD, "/nonexistent/tracebox-workload", O_RDONLY) != -1 ||
#endif
		    errno != ENOENT)
			return 1;
	if (sigs > 0) {
		signal(SIGUSR1, on_signal);
		signal(SIGUSR2, on_signal);
	}
	for (long i = 0; i < sigs; i++) {
		union sigval v = { .sival_int = (int)i };

		if (syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGUSR1) ||
		    sigqueue(getpid(), SIGUSR2, v))
			return 1;
	}
	if (caught != 2 * sigs)
		return 1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	while (spin_ms > 0) {
		syscall(SYS_getppid);
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 >= spin_ms)
			break;
	}
	if (times && (f = fopen(times, "w"))) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		getrusage(RUSAGE_SELF, &ru);
		fprintf(f, "%.6f %.6f\n", (double)(t.tv_sec - start.tv_sec) +
			(double)(t.tv_nsec - start.tv_nsec) / 1e9,
			(double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) +
			(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6);
		fclose(f);
	}
	return 0;
}
