/* spin.c - the flame graph tests' program: spin MS_A MS_B [COMM [threads]]
 * burns MS_A ms of CPU in hot_a, then MS_B ms in hot_b (their shares are
 * what a differential flame graph compares), with COMM as its name; with
 * "threads", hot_b runs in a second thread at the same time. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static volatile unsigned long sink;

__attribute__((noinline)) void burn(double ms)
{
	double end = cpu_ms() + ms;

	while (cpu_ms() < end)
		for (int i = 0; i < 1000; i++)
			sink += i;
}

__attribute__((noinline)) void hot_a(double ms)
{
	burn(ms);
}

__attribute__((noinline)) void hot_b(double ms)
{
	burn(ms);
}

static void *second(void *ms)
{
	hot_b(*(double *)ms);
	return NULL;
}

int main(int argc, char **argv)
{
	double b;
	pthread_t t;

	if (argc < 3)
		return 2;
	if (argc > 3)
		prctl(PR_SET_NAME, argv[3], 0, 0, 0);
	b = atof(argv[2]);
	if (argc > 4 && !strcmp(argv[4], "threads")) {
		if (pthread_create(&t, NULL, second, &b))
			return 1;
		hot_a(atof(argv[1]));
		pthread_join(t, NULL);
		return 0;
	}
	hot_a(atof(argv[1]));
	hot_b(b);
	return 0;
}
