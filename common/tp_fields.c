/* tp_fields.c - field layouts from libtraceevent's parsed format, and reads
 * of field values that never leave the record (unlike perf's engines, which
 * trust a __data_loc offset from the record). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "pd_session.h"
#include "tp_fields.h"

static int common_offset(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_common_field(ev, name);

	return f ? f->offset : -1;
}

int tp_layout_build(struct tp_layout *l, struct tep_event *ev)
{
	struct tep_format_field *f;
	size_t n = 0;

	memset(l, 0, sizeof(*l));
	l->ev = ev;
	for (f = ev->format.fields; f; f = f->next)
		n++;
	l->fields = calloc(n ? n : 1, sizeof(*l->fields));
	l->handler = malloc(strlen(ev->system) + strlen(ev->name) + 3);
	if (!l->fields || !l->handler) {
		tp_layout_free(l);
		return -1;
	}
	sprintf(l->handler, "%s__%s", ev->system, ev->name);
	for (char *c = l->handler; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '_')
			*c = '_';
	for (f = ev->format.fields; f; f = f->next) {
		struct tp_field *t = &l->fields[l->nr++];

		t->name = f->name;
		t->offset = f->offset;
		t->size = f->size;
		t->is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);
		t->dynamic = !!(f->flags & TEP_FIELD_IS_DYNAMIC);
		t->relative = !!(f->flags & TEP_FIELD_IS_RELATIVE);
		t->is_flag = !!(f->flags & TEP_FIELD_IS_FLAG);
		t->is_symbolic = !!(f->flags & TEP_FIELD_IS_SYMBOLIC);
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
	l->off_flags = common_offset(ev, "common_flags");
	l->off_preempt = common_offset(ev, "common_preempt_count");
	l->off_lock_depth = common_offset(ev, "common_lock_depth");
	l->off_pid = common_offset(ev, "common_pid");
	return 0;
}

void tp_layout_free(struct tp_layout *l)
{
	free(l->fields);
	free(l->handler);
	memset(l, 0, sizeof(*l));
}

static uint64_t load(const unsigned char *p, int size, int is_signed)
{
	int8_t s8; int16_t s16; int32_t s32; uint8_t u8; uint16_t u16; uint32_t u32;
	uint64_t u64;

	switch (size) {
	case 1:
		if (is_signed) { memcpy(&s8, p, 1); return (uint64_t)(int64_t)s8; }
		memcpy(&u8, p, 1); return u8;
	case 2:
		if (is_signed) { memcpy(&s16, p, 2); return (uint64_t)(int64_t)s16; }
		memcpy(&u16, p, 2); return u16;
	case 4:
		if (is_signed) { memcpy(&s32, p, 4); return (uint64_t)(int64_t)s32; }
		memcpy(&u32, p, 4); return u32;
	default:
		memcpy(&u64, p, 8); return u64;
	}
}

int tp_read_int(const struct tp_field *f, const unsigned char *raw, size_t size, int i,
		uint64_t *out)
{
	int esz = f->kind == TP_ARRAY ? f->elem_size : f->size;
	long off = (long)f->offset + (long)i * esz;

	if (off < 0 || (size_t)off + (size_t)esz > size)
		return -1;
	*out = load(raw + off, esz, f->is_signed);
	return 0;
}

int tp_read_bytes(const struct tp_field *f, const unsigned char *raw, size_t size,
		  const unsigned char **p, size_t *len)
{
	uint32_t loc, o, l;

	if (f->offset < 0 || (size_t)f->offset + (size_t)f->size > size)
		return -1;
	if (!f->dynamic) {
		*p = raw + f->offset;
		*len = (size_t)f->size;
		return 0;
	}
	if (f->size != 4)
		return -1;
	memcpy(&loc, raw + f->offset, 4);
	o = loc & 0xffff;
	l = loc >> 16;
	if (f->relative)
		o += (uint32_t)(f->offset + f->size);
	if (o > size || l > size - o)
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

int tp_common_int(const unsigned char *raw, size_t size, int off, int bytes, int is_signed)
{
	if (off < 0 || (size_t)off + (size_t)bytes > size)
		return 0;
	return (int)load(raw + off, bytes, is_signed);
}

int tp_for_each_layout(struct pd_session *s,
		       int (*fn)(void *ctx, struct tep_event *tp, const struct tp_layout *l),
		       void *ctx)
{
	size_t n = pd_session_nr_evsels(s);

	for (size_t i = 0; i < n; i++) {
		struct tep_event *tp = pd_session_evsel(s, i)->tp;
		struct tp_layout l;
		int r, dup = 0;

		for (size_t j = 0; tp && j < i; j++)
			dup |= pd_session_evsel(s, j)->tp == tp;
		if (!tp || dup)
			continue;
		if (tp_layout_build(&l, tp))
			return -1;
		r = fn(ctx, tp, &l);
		tp_layout_free(&l);
		if (r)
			return r;
	}
	return 0;
}
