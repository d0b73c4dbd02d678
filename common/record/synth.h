/* synth.h - synthesize FORK, COMM and MMAP2 records for threads that already exist (/proc), and the kernel's MMAP. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYNTH_H
#define SYNTH_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "util/bytebuf.h"

struct synth_buf {
	struct bytebuf b;
	uint64_t id;          /* IDENTIFIER for the sample_id trailer */
	uint64_t sample_type; /* the trailer's fields (sample_id_all) */
	int maps;             /* synth_threads: also each process's MMAP2s */
	int data_maps;        /* and its data mappings (perf record -d) */
};

/**
 * synth_threads - append, for every thread of @pids (all of /proc when
 * @pids is NULL), a FORK from its parent and a COMM with its name, at time
 * 0 with the @b->sample_type trailer, as perf record synthesizes them; with
 * @b->maps, after each process's first COMM the MMAP2s of its executable
 * mappings from /proc/PID/maps (and readable data ones with @b->data_maps).
 * Returns the number of threads, or -1 when out of memory.
 */
long synth_threads(struct synth_buf *b, const pid_t *pids, size_t nr_pids);
/** synth_comm - append one COMM record (time 0) */
void synth_comm(struct synth_buf *b, pid_t pid, pid_t tid, const char *comm);
/**
 * synth_kernel_mmap - append perf's MMAP of the kernel text (pid -1,
 * "[kernel.kallsyms]_text", _text to _etext from /proc/kallsyms) and one
 * MMAP per module of /proc/modules; returns 0, or -1 when the kernel's
 * addresses are hidden (kptr_restrict) and nothing was written
 */
int synth_kernel_mmap(struct synth_buf *b);
/** synth_mmaps - append the MMAP2s of process @pid (see synth_threads) */
void synth_mmaps(struct synth_buf *b, pid_t pid);
void synth_free(struct synth_buf *b);

#endif
