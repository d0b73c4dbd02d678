/* synth.h - synthesize FORK and COMM records for threads that already exist (/proc). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYNTH_H
#define SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "bytebuf.h"

struct synth_buf {
	struct bytebuf b;
	uint64_t id;          /* IDENTIFIER for the sample_id trailer */
};

/**
 * synth_threads - append, for every thread of @pids (all of /proc when
 * @pids is NULL), a FORK from its parent and a COMM with its name, at time
 * 0 with the REC_SAMPLE_TYPE trailer, as perf record synthesizes them.
 * Returns the number of threads, or -1 when out of memory.
 */
long synth_threads(struct synth_buf *b, const pid_t *pids, size_t nr_pids);
/** synth_comm - append one COMM record (time 0) */
void synth_comm(struct synth_buf *b, pid_t pid, pid_t tid, const char *comm);
void synth_free(struct synth_buf *b);

#endif
