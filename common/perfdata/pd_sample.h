/* pd_sample.h - decoding PERF_RECORD_SAMPLE bodies and sample_id trailers. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_SAMPLE_H
#define PD_SAMPLE_H

#include <stddef.h>
#include <stdint.h>
#include "util/tb_err.h"

/* What a SAMPLE body's layout depends on, from its attr. */
struct pd_sample_attr {
	uint64_t sample_type;
	uint64_t read_format;          /* READ */
	uint64_t branch_sample_type;   /* BRANCH_STACK: HW_INDEX adds hw_idx */
	uint64_t regs_user, regs_intr; /* REGS_USER / REGS_INTR: one u64 per set bit */
	uint64_t sample_period;        /* the period of a sample without PERIOD (perf's
					* evsel__parse_sample; with freq set, the union's
					* sample_freq, as perf takes it) */
};

/** pd_sample_attr_of - the layout fields of a perf_event_attr (128 bytes,
 * zero-extended past its size, as struct pd_evsel keeps it) */
void pd_sample_attr_of(struct pd_sample_attr *a, const unsigned char *attr);

/* One decoded sample, every field perf 6.1's evsel__parse_sample decodes.
 * Fields whose sample_type bit is clear keep the defaults pd_sample_init()
 * gives: -1 for pid/tid/cpu, 0 or NULL elsewhere; the period without PERIOD
 * is the attr's sample_period (pd_sample_decode). Pointers point into the
 * record (unaligned). */
struct pd_sample {
	uint64_t id, ip, time, addr, stream_id, period;
	int32_t pid, tid, cpu;
	/* READ: with GROUP, read_nr entries of read_value_size bytes at
	 * read_values, each {value, [id], [lost]}; without, read_nr = 1 and
	 * the one value in read_value/read_id/read_lost */
	uint64_t read_nr, time_enabled, time_running;
	uint64_t read_value, read_id, read_lost;
	const unsigned char *read_values;
	uint32_t read_value_size;
	uint64_t nr_callchain;
	const unsigned char *callchain;  /* nr_callchain u64s */
	uint32_t raw_size;
	const unsigned char *raw;        /* raw_size bytes, or NULL */
	/* BRANCH_STACK: nr_branches x {u64 from, to, flags} */
	uint64_t nr_branches, branch_hw_idx;
	int has_branch_hw_idx;
	const unsigned char *branches;
	/* REGS_USER / REGS_INTR: abi (0 = none: no regs follow), the attr's
	 * mask, popcount(mask) u64s */
	uint64_t user_regs_abi, user_regs_mask, intr_regs_abi, intr_regs_mask;
	const unsigned char *user_regs, *intr_regs;
	/* STACK_USER: the dump (user_stack_size bytes) and the part the
	 * kernel filled (user_stack_dyn_size <= user_stack_size) */
	uint64_t user_stack_size, user_stack_dyn_size;
	uint64_t user_stack_off;       /* where its size field is in the record */
	const unsigned char *user_stack;
	/* WEIGHT: the u64; WEIGHT_STRUCT: its low u32, then ins_lat and
	 * p_stage_cyc (u16 each; p_stage_cyc left 0, as perf 6.1 reads it on
	 * x86: only its powerpc reading fills it); weight_full holds the u64 */
	uint64_t weight, weight_full;
	uint16_t ins_lat, p_stage_cyc;
	uint64_t data_src, transaction, phys_addr, cgroup, data_page_size, code_page_size;
	uint64_t aux_size;                /* AUX: aux_size bytes at aux */
	const unsigned char *aux;
};

void pd_sample_init(struct pd_sample *s);

/**
 * pd_sample_decode - decode a SAMPLE record's body, every field checked
 * against @size, in perf 6.1's order (evsel__parse_sample)
 * @a: the attr's layout fields; sample_type within PD_S_KNOWN
 * @rec: the whole record, header included
 * @size: header.size, already checked to be the bytes available
 * @off: the record's offset in the input, for messages
 * Returns 0; TB_ERR_TRUNCATED when a field runs past the record (@err names
 * the field and its offset); TB_ERR_FORMAT for STACK_USER's dyn_size above
 * the dump size (perf: "user stack dump failure").
 */
int pd_sample_decode(const struct pd_sample_attr *a, const unsigned char *rec, size_t size,
		     uint64_t off, struct pd_sample *s, struct tb_err *err);

/**
 * pd_sample_parse - pd_sample_decode for an attr with only @sample_type set
 * (read_format, branch_sample_type and the register masks 0)
 * Returns 0, or the byte offset (>= 8) inside the record where a field
 * ran past the end (or is invalid), negated.
 */
int pd_sample_parse(uint64_t sample_type, const unsigned char *rec, size_t size,
		    struct pd_sample *s);

/**
 * pd_trailer_parse - decode the sample_id trailer of a non-sample record
 * @body_min: the size of the record's fixed body, header included; the
 *            trailer must fit between it and @size
 * Returns 0, or -1 when the trailer does not fit.
 */
int pd_trailer_parse(uint64_t sample_type, const unsigned char *rec, size_t size,
		     size_t body_min, struct pd_sample *s);

/**
 * pd_sample_when - a sample's time and cpu, read without decoding it whole:
 * what queueing it needs (perf 6.1 reads only the time there too), and
 * where its RAW data is (NULL and 0 without RAW)
 * @a: the attr's layout fields
 * Returns 0 when the sample is of the common kind (sample_type within the
 * fixed u64 fields, CALLCHAIN and RAW) and pd_sample_decode would take it
 * whole; -1 for any other sample, which the caller decodes whole (the one
 * place a damaged sample's message comes from).
 */
int pd_sample_when(const struct pd_sample_attr *a, const unsigned char *rec, size_t size,
		   uint64_t *time, int32_t *cpu, const unsigned char **raw, uint32_t *raw_size);
/** pd_sample_decode_taken - pd_sample_decode of a sample pd_sample_when
 * took (0), without the checks it passed there */
void pd_sample_decode_taken(const struct pd_sample_attr *a, const unsigned char *rec,
			    struct pd_sample *s);
/** pd_sample_tid - the pid and tid of a sample pd_sample_when took (-1
 * without TID) */
void pd_sample_tid(const struct pd_sample_attr *a, const unsigned char *rec, int32_t *pid,
		   int32_t *tid);

/** pd_trailer_size - bytes the sample_id trailer takes for @sample_type */
size_t pd_trailer_size(uint64_t sample_type);

/** pd_id_pos - index of the id u64 in a sample body, or -1 (no id bits) */
int pd_id_pos(uint64_t sample_type);
/** pd_is_pos - index of the id u64 counted back from a record's end, or -1 */
int pd_is_pos(uint64_t sample_type);

#endif
