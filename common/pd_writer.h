/* pd_writer.h - writing perf.data files (file and pipe mode) that perf 6.1 reads. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_WRITER_H
#define PD_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include "tb_err.h"

struct pd_wattr {
	unsigned char attr[128];       /* perf_event_attr, size field = 128 */
	const uint64_t *ids;
	size_t nr_ids;
	const char *name;              /* "sys:event", for EVENT_DESC */
};

struct pd_wfeature {
	int bit;                       /* PD_FEAT_* */
	const unsigned char *data;
	size_t len;
};

#define PD_WRITER_HISTORY 1024

struct pd_writer {
	int fd, pipe;
	uint64_t data_offset;          /* file mode: where the data starts */
	uint64_t data_size;            /* data bytes written so far */
	const struct pd_wattr *attrs;
	size_t nr_attrs;
	const struct pd_wfeature *feats;
	size_t nr_feats;
	/* ends (relative to data start) of the latest whole chunks, for a full disk */
	uint64_t history[PD_WRITER_HISTORY];
	size_t nr_history;
	uint64_t dropped;              /* bytes given up to make room at a full disk */
};

/*
 * Usage:
 *   pd_writer_start(w, fd, pipe, attrs, n, feats, m)   header / HEADER_* records
 *   pd_writer_write(w, iov, cnt) ...                   whole records only
 *   pd_writer_finish(w)                                file mode: index, features, header
 * On a write error in file mode pd_writer_write() returns it with @err set,
 * after cutting the data back to the last whole chunk that leaves room for
 * the features; pd_writer_finish() then still leaves a file perf reads.
 * @feats must be sorted by bit and include TRACING_DATA; they must stay valid
 * until finish. The syscall map (PD_FEAT_SYSCALL_MAP) goes in an EVENT_UPDATE
 * record in pipe mode, where perf refuses unknown features.
 */
int pd_writer_start(struct pd_writer *w, int fd, int pipe, const struct pd_wattr *attrs,
		    size_t nr_attrs, const struct pd_wfeature *feats, size_t nr_feats,
		    struct tb_err *err);
int pd_writer_write(struct pd_writer *w, const struct iovec *iov, int iovcnt,
		    struct tb_err *err);
int pd_writer_finish(struct pd_writer *w, struct tb_err *err);

/** pd_header_string - perf_header_string encoding: u32 len (strlen+1 rounded
 * up to 64) and the NUL-padded text; returns bytes written to @out (cap >= len) */
size_t pd_header_string(unsigned char *out, const char *s);
size_t pd_header_string_size(const char *s);

#endif
