/* pd_session.h - reading a perf.data recording (file or pipe mode) event by event. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_SESSION_H
#define PD_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include "perfdata/pd_evsel.h"
#include "perfdata/pd_features.h"
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"
#include "util/tb_err.h"

struct tep_handle;
struct tep_event;
struct tp_decoder;
struct sym_opts;
struct sym_machine;

/* Counts perf keeps for its end-of-run warnings. */
struct pd_stats {
	uint64_t nr_records[PD_REC_MAX];  /* by record type */
	uint64_t nr_total;                /* every record read */
	uint64_t nr_lost_records;         /* PERF_RECORD_LOST records */
	uint64_t nr_lost_events;          /* events they say were lost */
	uint64_t nr_lost_samples;         /* sum of PERF_RECORD_LOST_SAMPLES */
	uint64_t nr_unordered;            /* records queued after a later one went out */
	uint64_t nr_unknown_id;           /* READ values of an id no attr lists */
	uint64_t nr_kernel_mmaps;         /* MMAPs of [kernel.kallsyms] delivered so far */
	/* a trace-record file still in its pipe-stream form (its recorder was
	 * killed or its disk filled, see pd_writer.h): read up to the last
	 * whole record; cut_off is where the bytes that are no record begin
	 * (cut_bytes of them), or the end of the file */
	int unfinished;
	uint64_t cut_off, cut_bytes;
	/* what was skipped rather than refused (the applet warns once each) */
	uint64_t nr_unknown_records;      /* records of a type neither perf 6.1 nor we know */
	uint32_t unknown_types[8];        /* the first distinct such types */
	unsigned nr_unknown_types;
	uint64_t skipped_features[4];     /* set feature bits nobody knows (bitmap) */
	uint32_t nr_big_attrs;            /* attrs larger than perf 6.1's 128 bytes, */
	uint32_t big_attr_size;           /* the largest such size, */
	int big_attr_nonzero;             /* and whether bytes past 128 were not 0 */
	uint64_t nr_decompressed;         /* records read out of COMPRESSED records */
	uint64_t decomp_tail;             /* decompressed bytes left over at the end */
};

/* What the consumer gets for every sample, in perf script's order. */
struct pd_event {
	const struct pd_evsel *evsel;
	/* the attr whose record it is (always set): evsel, but for a group
	 * member's READ delivery, which carries its leader's record */
	const struct pd_evsel *raw_evsel;
	const struct pd_sample *sample;
	const char *comm;          /* as perf would show it */
	uint64_t file_offset;      /* of the SAMPLE record */
	const unsigned char *rec;  /* the SAMPLE record itself, header included */
	size_t rec_size;           /* its header.size */
	uint64_t index;            /* 0-based sample number in delivery order */
	uint16_t misc;             /* the record's header.misc (cpumode: misc & 7) */
	/* moves whenever a comm or an event's name may have changed (their
	 * strings may then be new ones at old addresses): what a consumer
	 * keeps made from them holds while it stays */
	uint64_t names_gen;
};

/* What the consumer gets for every other kernel record (MMAP, COMM, FORK,
 * EXIT, LOST, SWITCH...), when it asks for them. */
struct pd_record {
	const struct pd_evsel *evsel;   /* of the record's sample_id, else the first
					 * (NULL for records perf makes itself) */
	const unsigned char *rec;       /* the whole record, header included */
	size_t size;                    /* header.size, checked against the input */
	const struct pd_sample *sample; /* the sample, or its sample_id trailer (pid/tid/
					 * cpu -1, time 0 where the recording has none);
					 * NULL with evsel */
	uint64_t file_offset;
};

struct pd_stat_round;

struct pd_consumer {
	void *ctx;
	/* Called for each sample; a non-zero return stops processing with it. */
	int (*sample)(void *ctx, const struct pd_event *ev);
	/* Optional: called for each non-sample kernel record, in delivery order
	 * among the samples, after the session took what it keeps (thread
	 * names); a non-zero return stops processing with it. */
	int (*record)(void *ctx, const struct pd_record *r);
	/* Optional (perf script -D): called for every record before the session
	 * acts on it: records perf makes itself (type >= 64) as they are read,
	 * with evsel and sample NULL; kernel records and samples as they are
	 * delivered, before record() or sample(). */
	int (*dump)(void *ctx, const struct pd_record *r);
	/* perf stat record data (pd_stat.h): called at every STAT_ROUND for
	 * every attr, then with counter NULL; may be NULL. */
	int (*stat_round)(void *ctx, const struct pd_stat_round *r);
	/* Optional, after pd_session_set_unordered only: each FINISHED_ROUND
	 * record as it is read (perf's tool->finished_round). */
	int (*round)(void *ctx, const struct pd_record *r);
	/* Optional: 0 when no sample of @e can change what sample() does or
	 * shows (a script without a handler for its event); asked once per
	 * attr as processing starts. The session then passes such samples
	 * over, as it would after sample() returned 0 for them. */
	int (*wants)(void *ctx, const struct pd_evsel *e);
};

struct pd_session;

/*
 * Usage:
 *   pd_session_open(&s, path, fd, &err);   header, attrs, features, tracing data
 *   ... pd_session_evsel(s, i), pd_session_info(s), pd_session_tep(s) ...
 *   pd_session_process(s, &consumer, &err); every record, ordered, once
 *   pd_session_stats(s);
 *   pd_session_close(s);
 * In pipe mode open() reads the leading HEADER_* records; attrs that come
 * later are added as they arrive.
 */

