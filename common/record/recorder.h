/* recorder.h - open tracepoints with perf_event_open, one ring per CPU, and drain them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RECORDER_H
#define RECORDER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include "record/pd_writer.h"
#include "record/ring.h"
#include "util/tb_err.h"

/* What an event is for: a tracepoint, a hardware or software event by
 * perf's name, perf's default event (cycles:P), or perf's system-wide
 * dummy:HG that carries the side-band records (mmap, comm, task). */
enum rec_kind { REC_TRACEPOINT, REC_NAMED, REC_DEFAULT, REC_DUMMY };

struct rec_event {
	char *system, *name;     /* "raw_syscalls", "sys_enter"; system NULL: name as given ("faults") */
	enum rec_kind kind;
	uint32_t type;           /* PERF_TYPE_* (TRACEPOINT for tracepoints) */
	uint64_t config;         /* tracefs id, PERF_COUNT_* */
	int fell_back;           /* cycles was refused, cpu-clock opened instead (as perf) */
	uint64_t *ids;           /* one per opened fd (PERF_EVENT_IOC_ID) */
	size_t nr_ids;
};

struct rec_opts {
	const int *cpus;         /* CPUs to record on */
	size_t nr_cpus;
	const pid_t *tids;       /* threads to follow, or NULL for system-wide */
	size_t nr_tids;
	uint64_t period;         /* -c PERIOD: sample every PERIOD events (0: not given) */
	uint64_t freq;           /* -F: samples per second (default 4000) */
	int user_freq;           /* -F given: tracepoints sample by frequency too (as perf) */
	int callchain;           /* -g, --call-graph: callchains */
	uint64_t regs_user;      /* --call-graph dwarf, --user-regs: user registers (perf's mask) */
	uint64_t stack_user;     /* --call-graph dwarf: the user stack dump's bytes */
	int exclude_callchain_user;  /* --call-graph dwarf: the kernel part of the
				    callchain only (the reader unwinds the dump) */
	int sample_cpu;          /* system-wide: CPU in every sample */
	int mmap_data;           /* -d: data mmaps and sample addresses */
	int no_mmaps;            /* the tracking event follows comm and tasks, not mmaps */
	size_t pages;            /* ring data pages per CPU (power of two) */
	pid_t exclude_pid;       /* filter out this pid's events (0: none) */
	int enable_on_exec;      /* start counting when the traced child execs */
};

struct recorder {
	struct rec_event *evs;
	size_t nr_evs;
	int *fds;
	size_t nr_fds;
	struct ring *rings;      /* one per CPU */
	size_t nr_rings;
	struct ring_counts counts;
	uint64_t bytes;
	uint64_t wakeups;
	/* called with the records of each drained chunk before they are
	 * written (whole records, in one or two pieces), when set */
	void (*scan)(void *ctx, const struct iovec *iov, int n);
	void *scan_ctx;
};

/**
 * rec_open - open every event on every CPU (and thread), map one ring per
 * CPU and point the other fds of that CPU into it. The first event also
 * tracks comm/fork/exit (comm, task, comm_exec). Errors name what failed
 * and what to do (perf_event_paranoid, unknown event...).
 */
int rec_open(struct recorder *r, struct rec_event *evs, size_t nr_evs,
	     const struct rec_opts *o, struct tb_err *err);
/**
 * rec_attr - the perf_event_attr used for event @i (128 bytes), set as
 * perf record 6.1 sets it for the same options (sample_type, period or
 * frequency, the tracking bits on the dummy event or else the first event,
 * ID or IDENTIFIER when there is more than one event)
 */
void rec_attr(const struct recorder *r, const struct rec_opts *o, size_t i,
	      unsigned char attr[128]);
int rec_enable(struct recorder *r, struct tb_err *err);
void rec_disable(struct recorder *r);
/** rec_poll - wait up to @timeout_ms for a ring to fill; 0, or -1 with errno (EINTR, ENOMEM) */
int rec_poll(struct recorder *r, int timeout_ms);
/** rec_drain - copy every ring's data to @w, then a FINISHED_ROUND if any;
 * returns 0 or the writer's error */
int rec_drain(struct recorder *r, struct pd_writer *w, struct tb_err *err);
void rec_close(struct recorder *r);
/** rec_sample_type - the sample_type of event @i (as in rec_attr) */
uint64_t rec_sample_type(const struct rec_event *evs, size_t nr, const struct rec_opts *o,
			 size_t i);
/** rec_tracking - the index of the event carrying the side-band bits */
size_t rec_tracking(const struct rec_event *evs, size_t nr);

#endif
