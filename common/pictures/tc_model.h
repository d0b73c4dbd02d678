/* tc_model.h - the timechart's model of a scheduling recording: per CPU
 * which task ran when, per task when it ran, waited to run or was blocked,
 * and the wake-ups; built from sched_switch, sched_wakeup(_new) and
 * sched_process_exit (their fields as include/trace/events/sched.h
 * defines them), bounded against a hostile recording. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TC_MODEL_H
#define TC_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "pictures/tidmap.h"

#define TC_COMM_MAX   16           /* bytes of a comm kept (the kernel's TASK_COMM_LEN) */
#define TC_COMM_BUF   (3 * TC_COMM_MAX + 1) /* the same as UTF-8, each bad byte a U+FFFD */
#define TC_MAX_CPUS   4096         /* CPUs numbered from 0 to this - 1; others ignored */
#define TC_MAX_TASKS  (1u << 17)   /* tasks tracked; later ones ignored */
#define TC_MAX_SPANS  (1u << 22)   /* intervals kept, CPUs' and tasks' together */
#define TC_MAX_WAKEUPS (1u << 20)  /* wake-ups kept */

enum tc_state { TC_RUNNING, TC_RUNNABLE, TC_BLOCKED, TC_UNKNOWN };

/* An interval: a task's state (@arg: the CPU it ran on, -1 when it did
 * not run), or a CPU's task (@state TC_RUNNING, @arg its pid). Times in
 * ns since the recording's first event. */
struct tc_span {
	uint64_t start, end;
	int32_t arg;
	uint8_t state;
};

struct tc_spans {
	struct tc_span *v;
	size_t nr, cap;
};

struct tc_task {
	uint32_t pid;              /* the kernel's pid: a thread id */
	char comm[TC_COMM_BUF];    /* the last one seen, valid UTF-8 */
	struct tc_spans spans;     /* in time order, not overlapping */
	uint64_t since;            /* of @state */
	int32_t cpu;               /* TC_RUNNING: where */
	uint8_t state;             /* TC_UNKNOWN: nothing drawn until the next event */
	uint8_t exited;            /* sched_process_exit seen: the next switch-out ends it */
};

struct tc_cpu {
	struct tc_spans spans;     /* the tasks that ran (the idle task, pid 0, left out) */
	uint64_t since;
	uint32_t pid;              /* running since @since, when @known */
	uint8_t known;
};

struct tc_wakeup {
	uint64_t time;
	uint32_t waker, wakee;     /* the waking sample's tid; the woken pid */
	int32_t waker_cpu, target_cpu; /* -1: out of range */
};

struct tc_model {
	struct tidmap ids;         /* pid -> uint32_t: index into tasks + 1 */
	struct tc_task *tasks;
	size_t nr_tasks, cap_tasks;
	struct tc_cpu *cpus;       /* nr_cpus: the highest CPU seen + 1 */
	size_t nr_cpus;
	struct tc_wakeup *wakeups;
	size_t nr_wakeups, cap_wakeups;
	uint64_t first, last;      /* absolute ns: the first event; last: relative */
	int started;
	size_t nr_spans;
	/* what the bounds left out */
	uint64_t dropped_spans, dropped_wakeups, dropped_tasks, dropped_cpus;
};

/*
 * Usage: tc_model_init, then for each event in time order tc_switch,
 * tc_wakeup or tc_exit (each takes the sample's absolute time in ns; a
 * time before the previous one counts as the previous one), then
 * tc_finish (closes what is still open at the last event's time), read
 * the model, tc_model_free. The functions return 0, or -1 when out of
 * memory (the model stays consistent; freeing it is all that is left).
 */
void tc_model_init(struct tc_model *m);

/**
 * tc_switch - sched_switch on @cpu: @prev leaves it (@prev_state 0, or
 * the preempted bit alone: runnable; anything else: blocked; dead after
 * sched_process_exit or with X/Z: nothing more), @next runs there.
 * @prev_comm/@next_comm: @plen/@nlen bytes, cut at a NUL or TC_COMM_MAX.
 */
int tc_switch(struct tc_model *m, uint64_t time, int32_t cpu, uint32_t prev,
	      uint64_t prev_state, const char *prev_comm, size_t plen, uint32_t next,
	      const char *next_comm, size_t nlen);

/**
 * tc_wakeup - @waker (the sample's tid, on @cpu) woke @wakee (@comm,
 * @len bytes) to run on @target_cpu: a blocked wakee becomes runnable.
 */
int tc_wakeup(struct tc_model *m, uint64_t time, int32_t cpu, uint32_t waker,
	      uint32_t wakee, int32_t target_cpu, const char *comm, size_t len);

/** tc_exit - sched_process_exit of @pid: after its last switch-out, nothing */
int tc_exit(struct tc_model *m, uint64_t time, uint32_t pid);

/** tc_finish - the open intervals closed at the last event's time */
int tc_finish(struct tc_model *m);

/** tc_task_of - the task of @pid, or NULL */
const struct tc_task *tc_task_of(const struct tc_model *m, uint32_t pid);

void tc_model_free(struct tc_model *m);

#endif
