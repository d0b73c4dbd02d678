/* pd_input.h - bounded, buffered sequential reading of a file or pipe. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_INPUT_H
#define PD_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include "util/tb_err.h"

/*
 * Usage: pd_in_init(), optionally pd_in_seek() (regular files only), then
 * loop { p = pd_in_peek(in, n, ...); use p[0..n); pd_in_consume(in, n); }.
 * A peeked pointer is valid until the next peek/consume/read. The buffer
 * never grows past its capacity, so memory stays bounded.
 */
struct pd_input {
	int fd;
	unsigned char *buf;
	size_t cap;        /* buffer size */
	size_t head, tail; /* valid bytes are buf[head..tail) */
	uint64_t pos;      /* stream offset of buf[head] */
	uint64_t end;      /* no reads at or past this offset (UINT64_MAX: none) */
	int eof;           /* the fd returned 0 */
	int wake_fd;       /* >= 0: a read first waits for the input or for this
			    * fd, which stops it (TB_ERR_STOP; pd_pipeline.c) */
};

int pd_in_init(struct pd_input *in, int fd, size_t cap);
void pd_in_free(struct pd_input *in);

/** pd_in_seek - restart at @off (regular files), reading no further than @end */
int pd_in_seek(struct pd_input *in, uint64_t off, uint64_t end, struct tb_err *err);

/**
 * pd_in_peek - make @n bytes at the current position contiguous
 * Returns a pointer to them, or NULL when fewer remain; *@avail then holds
 * how many did (0 at a clean end). I/O errors set @err and *@avail = 0
 * with err->code != 0.
 */
const unsigned char *pd_in_peek_fill(struct pd_input *in, size_t n, size_t *avail,
				     struct tb_err *err);
static inline const unsigned char *pd_in_peek(struct pd_input *in, size_t n, size_t *avail,
					      struct tb_err *err)
{
	if (in->tail - in->head >= n) {      /* inline: twice a record */
		*avail = in->tail - in->head;
		return in->buf + in->head;
	}
	return pd_in_peek_fill(in, n, avail, err);
}

/** pd_in_consume - step over @n bytes already peeked */
void pd_in_consume(struct pd_input *in, size_t n);

/** pd_in_read - copy @n bytes to @dst (any size, bypasses the buffer limit) */
int pd_in_read(struct pd_input *in, void *dst, size_t n, struct tb_err *err);

/** pd_pread_all - read exactly @n bytes at @off; 0, or TB_ERR_TRUNCATED/IO */
int pd_pread_all(int fd, void *dst, size_t n, uint64_t off, struct tb_err *err);

#endif
