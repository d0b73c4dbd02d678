/* test_io.c - the I/O helpers (common/util/io.h): readn/preadn/writen/pwriten/writevn
 * across short counts (a pipe fed a byte at a time) and EINTR (a signal
 * without SA_RESTART), read_all's cap, and open_regular on a regular file,
 * a FIFO, /dev/null, a directory, a symlink to a device and a size cap. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/uio.h>
#include "util/io.h"
#include "unit.h"

static char dir[] = "/tmp/test_io.XXXXXX";

static void on_alarm(int sig)
{
}

/* A child writes @text to @fd one byte at a time, @us microseconds apart. */
static pid_t trickle(int fd, const char *text, int us)
{
	pid_t pid = fork();

	if (pid == 0) {
		for (const char *p = text; *p; p++) {
			if (write(fd, p, 1) != 1)
				_exit(1);
			usleep((useconds_t)us);
		}
		_exit(0);
	}
	return pid;
}

static void test_short_reads(void)
{
	char buf[64] = "";
	int p[2];
	pid_t pid;

	if (pipe(p)) {
		T(0, "pipe: %s", strerror(errno));
		return;
	}
	pid = trickle(p[1], "abcdefgh", 2000);
	close(p[1]);
	T_EQ(readn(p[0], buf, 5), 5, "readn: 5 bytes out of single-byte writes");
	T_STR(buf, "abcde", "readn: in order");
	T_EQ(readn(p[0], buf, sizeof(buf)), 3, "readn: the 3 left, then the end");
	T_EQ(readn(p[0], buf, sizeof(buf)), 0, "readn: 0 at the end");
	close(p[0]);
	waitpid(pid, NULL, 0);
}

/* A read blocked on an empty pipe gets SIGALRM (no SA_RESTART): EINTR. */
static void test_eintr(void)
{
	struct sigaction sa = { .sa_handler = on_alarm }, old;
	struct itimerval it = { .it_interval = { 0, 3000 }, .it_value = { 0, 3000 } };
	struct itimerval off = { 0 };
	char buf[16] = "";
	int p[2], fd;
	pid_t pid;
	ssize_t n;

	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;               /* no SA_RESTART: read(2) returns EINTR */
	sigaction(SIGALRM, &sa, &old);
	if (pipe(p)) {
		T(0, "pipe: %s", strerror(errno));
		return;
	}
	setitimer(ITIMER_REAL, &it, NULL);  /* every 3 ms, while the child writes every 20 */
	pid = trickle(p[1], "0123456789", 20000);
	close(p[1]);
	n = readn(p[0], buf, 10);
	T_EQ(n, 10, "readn: every byte, across signals (EINTR retried)");
	T_STR(buf, "0123456789", "readn: the bytes in order");
	close(p[0]);
	waitpid(pid, NULL, 0);

	/* writen into a pipe that a slow reader empties: the writer blocks,
	 * is interrupted, and carries on */
	if (pipe(p)) {
		T(0, "pipe: %s", strerror(errno));
		return;
	}
	pid = fork();
	if (pid == 0) {
		static char sink[1 << 20];
		ssize_t got;
		size_t total = 0;

		close(p[1]);
		setitimer(ITIMER_REAL, &off, NULL);
		usleep(30000);
		while ((got = read(p[0], sink, sizeof(sink))) > 0)
			total += (size_t)got;
		_exit(total == 1 << 20 ? 0 : 1);
	}
	close(p[0]);
	{
		static char big[1 << 20];       /* 16 pipe buffers */
		int st;

		memset(big, 'x', sizeof(big));
		T_EQ(writen(p[1], big, sizeof(big)), 0, "writen: 1 MB into a pipe, across signals");
		close(p[1]);
		waitpid(pid, &st, 0);
		T(WIFEXITED(st) && WEXITSTATUS(st) == 0, "writen: the reader got every byte");
	}
	setitimer(ITIMER_REAL, &off, NULL);
	sigaction(SIGALRM, &old, NULL);

	/* preadn, pwriten, writevn on a file */
	{
		char path[64];
		struct iovec v[3] = { { "ab", 2 }, { "", 0 }, { "cdef", 4 } };
		size_t done = 99;

		snprintf(path, sizeof(path), "%s/file", dir);
		fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
		T(fd >= 0, "a scratch file");
		T_EQ(writevn(fd, v, 3, &done), 0, "writevn: 0");
		T_EQ(done, 6, "writevn: 6 bytes done");
		T_EQ(pwriten(fd, "XY", 2, 2), 0, "pwriten: 0");
		memset(buf, 0, sizeof(buf));
		T_EQ(preadn(fd, buf, 4, 1), 4, "preadn: 4 bytes at 1");
		T_STR(buf, "bXYe", "preadn: what pwriten put at 2");
		T_EQ(preadn(fd, buf, 10, 4), 2, "preadn: fewer at the end of the file");
		T_EQ(preadn(fd, buf, 10, 100), 0, "preadn: 0 past the end");
		T_EQ(readn(fd, buf, 1), 0, "readn: 0 at the end (the file offset is after writevn)");
		close(fd);
		T_EQ(writen(-1, "a", 1), (uint64_t)-1, "writen: -1 on a bad descriptor");
		T_EQ(errno, EBADF, "writen: errno EBADF");
		T_EQ(readn(-1, buf, 1), (uint64_t)-1, "readn: -1 on a bad descriptor");
	}
}

