/* tp_fields.c - one field of a format as a typed view: reads of field values
 * that never leave the record (unlike perf's engines, which trust a
 * __data_loc offset from the record). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "tracepoint/tp_fields.h"

void tp_field_init(struct tp_field *t, const struct tep_format_field *f)
{
	memset(t, 0, sizeof(*t));
	t->name = f->name;
	t->offset = f->offset;
	t->size = f->size;
	t->is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);
	t->dynamic = !!(f->flags & TEP_FIELD_IS_DYNAMIC);
	t->relative = !!(f->flags & TEP_FIELD_IS_RELATIVE);
	t->is_flag = !!(f->flags & TEP_FIELD_IS_FLAG);
	t->is_symbolic = !!(f->flags & TEP_FIELD_IS_SYMBOLIC);
	/* libtraceevent's file endianness (tep_set_file_bigendian) */
	t->swap = f->event && f->event->tep &&
		  tep_is_file_bigendian(f->event->tep) != tep_is_local_bigendian(f->event->tep);
	if (f->flags & TEP_FIELD_IS_STRING) {
		t->kind = TP_STRING;
	} else if (t->dynamic) {
		t->kind = TP_BYTES;
	} else if (f->flags & TEP_FIELD_IS_ARRAY) {
		t->count = (int)f->arraylen;
		t->elem_size = t->count ? f->size / t->count : 0;
		if (t->count > 0 && (t->elem_size == 1 || t->elem_size == 2 ||
				     t->elem_size == 4 || t->elem_size == 8))
			t->kind = TP_ARRAY;
		else
			t->kind = TP_BYTES;
	} else if (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) {
		t->kind = t->is_signed ? TP_INT : TP_UINT;
	} else {
		t->kind = TP_BYTES;
	}
}

int tp_dataloc(const struct tp_field *t, const unsigned char *raw, size_t size,
	       uint32_t *off, uint32_t *len)
{
	uint32_t o, l;

	if (t->offset < 0 || (size_t)t->offset + (size_t)t->size > size)
		return -1;
	if (t->size == 4) {
		uint32_t loc;

		memcpy(&loc, raw + t->offset, 4);
		loc = t->swap ? __builtin_bswap32(loc) : loc;
		o = loc & 0xffff;
		l = loc >> 16;
	} else if (t->size == 2) {
		uint16_t loc;

		memcpy(&loc, raw + t->offset, 2);
		o = t->swap ? __builtin_bswap16(loc) : loc;
		l = o <= size ? (uint32_t)size - o : 0;
	} else {
		return -1;
	}
	if (t->relative)
		o += (uint32_t)(t->offset + t->size);
	if (o > size || l > size - o)
		return -1;
	*off = o;
	*len = l;
	return 0;
}

int tp_read_bytes(const struct tp_field *f, const unsigned char *raw, size_t size,
		  const unsigned char **p, size_t *len)
{
	uint32_t o, l;

	if (!f->dynamic) {
		if (f->offset < 0 || (size_t)f->offset + (size_t)f->size > size)
			return -1;
		*p = raw + f->offset;
		*len = (size_t)f->size;
		return 0;
	}
	if (tp_dataloc(f, raw, size, &o, &l))
		return -1;
	*p = raw + o;
	*len = l;
	return 0;
}

int tp_printable(const unsigned char *p, size_t len)
{
	if (!p || !len || p[len - 1] != 0)
		return 0;
	for (size_t i = 0; i < len - 1 && p[i]; i++)
		if (!isprint(p[i]) && !isspace(p[i]))
			return 0;
	return 1;
}

int tp_common_int(const unsigned char *raw, size_t size, int off, int bytes, int is_signed,
		  int swap)
{
	if (off < 0 || (size_t)off + (size_t)bytes > size)
		return 0;
	return (int)tp_load(raw + off, bytes, is_signed, swap);
}
