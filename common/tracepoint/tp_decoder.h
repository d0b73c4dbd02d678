/* tp_decoder.h - one decoder per tracepoint format, built once: the fields as
 * typed views, the checks every record must pass, and one render call. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TP_DECODER_H
#define TP_DECODER_H

#include <stddef.h>
#include <stdint.h>
#include "util/tb_err.h"
#include "tracepoint/tp_fields.h"

struct tep_event;
struct tep_print_arg;
struct tpf_prog;
struct trace_seq;
struct pd_session;

/*
 * Usage:
 *   tp_decoder_new(&d, ev)          once per format (pd_session does it)
 *   tp_decoder_check(d, raw, ...)   every record, before anything reads it
 *   d->fields[i] + tp_read_int / tp_read_bytes (tp_fields.h)   field values
 *   tp_render(d, raw, ...)          the print fmt's text
 *   tp_decoder_free(d)
 * Applets and engines see formats only through this: no libtraceevent.
 */
struct tp_decoder {
	int id;                    /* the tracepoint id (common_type) */
	const char *system, *name; /* "sched", "sched_switch" */
	struct tp_field *fields;   /* the non-common fields, in format order */
	size_t nr;
	int off_flags, off_preempt, off_lock_depth, off_pid;   /* -1 when absent */
	int swap;                  /* the recording's byte order is not ours (its
				    * tracing data's endian byte): tp_common_int */

	/* the decoder's own state */
	struct tep_event *ev;
	int raw_min;               /* RAW bytes every field needs */
	struct tp_field type;      /* common_type (size 0: none) */
	struct tp_field *checked;  /* strings and __data_loc fields, checked per record */
	int nr_checked;
	const struct tep_print_arg **reads;  /* print helpers reading a record-given */
	int nr_reads;                        /* length (tp_printreads.h) */
	struct tpf_prog *fast;     /* the fast renderer, or NULL (libtraceevent) */
	int fast_tried;
	struct trace_seq *seq;     /* libtraceevent's output, reused */
};

/**
 * tp_decoder_new - build the decoder of @ev
 * @out: the new decoder; it keeps pointers into @ev, which must outlive it
 * Returns 0 or TB_ERR_NOMEM.
 */
int tp_decoder_new(struct tp_decoder **out, struct tep_event *ev);

/** tp_decoder_field - @d's non-common field called @name, or NULL */
const struct tp_field *tp_decoder_field(const struct tp_decoder *d, const char *name);

/** tp_decoder_free - free @d (NULL is fine) */
void tp_decoder_free(struct tp_decoder *d);

/**
 * tp_decoder_check - whether a record's raw data can be read and rendered
 * @d: the decoder of the record's event
 * @raw, @size: the sample's raw data
 * @what: the event's name, for the message
 * @off: the record's file offset, for the message
 *
 * The raw data must hold every field, name the event in common_type, keep
 * every string and __data_loc inside it (with the NUL libtraceevent prints
 * up to), and hold every byte a __print_hex/__print_array will read.
 * After it, field views and tp_render never leave @raw.
 * Returns 0 or TB_ERR_FORMAT with @err naming the field and the bytes.
 */
int tp_decoder_check(const struct tp_decoder *d, const unsigned char *raw, uint32_t size,
		     const char *what, uint64_t off, struct tb_err *err);

/**
 * tp_render - the event's print fmt output for one checked record
 * @cpu: the sample's CPU (libtraceevent's %cpu)
 * @buf, @cap: where the fast path writes
 * @text: set to @buf when the fast path rendered it, else to the
 *        decoder's own buffer, valid until the next call on @d
 * Returns the length of *@text (not NUL-terminated), or -1 out of memory.
 */
long tp_render(struct tp_decoder *d, const unsigned char *raw, uint32_t size, int cpu,
	       char *buf, size_t cap, const char **text);

#endif