static void test_read_all(void)
{
	char path[64], *text = NULL;
	size_t len = 0;
	int fd, bad = 0;

	snprintf(path, sizeof(path), "%s/all", dir);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0600);
	for (int i = 0; i < 3000; i++)
		bad |= writen(fd, "0123456789", 10);
	T_EQ(bad, 0, "writen: 30000 bytes, 10 at a time");
	lseek(fd, 0, SEEK_SET);
	T_EQ(read_all(fd, 0, &text, &len), 0, "read_all: 0");
	T_EQ(len, 30000, "read_all: every byte");
	T(text && text[len] == 0 && text[29999] == '9', "read_all: NUL-terminated");
	free(text);
	lseek(fd, 0, SEEK_SET);
	T_EQ(read_all(fd, 30000, &text, &len), 0, "read_all: a cap of exactly the size");
	free(text);
	lseek(fd, 0, SEEK_SET);
	text = NULL;
	T_EQ(read_all(fd, 29999, &text, &len), (uint64_t)-1, "read_all: one byte past the cap");
	T_EQ(errno, EFBIG, "read_all: EFBIG");
	T(text == NULL, "read_all: nothing handed back");
	close(fd);
	fd = open("/dev/zero", O_RDONLY);
	T_EQ(read_all(fd, 1 << 20, &text, &len), (uint64_t)-1, "read_all: /dev/zero stops at the cap");
	close(fd);
}

/* open_regular on @path: the descriptor's sign, errno and the message */
static void refused(const char *path, uint64_t cap, int want_errno, const char *want_msg)
{
	struct tb_err err = { 0 };
	int fd = open_regular(path, cap, NULL, &err);

	T_EQ(fd, TB_ERR_IO, "open_regular %s: TB_ERR_IO", path);
	T_EQ(errno, want_errno, "open_regular %s: errno %d", path, want_errno);
	T_STR(err.msg, want_msg, "open_regular %s: the message", path);
	if (fd >= 0)
		close(fd);
}

static int open_fifo(void *arg)
{
	int fd = open_regular(arg, 0, NULL, NULL);

	return fd == TB_ERR_IO && errno == EINVAL ? 0 : 1;
}

static void test_open_regular(void)
{
	char path[64], fifo[64], lnk[64], msg[200];
	struct stat st;
	struct tb_err err = { 0 };
	int fd, fl;

	snprintf(path, sizeof(path), "%s/all", dir);
	fd = open_regular(path, 0, &st, &err);
	T(fd >= 0, "open_regular: a regular file opens");
	T_EQ(st.st_size, 30000, "open_regular: its fstat");
	fl = fcntl(fd, F_GETFL);
	T(!(fl & O_NONBLOCK), "open_regular: O_NONBLOCK cleared");
	T(fcntl(fd, F_GETFD) & FD_CLOEXEC, "open_regular: close-on-exec");
	T_EQ(err.code, 0, "open_regular: no error");
	close(fd);
	fd = open_regular(path, 30000, NULL, NULL);
	T(fd >= 0, "open_regular: a file of exactly the cap opens");
	close(fd);
	snprintf(msg, sizeof(msg), "%s: file of 30000 bytes is larger than the 29999 read at most",
		 path);
	refused(path, 29999, EFBIG, msg);
	fd = open_regular("/proc/self/status", 1, NULL, NULL);
	T(fd >= 0, "open_regular: a procfs file (size 0 in stat) opens under any cap");
	if (fd >= 0)
		close(fd);

	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	mkfifo(fifo, 0600);
	snprintf(msg, sizeof(msg), "%s: not a regular file (FIFO)", fifo);
	alarm(10);                    /* a hang fails the test */
	T_EQ(in_child(open_fifo, fifo), 0, "open_regular: a FIFO with no writer: refused at once");
	alarm(0);
	refused(fifo, 0, EINVAL, msg);
	refused("/dev/null", 0, EINVAL, "/dev/null: not a regular file (character device)");
	snprintf(lnk, sizeof(lnk), "%s/zero", dir);
	symlink("/dev/zero", lnk);
	snprintf(msg, sizeof(msg), "%s: not a regular file (character device)", lnk);
	refused(lnk, 0, EINVAL, msg);
	snprintf(msg, sizeof(msg), "%s: not a regular file (directory)", dir);
	refused(dir, 0, EISDIR, msg);
	snprintf(path, sizeof(path), "%s/none", dir);
	snprintf(msg, sizeof(msg), "%s: No such file or directory", path);
	refused(path, 0, ENOENT, msg);
	unlink(fifo);
	unlink(lnk);
}

int main(void)
{
	char path[64];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 2;
	}
	test_short_reads();
	test_eintr();
	test_read_all();
	test_open_regular();
	snprintf(path, sizeof(path), "%s/file", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/all", dir);
	unlink(path);
	rmdir(dir);
	return done();
}
