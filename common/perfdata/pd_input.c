/* pd_input.c - bounded, buffered sequential reading of a file or pipe. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "perfdata/pd_input.h"
#include "util/io.h"

int pd_in_init(struct pd_input *in, int fd, size_t cap)
{
	memset(in, 0, sizeof(*in));
	in->fd = fd;
	in->wake_fd = -1;
	in->cap = cap;
	in->end = UINT64_MAX;
	in->buf = malloc(cap);
	return in->buf ? 0 : TB_ERR_NOMEM;
}

void pd_in_free(struct pd_input *in)
{
	free(in->buf);
	in->buf = NULL;
}

int pd_in_seek(struct pd_input *in, uint64_t off, uint64_t end, struct tb_err *err)
{
	if (lseek(in->fd, (off_t)off, SEEK_SET) < 0)
		return tb_err_set(err, TB_ERR_IO, off, "cannot seek: %s", strerror(errno));
	in->head = in->tail = 0;
	in->pos = off;
	in->end = end;
	in->eof = 0;
	return 0;
}

/* Bytes the stream may still deliver past what the buffer holds. */
static uint64_t room_left(const struct pd_input *in)
{
	uint64_t buffered_end = in->pos + (in->tail - in->head);

	if (in->end == UINT64_MAX)
		return UINT64_MAX;
	return in->end > buffered_end ? in->end - buffered_end : 0;
}

/* Wait until the input has bytes (or its end) or the wake fd is
 * readable: 1 for the input, 0 for the wake fd (a pipe that may never
 * end is not read then: pd_pipeline.c's consumer stopped). */
static int input_or_wake(const struct pd_input *in)
{
	struct pollfd p[2] = { { .fd = in->fd, .events = POLLIN },
			       { .fd = in->wake_fd, .events = POLLIN } };

	while (poll(p, 2, -1) < 0)
		if (errno != EINTR)
			return 1;          /* the read says what is wrong */
	return !(p[1].revents & (POLLIN | POLLHUP | POLLERR));
}

static int fill(struct pd_input *in, struct tb_err *err)
{
	size_t want;
	uint64_t left = room_left(in);
	ssize_t got;

	if (in->eof || left == 0)
		return 0;
	if (in->head > 0) {
		memmove(in->buf, in->buf + in->head, in->tail - in->head);
		in->tail -= in->head;
		in->head = 0;
	}
	want = in->cap - in->tail;
	if (want > left)
		want = (size_t)left;
	if (want == 0)
		return 0;
	if (in->wake_fd >= 0 && !input_or_wake(in))
		return tb_err_set(err, TB_ERR_STOP, in->pos + in->tail, "the reading was stopped");
	got = read_some(in->fd, in->buf + in->tail, want);     /* a pipe: what it has now */
	if (got < 0)
		return tb_err_set(err, TB_ERR_IO, in->pos + in->tail, "read failed: %s",
				  strerror(errno));
	if (got == 0)
		in->eof = 1;
	in->tail += (size_t)got;
	return (int)(got > 0);
}

/* pd_in_peek when the buffer holds less than @n bytes */
const unsigned char *pd_in_peek_fill(struct pd_input *in, size_t n, size_t *avail,
				     struct tb_err *err)
{
	int r;

	while (in->tail - in->head < n) {
		if (n > in->cap) {
			*avail = in->tail - in->head;
			return NULL;
		}
		r = fill(in, err);
		if (r < 0) {
			*avail = 0;
			return NULL;
		}
		if (r == 0) {
			*avail = in->tail - in->head;
			return NULL;
		}
	}
	*avail = in->tail - in->head;
	return in->buf + in->head;
}

void pd_in_consume(struct pd_input *in, size_t n)
{
	in->head += n;
	in->pos += n;
}

int pd_in_read(struct pd_input *in, void *dst, size_t n, struct tb_err *err)
{
	unsigned char *d = dst;
	size_t have = in->tail - in->head;
	size_t take = have < n ? have : n;
	ssize_t got;

	memcpy(d, in->buf + in->head, take);
	pd_in_consume(in, take);
	d += take;
	n -= take;
	if (n == 0)
		return 0;
	if (room_left(in) < n)
		return tb_err_set(err, TB_ERR_TRUNCATED, in->pos,
				  "%zu bytes needed past the end of the section", n);
	got = readn(in->fd, d, n);
	if (got < 0)
		return tb_err_set(err, TB_ERR_IO, in->pos, "read failed: %s", strerror(errno));
	in->pos += (uint64_t)got;
	if ((size_t)got < n)
		return tb_err_set(err, TB_ERR_TRUNCATED, in->pos,
				  "end of input with %zu bytes still expected", n - (size_t)got);
	return 0;
}

int pd_pread_all(int fd, void *dst, size_t n, uint64_t off, struct tb_err *err)
{
	ssize_t got = preadn(fd, dst, n, off);

	if (got < 0)
		return tb_err_set(err, TB_ERR_IO, off, "read failed: %s", strerror(errno));
	if ((size_t)got < n)
		return tb_err_set(err, TB_ERR_TRUNCATED, off + (uint64_t)got,
				  "end of file with %zu bytes still expected", n - (size_t)got);
	return 0;
}
