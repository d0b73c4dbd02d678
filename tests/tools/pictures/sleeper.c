/* sleeper.c - the off-CPU test's program: sleeps 300 ms in sleep_long and
 * 100 ms in sleep_short, three times each, the system call made in its
 * own code (x86_64) so the frame-pointer walk keeps both functions. */
#include <time.h>
#include <sys/syscall.h>
#include <unistd.h>

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
#if defined(__x86_64__)
	long ret;

	__asm__ volatile ("syscall" : "=a"(ret) : "0"((long)SYS_nanosleep), "D"(&ts), "S"(0L)
			  : "rcx", "r11", "memory");
#else
	nanosleep(&ts, NULL);
#endif
}

__attribute__((noinline)) void sleep_long(void)
{
	nap(300);
}

__attribute__((noinline)) void sleep_short(void)
{
	nap(100);
}

int main(void)
{
	for (int i = 0; i < 3; i++) {
		sleep_long();
		sleep_short();
	}
	return 0;
}
