/* pd_session_int.h - the session's internals, shared by pd_session.c, pd_open.c and pd_records.c. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_SESSION_INT_H
#define PD_SESSION_INT_H

#include "perfdata/pd_compressed.h"
#include "perfdata/pd_input.h"
#include "perfdata/pd_order.h"
#include "perfdata/pd_session.h"
#include "perfdata/pd_stat.h"
#include "perfdata/pd_threads.h"
#include "tracepoint/tracing_data.h"

struct pd_pipeline;

struct pd_idslot {
	uint64_t id;
	uint32_t idx;
	int used;
	uint64_t period;   /* READ samples: the id's last value (perf's sid->period) */
};

struct pd_session {
	const char *path;
	int fd;
	int pipe;
	int swapped;                 /* the other byte order (pd_swap.h) */
	unsigned char *swapbuf;      /* the record just read, made native */
	unsigned char *swapbuf2;     /* the record out of a COMPRESSED one */
	int unordered;             /* pd_session_set_unordered: file order */
	uint64_t file_size;          /* UINT64_MAX for pipes */
	uint64_t data_offset, data_size;
	uint64_t features[4];
	struct pd_input in;          /* the reader's (with two threads) */

	/* as many attrs and ids as the input holds (its size bounds a file's;
	 * memory a pipe's): no count limit that perf 6.1 does not have */
	/* with two threads (pd_pipeline.c), what each thread writes for
	 * every record starts a cache line of its own: in, order and stats
	 * the reader's, threads and nr_delivered the consumer's; what both
	 * read (evsels, idmap, sym, emit) is on lines neither writes */
	_Alignas(64) struct pd_evsel *evsels;
	size_t nr_evsels, evsels_cap;
	struct pd_idslot *idmap;
	size_t idmap_slots, idmap_used;
	int id_pos, is_pos, sample_id_all;
	size_t hint_attrs;           /* attrs when the data began (pd_records.c sample_hint) */

	uint64_t lost[4];            /* feature sections dropped as damaged */
	unsigned nr_lost;
	struct tb_err lost_why;      /* what was wrong with the first of them */

	struct td_result td;
	struct pd_header_info info;
	_Alignas(64) struct pd_threads threads;
	_Alignas(64) struct pd_order order;
	struct pd_stats stats;
	struct pd_decomp decomp;     /* COMPRESSED records (pd_records.c) */
	_Alignas(64) struct pd_stat stat;   /* perf stat record data (pd_records.c) */

	/* symbols (pd_session_use_symbols): the machine, fed the side-band
	 * records; the BUILD_ID feature kept until it is created */
	struct sym_machine *sym;
	unsigned char *buildid_sec;
	size_t buildid_len;
	/* --call-graph dwarf samples (pd_unwind.c): the unwinder, made on the
	 * first such sample; the callchain delivered in their place */
	struct unw *unw;
	int unwind_off, unwind_failed;
	uint64_t *chain;
	size_t chain_cap;

	/* pd_session_open_checked: each record that passed every check, in
	 * file order; a sample's delivery-time checks then run as it is read */
	pd_record_fn tap;
	void *tap_ctx;

	/* set during pd_session_process */
	const struct pd_consumer *consumer;
	struct tb_err *err;          /* read through PD_ERR */
	pd_deliver_fn emit;          /* where records go in delivery order: */
	void *emit_ctx;              /* deliver, or the pipeline's queue */
	struct pd_pipeline *pl;      /* two threads (pd_pipeline.h), else NULL */
	int counters_kept;           /* the consumer failed: stats as the reader's
				      * last mark before it held them */
	int nr_threads;              /* pd_session_set_threads (0: the default) */
	_Alignas(64) uint64_t nr_delivered;
	uint64_t names_gen;          /* moves whenever an event's name may have */
};

/* the reader thread's error (pd_pipeline.c: its own, so the two threads
 * never write one message); NULL on every other thread */
extern __thread struct tb_err *pd_thread_err;

/* the message of a failure: the reader thread's own, else the session's */
#define PD_ERR(s) (pd_thread_err ? pd_thread_err : (s)->err)

/** pd_session_read_all - every record after the header records, dispatched,
 * then the ordering queue drained (pd_session_drain); returns its result */
int pd_session_read_all(struct pd_session *s);

struct pd_evsel *pd_session_id2evsel(struct pd_session *s, uint64_t id);
/** pd_session_id2slot - the id's slot in the map, or NULL */
struct pd_idslot *pd_session_id2slot(struct pd_session *s, uint64_t id);
int pd_session_id_known(struct pd_session *s, uint64_t id);
int pd_session_add_attr(struct pd_session *s, const unsigned char *p, size_t avail,
			uint64_t off, const uint64_t *ids, size_t nr_ids, size_t *attr_len,
			struct tb_err *err);
int pd_session_set_tracing_data(struct pd_session *s, const unsigned char *buf, size_t size,
				uint64_t base, struct tb_err *err);
void pd_session_resolve_names(struct pd_session *s);
/** pd_session_resolve_names_from - pd_session_resolve_names for the attrs from index @first on */
void pd_session_resolve_names_from(struct pd_session *s, size_t first);
int pd_session_check_formats(struct pd_session *s, uint64_t off, struct tb_err *err);
/**
 * pd_session_unwound - for a sample with user registers and a stack dump
 * (perf record --call-graph dwarf), @smp with its callchain made whole: the
 * recorded (kernel) part, then PERF_CONTEXT_USER and the unwound user
 * frames, in @out. Returns 1 with @out set, 0 when @smp goes as it is
 * (no dumps, no symbols, unwinding off), TB_ERR_NOMEM.
 */
int pd_session_unwound(struct pd_session *s, const struct pd_sample *smp, struct pd_sample *out);
/** pd_session_unwind_free - what pd_session_unwound holds */
void pd_session_unwind_free(struct pd_session *s);
int pd_session_feature(struct pd_session *s, int feat, const unsigned char *buf, size_t size,
		       uint64_t off, struct tb_err *err);
int pd_session_drain(struct pd_session *s, int r);
/** pd_session_feat_label - feature @feat's name for messages (in @buf when unnamed) */
const char *pd_session_feat_label(int feat, char *buf, size_t n);
/** pd_session_lose_feature - feature @feat is dropped as damaged, @why kept for the first */
void pd_session_lose_feature(struct pd_session *s, int feat, const struct tb_err *why);

#endif
