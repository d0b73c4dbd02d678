/* io.c - readn/writen and their kin (EINTR and short counts), read_all, open_regular. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include "util/io.h"

enum io_op { IO_READ, IO_PREAD, IO_WRITE, IO_PWRITE };

/* One call of @op: what read(2), pread(2), write(2) or pwrite(2) return. */
static ssize_t io_once(enum io_op op, int fd, char *buf, size_t n, uint64_t off)
{
	switch (op) {
	case IO_READ:
		return read(fd, buf, n);
	case IO_PREAD:
		return pread(fd, buf, n, (off_t)off);
	case IO_WRITE:
		return write(fd, buf, n);
	default:
		return pwrite(fd, buf, n, (off_t)off);
	}
}

/* The loop (libperf's ion): @op until @n bytes are done, EINTR retried.
 * Returns the bytes done, fewer when a call did nothing (the end of the
 * file), or -1 with errno. */
static ssize_t io_loop(enum io_op op, int fd, char *buf, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t got = io_once(op, fd, buf + done, n - done, off + done);

		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		if (got == 0)
			break;
		done += (size_t)got;
	}
	return (ssize_t)done;
}

/* a write that did less than @n: ENOSPC when write(2) took nothing */
static int all_out(ssize_t done, size_t n)
{
	if (done >= 0 && (size_t)done < n)
		errno = ENOSPC;
	return done >= 0 && (size_t)done == n ? 0 : -1;
}

ssize_t readn(int fd, void *buf, size_t n)
{
	return io_loop(IO_READ, fd, buf, n, 0);
}

ssize_t preadn(int fd, void *buf, size_t n, uint64_t off)
{
	return io_loop(IO_PREAD, fd, buf, n, off);
}

int writen(int fd, const void *buf, size_t n)
{
	return all_out(io_loop(IO_WRITE, fd, (char *)buf, n, 0), n);
}

int pwriten(int fd, const void *buf, size_t n, uint64_t off)
{
	return all_out(io_loop(IO_PWRITE, fd, (char *)buf, n, off), n);
}

ssize_t read_some(int fd, void *buf, size_t n)
{
	ssize_t got;

	do
		got = io_once(IO_READ, fd, buf, n, 0);
	while (got < 0 && errno == EINTR);
	return got;
}

/* writev(2), or sendmsg(2) with @flags when @sock, until @iov is empty */
static int vec_out(int fd, struct iovec *iov, int cnt, int sock, int flags, size_t *done)
{
	size_t total = 0;

	while (cnt > 0 && iov->iov_len == 0) {
		iov++;
		cnt--;
	}
	while (cnt > 0) {
		ssize_t w = !sock ? writev(fd, iov, cnt) :
			    sendmsg(fd, &(struct msghdr){ .msg_iov = iov, .msg_iovlen = (size_t)cnt },
				    flags);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (w == 0)
				errno = ENOSPC;
			if (done)
				*done = total;
			return -1;
		}
		total += (size_t)w;
		/* skip what went out */
		while (cnt > 0 && (size_t)w >= iov->iov_len) {
			w -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt > 0) {
			iov->iov_base = (char *)iov->iov_base + w;
			iov->iov_len -= (size_t)w;
		}
	}
	if (done)
		*done = total;
	return 0;
}

int writevn(int fd, struct iovec *iov, int cnt, size_t *done)
{
	return vec_out(fd, iov, cnt, 0, 0, done);
}

int sendvn(int fd, struct iovec *iov, int cnt, int flags, size_t *done)
{
	return vec_out(fd, iov, cnt, 1, flags, done);
}

int read_all(int fd, size_t max, char **out, size_t *len)
{
	size_t cap = 4096, have = 0;
	char *buf = NULL;

	for (;;) {
		ssize_t got;
		size_t want;

		if (!buf || have == cap) {
			char *nb;

			if (buf)
				cap *= 2;
			if (!(nb = realloc(buf, cap + 1))) {
				free(buf);
				errno = ENOMEM;
				return -1;
			}
			buf = nb;
		}
		want = cap - have;
		if (max && want > max - have + 1)
			want = max - have + 1;     /* one past the cap tells it is over */
		got = read_some(fd, buf + have, want);
		if (got < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return -1;
		}
		if (got == 0)
			break;
		have += (size_t)got;
		if (max && have > max) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	buf[have] = 0;
	*out = buf;
	*len = have;
	return 0;
}

static const char *kind_of(mode_t m)
{
	return S_ISDIR(m) ? "directory" : S_ISFIFO(m) ? "FIFO" : S_ISCHR(m) ? "character device" :
	       S_ISBLK(m) ? "block device" : S_ISSOCK(m) ? "socket" : "unknown type";
}

/* @st is not a regular file of at most @max bytes: say why, errno set */
static int refuse(const char *path, const struct stat *st, uint64_t max, struct tb_err *err)
{
	if (!S_ISREG(st->st_mode)) {
		errno = S_ISDIR(st->st_mode) ? EISDIR : EINVAL;
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s: not a regular file (%s)", path,
				  kind_of(st->st_mode));
	}
	if (max && (uint64_t)st->st_size > max) {
		errno = EFBIG;
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
				  "%s: file of %llu bytes is larger than the %llu read at most",
				  path, (unsigned long long)st->st_size, (unsigned long long)max);
	}
	return 0;
}

/* open(2) or fstat(2) failed with @e: say so */
static int failed(const char *path, int e, struct tb_err *err)
{
	tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s: %s", path, strerror(e));
	errno = e;
	return TB_ERR_IO;
}

int open_regular(const char *path, uint64_t max_size, struct stat *st, struct tb_err *err)
{
	struct stat s;
	int fd, fl;

	if (!st)
		st = &s;
	/* a device is never opened: opening one may do something (a tape rewinds) */
	if (stat(path, st))
		return failed(path, errno, err);
	if (refuse(path, st, max_size, err))
		return TB_ERR_IO;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return failed(path, errno, err);
	/* what was opened, which may not be what stat saw */
	if (fstat(fd, st) || (fl = fcntl(fd, F_GETFL)) < 0) {
		int e = errno;

		close(fd);
		return failed(path, e, err);
	}
	if (refuse(path, st, max_size, err)) {
		int e = errno;

		close(fd);
		errno = e;
		return TB_ERR_IO;
	}
	if (fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
		int e = errno;

		close(fd);
		return failed(path, e, err);
	}
	return fd;
}

int mkdir_p(char *path, mode_t mode)
{
	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(path, mode) && errno != EEXIST) {
			*p = '/';
			return -1;
		}
		*p = '/';
	}
	return mkdir(path, mode) && errno != EEXIST ? -1 : 0;
}
