/* pd_writer.h - writing perf.data files (file and pipe mode) that perf 6.1 reads. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_WRITER_H
#define PD_WRITER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/uio.h>
#include "util/tb_err.h"

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
	int staged;                    /* a regular file streamed as pipe format */
	uint64_t data_offset;          /* where the data starts (the syscall map) */
	uint64_t data_size;            /* data bytes written so far */
	uint64_t data_base;            /* the syscall map's bytes: never cut back */
	const struct pd_wattr *attrs;
	size_t nr_attrs;
	const struct pd_wfeature *feats;
	size_t nr_feats;
	const struct pd_wfeature *scmap;   /* the syscall map, out of @feats */
	/* ends (relative to data start) of the latest whole chunks and the
	 * samples written up to each, to cut back at a full disk */
	struct { uint64_t end, samples; } history[PD_WRITER_HISTORY];
	size_t nr_history;
	uint64_t dropped;              /* bytes given up to make room at a full disk */
	uint64_t samples;              /* SAMPLE records on disk (the caller counts them);
					* into a pipe whose reader went away: those it read */
	/* -o - into a pipe: where each sample ends in the stream, with the
	 * samples up to it, over the last pipe-size bytes (a ring of
	 * cap_marks; nr_marks counts every mark), to tell at EPIPE which
	 * samples the reader took (the pipe's unread bytes never reach it) */
	struct pd_wmark { uint64_t end, samples; } *marks;
	size_t nr_marks, cap_marks;
	uint64_t stream;               /* bytes the output took so far */
	uint64_t piped;                /* samples handed to the pipe, the failed write's too */
	uint64_t unread;               /* of those, samples the reader never read (EPIPE) */
	int reader_gone;               /* a write failed with EPIPE: unread is set */
	struct pd_comp *comp;          /* set: samples go out in COMPRESSED records */
};

/*
 * Layout of a regular file (why: perf 6.1 refuses a file-mode file whose
 * header was never patched, and needs its tracing data as a feature, which
 * comes after the data; but it reads a pipe-format stream from a regular
 * file, also one cut in the middle of a record). So the file is a pipe
 * stream while it is written, and becomes a file-mode file at a clean end:
 *
 *   0     pipe header (16 bytes)           overwritten by the 104-byte file
 *   16    HEADER_ATTR per attr             header at a clean end; file mode
 *         HEADER_FEATURE ..., end mark     never reads these records again
 *         HEADER_TRACING_DATA + payload    (so perf parses the tracing data
 *         EVENT_UPDATE "unfinished" mark    once: the feature copy)
 *   D     EVENT_UPDATE syscall map         the data section starts here, in
 *         COMMs, samples, FINISHED_ROUNDs   both modes; a write per drained ring
 *   end   feature index, features,         written at a clean end, then the
 *         ids, attrs                       header, last
 *
 * A SIGKILL or a full disk leaves a pipe stream that holds every record
 * written (perf script reads it; trace-report reads it with a warning, the
 * "unfinished" mark telling it the recording was cut). Pipe mode (-o -) is
 * the same stream without the mark and without the clean-end rewrite.
 *
 * Usage:
 *   pd_writer_start(w, fd, pipe, attrs, n, feats, m)   header records
 *   pd_writer_write(w, iov, cnt) ...                   whole records only
 *   (pd_writer_write_samples() also counts the samples they hold)
 *   pd_writer_finish(w)                                file: trailer, header
 * On a write error in file mode pd_writer_write() returns it with @err set,
 * after cutting the data back to the last whole chunk that leaves room for
 * the trailer; pd_writer_finish() then still leaves a file perf reads.
 * Into a pipe whose reader went away (EPIPE), @samples becomes the samples
 * the reader read whole, @unread those it did not, @reader_gone 1.
 * pd_writer_finish() or pd_writer_free() releases what start allocated.
 * @feats must be sorted by bit and include TRACING_DATA; they must stay valid
 * (their payloads may change) until finish. A PD_FEAT_SYSCALL_MAP entry is
 * not a feature: it goes in the EVENT_UPDATE at D.
 */
int pd_writer_start(struct pd_writer *w, int fd, int pipe, const struct pd_wattr *attrs,
		    size_t nr_attrs, const struct pd_wfeature *feats, size_t nr_feats,
		    struct tb_err *err);
int pd_writer_write(struct pd_writer *w, const struct iovec *iov, int iovcnt,
		    struct tb_err *err);
/** pd_writer_write_samples - pd_writer_write() of records holding @nr_samples
 * SAMPLEs: w->samples counts what is on disk, also after a cut-back */
int pd_writer_write_samples(struct pd_writer *w, const struct iovec *iov, int iovcnt,
			    uint64_t nr_samples, struct tb_err *err);
int pd_writer_finish(struct pd_writer *w, struct tb_err *err);
/** pd_writer_free - release what pd_writer_start allocated, when
 * pd_writer_finish() was not called (a failed start); again is harmless */
void pd_writer_free(struct pd_writer *w);

struct pd_comp;
/** pd_writer_compress - from now on pd_writer_write_samples() writes its
 * records compressed through @c, in PERF_RECORD_COMPRESSED records, as
 * perf record -z does (the caller adds the HEADER_COMPRESSED feature) */
void pd_writer_compress(struct pd_writer *w, struct pd_comp *c);

/** pd_header_string - perf_header_string encoding: u32 len (strlen+1 rounded
 * up to 64) and the NUL-padded text; returns bytes written to @out (cap >= len) */
size_t pd_header_string(unsigned char *out, const char *s);
size_t pd_header_string_size(const char *s);

#endif
