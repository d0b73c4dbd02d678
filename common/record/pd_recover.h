/* pd_recover.h - turning a cut pipe stream (a killed trace-record file) into a file-mode perf.data. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_RECOVER_H
#define PD_RECOVER_H

#include <stdint.h>
#include "util/tb_err.h"

/* What a recovery read and wrote. */
struct pd_recover_stats {
	uint64_t records;          /* records copied into the data section */
	uint64_t samples;          /* of them SAMPLEs (outside COMPRESSED records) */
	uint64_t compressed;       /* of them COMPRESSED records (perf record -z) */
	uint64_t dropped;          /* records of a type perf 6.1 refuses, left out */
	uint64_t dropped_features; /* private feature bits (>= 32), left out */
	uint64_t damaged_features; /* sections the reader cannot parse, left out */
	uint64_t end;              /* where the last whole record ends in the input */
	uint64_t cut_bytes;        /* bytes after it that are no whole record */
	int unfinished;            /* the input carried trace-record's "unfinished" mark */
	int write_failed;          /* the error came from writing the output */
	int readback_failed;       /* the reader refuses the output (a bug) */
	/* the first record the reader refuses (code 0: none): where and why;
	 * the records before it are written, it and the rest left out (from
	 * @end on, @cut_bytes bytes) */
	struct tb_err damage;
};

/**
 * pd_recover - write @out_fd as the file-mode perf.data that a clean end of
 * the recording would have left (pd_writer.h's layout)
 * @in_fd: a seekable pipe stream: trace-record's file after a SIGKILL or a
 *         full disk, or any 'perf record -o -' stream saved to a file; read
 *         up to its last whole record
 * @out_fd: an empty file, written from offset 0
 * Every record perf 6.1 knows is kept in order; the pipe-only header records
 * become the attrs and feature sections. Each record passes the reader's own
 * checks first (pd_session_open_checked); at the first the reader refuses,
 * recovery stops (st->damage). The output (a regular file) is then read back
 * with the reader.
 * Returns 0, or TB_ERR_* with @err
 * naming the input offset (TB_ERR_UNSUPPORTED: a finished file-mode file,
 * nothing to recover).
 */
int pd_recover(int in_fd, int out_fd, struct pd_recover_stats *st, struct tb_err *err);

#endif
