/* pd_threads.h - the tid -> comm table, kept as perf keeps its threads. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_THREADS_H
#define PD_THREADS_H

#include <stddef.h>
#include <stdint.h>

/*
 * perf's rules (perf-data-format.md section 8): threads are keyed by tid;
 * a tid never named shows ":<tid>"; COMM renames; FORK gives the child the
 * parent's comm if the parent was named, and replaces any old thread with
 * that tid; EXIT changes nothing visible; tid 0 is "swapper".
 */
struct pd_thread {
	int32_t tid;
	int32_t pid;
	int used;
	int comm_set;     /* a COMM (or a named parent) gave it a name */
	char *comm;       /* heap string, always set once the entry exists */
};

struct pd_threads {
	struct pd_thread *slots;
	size_t nr_slots;  /* power of two */
	size_t nr_used;
	uint64_t gen;     /* moves whenever a comm is given, changed or dropped */
};

int pd_threads_init(struct pd_threads *t);
void pd_threads_free(struct pd_threads *t);

/** pd_threads_findnew - the thread for @tid, created with ":<tid>" if new; NULL on ENOMEM */
struct pd_thread *pd_threads_findnew(struct pd_threads *t, int32_t pid, int32_t tid);

/** pd_threads_set_comm - name @tid; 0 or TB_ERR_NOMEM */
int pd_threads_set_comm(struct pd_threads *t, int32_t pid, int32_t tid,
			const char *comm, size_t len);

/** pd_threads_fork - a FORK record: child (pid, tid) from parent (ppid, ptid) */
int pd_threads_fork(struct pd_threads *t, int32_t pid, int32_t tid,
		    int32_t ppid, int32_t ptid);

/** pd_threads_comm - the comm perf would show for @tid; never NULL unless ENOMEM */
const char *pd_threads_comm(struct pd_threads *t, int32_t pid, int32_t tid);

#endif
