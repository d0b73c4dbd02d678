/* tp_fields.h - an event's fields as scripts see them, with bounds-checked reads. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TP_FIELDS_H
#define TP_FIELDS_H

#include <stddef.h>
#include <stdint.h>

struct tep_event;

enum tp_kind {
	TP_INT,          /* a signed number of 1, 2, 4 or 8 bytes */
	TP_UINT,         /* an unsigned number */
	TP_STRING,       /* char[] or __data_loc char[]: str when printable, else bytes */
	TP_ARRAY,        /* a fixed array of numbers: a list */
	TP_BYTES,        /* any other array or dynamic array: raw bytes */
};

struct tp_field {
	const char *name;
	enum tp_kind kind;
	int offset, size;        /* in the raw record */
	int elem_size;           /* TP_ARRAY: bytes per element */
	int count;               /* TP_ARRAY: elements */
	int is_signed;           /* of the number or the elements */
	int dynamic;             /* __data_loc: offset/len in a u32 at @offset */
	int relative;            /* __rel_loc */
	int is_flag, is_symbolic;
};

/* The non-common fields of one event, in format order. */
struct tp_layout {
	struct tep_event *ev;
	char *handler;           /* "system__event" */
	struct tp_field *fields;
	size_t nr;
	int off_flags, off_preempt, off_lock_depth, off_pid;   /* -1 when absent */
};

int tp_layout_build(struct tp_layout *l, struct tep_event *ev);
void tp_layout_free(struct tp_layout *l);

/**
 * tp_read_int - element @i of a number field (i = 0 for scalars),
 * sign-extended when signed. Returns 0, or -1 when it lies outside @size.
 */
int tp_read_int(const struct tp_field *f, const unsigned char *raw, size_t size, int i,
		uint64_t *out);

/**
 * tp_read_bytes - where a string or byte field's bytes are: for __data_loc
 * the offset and length in the record, checked against @size. Returns 0 or -1.
 */
int tp_read_bytes(const struct tp_field *f, const unsigned char *raw, size_t size,
		  const unsigned char **p, size_t *len);

/** tp_printable - perf's is_printable_array: NUL last, printable before the first NUL */
int tp_printable(const unsigned char *p, size_t len);

struct pd_session;
/**
 * tp_for_each_layout - call @fn once for each distinct tracepoint format of
 * the recording's attrs, in attr order, with its layout; stops at and
 * returns a non-zero result of @fn, or -1 when out of memory.
 */
int tp_for_each_layout(struct pd_session *s,
		       int (*fn)(void *ctx, struct tep_event *tp, const struct tp_layout *l),
		       void *ctx);

/** tp_common_int - a common field (e.g. common_preempt_count) at @off, or 0 */
int tp_common_int(const unsigned char *raw, size_t size, int off, int bytes, int is_signed);

#endif
