/* io.h - whole reads and writes that survive EINTR and short counts, and opening a named file only when it is a regular one. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TB_IO_H
#define TB_IO_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/uio.h>
#include "util/tb_err.h"

/*
 * The one place tracebox loops over read(2) and write(2) (as libperf's
 * lib.c does): every call is retried on EINTR and continued after a short
 * count. EAGAIN is not retried: a non-blocking descriptor gets it back as
 * an error, as from one read(2).
 */

/**
 * readn - read @n bytes from @fd into @buf
 * Returns @n; fewer only when the file ended first (0 at its end);
 * -1 with errno on an error (what was read before it is lost).
 */
ssize_t readn(int fd, void *buf, size_t n);

/**
 * preadn - pread(2) @n bytes at offset @off of @fd into @buf
 * Returns as readn: @n, fewer at the end of the file, -1 with errno.
 */
ssize_t preadn(int fd, void *buf, size_t n, uint64_t off);

/**
 * read_some - one read(2) of at most @n bytes, retried on EINTR only: what
 * a pipe or a socket has now. Returns the bytes read (0 at the end), or -1
 * with errno.
 */
ssize_t read_some(int fd, void *buf, size_t n);

/**
 * writen - write all of @n bytes of @buf to @fd
 * Returns 0, or -1 with errno (ENOSPC when write(2) took nothing).
 */
int writen(int fd, const void *buf, size_t n);

/**
 * pwriten - pwrite(2) all of @n bytes of @buf at offset @off of @fd
 * Returns 0, or -1 with errno (ENOSPC when pwrite(2) took nothing).
 */
int pwriten(int fd, const void *buf, size_t n, uint64_t off);

/**
 * writevn - writev(2) all the bytes of @iov[0..@cnt) to @fd
 * @iov: changed as bytes go out (copy it first to keep it)
 * @done: the bytes written, also on failure (may be NULL)
 * Returns 0, or -1 with errno (ENOSPC when writev(2) took nothing).
 */
int writevn(int fd, struct iovec *iov, int cnt, size_t *done);

/**
 * sendvn - writevn through sendmsg(2) with @flags (MSG_NOSIGNAL: a closed
 * peer is EPIPE, not SIGPIPE), for sockets
 */
int sendvn(int fd, struct iovec *iov, int cnt, int flags, size_t *done);

/**
 * read_all - the rest of @fd, NUL-terminated, in a malloc'd *@out of
 * *@len bytes (the NUL not counted); @max bytes at most (0: no limit)
 * Returns 0, or -1 with errno (ENOMEM; EFBIG past @max; read(2)'s).
 */
int read_all(int fd, size_t max, char **out, size_t *len);

/**
 * open_regular - open a file that a recording or an option names, for
 * reading, only if it is a regular file (a symlink is followed)
 * @path: the file
 * @max_size: refuse a file larger than this (0: no cap). A procfs file
 *	says size 0 (/proc/kallsyms): it passes, and its reader bounds it.
 * @st: its fstat(2), may be NULL
 * @err: filled on failure with one line naming @path and why, e.g.
 *	"/tmp/perf-1.map: not a regular file (FIFO)" (may be NULL)
 *
 * The file is looked at (stat) before it is opened, so that a device is
 * never opened; it is opened O_NONBLOCK (a FIFO put there since does not
 * block the open), checked again with fstat, then O_NONBLOCK is cleared.
 *
 * Returns the descriptor (O_CLOEXEC), or TB_ERR_IO with errno set: open(2)'s
 * (ENOENT: nothing there, the one a caller usually keeps quiet), EISDIR for
 * a directory, EINVAL for a FIFO, device or socket, EFBIG past @max_size.
 */
int open_regular(const char *path, uint64_t max_size, struct stat *st, struct tb_err *err);

/**
 * mkdir_p - make @path and the folders above it that are missing, each with
 * @mode (@path is changed in place while it works, and restored)
 * Returns 0, or -1 with errno.
 */
int mkdir_p(char *path, mode_t mode);

#endif