/**
 * pd_session_open - open a recording
 * @path: name for messages ("-" for stdin)
 * @fd: an open descriptor positioned at the start; the session owns it
 * Returns 0 or TB_ERR_* with @err naming the offset and problem.
 */
int pd_session_open(struct pd_session **out, const char *path, int fd, struct tb_err *err);
int pd_session_process(struct pd_session *s, const struct pd_consumer *c, struct tb_err *err);

/* A record that session @s checked: the whole record, header included, and
 * its offset in the input; a non-zero return stops the reading with it. */
typedef int (*pd_record_fn)(void *ctx, struct pd_session *s, const unsigned char *rec,
			    size_t size, uint64_t off);

/**
 * pd_session_open_checked - pd_session_open for a reader that copies records
 * (trace-report --recover): @fn gets every record of the input, the header
 * records of a pipe stream included, in file order, once it passed all that
 * pd_session_open and pd_session_process check, before the next is read.
 * The checks made when a sample is delivered (its tracepoint raw data against
 * the format) run as it is read, so the first record @fn does not get is the
 * first the reader refuses. A HEADER_TRACING_DATA record comes without the
 * payload that follows it. Call pd_session_process (its consumer may be NULL)
 * for the records after the header records.
 */
int pd_session_open_checked(struct pd_session **out, const char *path, int fd, pd_record_fn fn,
			    void *ctx, struct tb_err *err);

/**
 * pd_session_check_decodable - what opening a file-mode recording checks of
 * its attrs once its features are read: every tracepoint attr has its format
 * in the tracing data, and the format parsed (a pipe stream meets these
 * rules only at an event's first sample)
 * @off: the offset named when the tracing data is missing
 * Returns 0, or TB_ERR_FORMAT/TB_ERR_TRACEDATA with @err naming the attr.
 */
int pd_session_check_decodable(struct pd_session *s, uint64_t off, struct tb_err *err);
void pd_session_close(struct pd_session *s);

/**
 * pd_session_set_unordered - deliver every record as it is read, in file
 * order, with no queue (perf's ordered_events = false: --show-round-events,
 * --dump-unsorted-raw-trace); FINISHED_ROUND goes to the consumer's round().
 * Call before pd_session_process.
 */
void pd_session_set_unordered(struct pd_session *s);

/**
 * pd_session_set_unwind - whether samples with user registers and a stack
 * dump (perf record --call-graph dwarf) are delivered with their user
 * stacks unwound into the callchain (on by default, once symbols are
 * used: pd_session_use_symbols)
 */
void pd_session_set_unwind(struct pd_session *s, int on);
/** pd_session_unwind_arch_unknown - whether a dwarf sample came whose
 * recording's arch has registers the unwinder does not know (x86_64 and
 * aarch64 it knows): its callchain is then the recorded part alone */
int pd_session_unwind_arch_unknown(const struct pd_session *s);

/**
 * pd_session_set_threads - read with @n threads: 1, or 2 (the reading on a
 * thread of its own, the consumer called on the caller's, in the same
 * order; pd_pipeline.h); 0 (the default): TRACEBOX_THREADS, else 2 when
 * more than one CPU is ours. Call before pd_session_process.
 */
void pd_session_set_threads(struct pd_session *s, int n);

int pd_session_is_pipe(const struct pd_session *s);
size_t pd_session_nr_evsels(const struct pd_session *s);
const struct pd_evsel *pd_session_evsel(const struct pd_session *s, size_t i);
const struct pd_header_info *pd_session_info(const struct pd_session *s);
struct tep_handle *pd_session_tep(const struct pd_session *s);
const struct pd_stats *pd_session_stats(const struct pd_session *s);
/** pd_session_comm - the comm perf shows for thread @tid of @pid, as of the
 * record being delivered; NULL only when out of memory */
const char *pd_session_comm(struct pd_session *s, int32_t pid, int32_t tid);
/** pd_session_layout - file-mode data offset, data size and feature index offset (0 for pipes) */
void pd_session_layout(const struct pd_session *s, uint64_t *data_off, uint64_t *data_size,
		       uint64_t *feat_off);
/** pd_session_has_feature - whether the file's feature bitmap has bit @feat */
int pd_session_has_feature(const struct pd_session *s, int feat);
/**
 * pd_session_lost_features - the feature sections dropped as damaged
 * @err: if not NULL, gets one line naming them, with the offset and the
 *       damage of the first (code 0 when none was dropped)
 * Returns how many were dropped. See "What damage costs" in pd_session.c.
 */
unsigned pd_session_lost_features(const struct pd_session *s, struct tb_err *err);
/**
 * pd_session_use_symbols - resolve symbols: before pd_session_process,
 * create the machine (symbols.h); the session then feeds it every
 * MMAP/MMAP2/FORK/EXIT in delivery order and the BUILD_ID feature.
 * Returns 0 or TB_ERR_NOMEM.
 */
int pd_session_use_symbols(struct pd_session *s, const struct sym_opts *o);
/** pd_session_symbols - the machine, or NULL unless enabled */
struct sym_machine *pd_session_symbols(const struct pd_session *s);
/**
 * pd_session_for_each_decoder - call @fn once for each distinct tracepoint
 * format of the recording's attrs, in attr order; stops at and returns a
 * non-zero result of @fn.
 */
struct tp_decoder;
int pd_session_for_each_decoder(struct pd_session *s,
				int (*fn)(void *ctx, const struct tp_decoder *d), void *ctx);

#endif
