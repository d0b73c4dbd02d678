/* tp_decoder.c - the per-format decoder: built once from libtraceevent's
 * parsed format, it checks records, hands out field views and renders the
 * print fmt (fast path, else libtraceevent). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "tracepoint/tp_decoder.h"
#include "tracepoint/tp_fastfmt.h"
#include "tracepoint/tp_printreads.h"

static int common_offset(struct tep_event *ev, const char *name)
{
	struct tep_format_field *f = tep_find_common_field(ev, name);

	return f ? f->offset : -1;
}

static size_t count_fields(const struct tep_format_field *f)
{
	size_t n = 0;

	for (; f; f = f->next)
		n++;
	return n;
}

/* The fields, the strings and __data_loc fields to check, raw_min. */
static int add_fields(struct tp_decoder *d, struct tep_event *ev)
{
	struct tep_format_field *f, *type = tep_find_common_field(ev, "common_type");
	size_t n = count_fields(ev->format.fields);

	d->fields = calloc(n ? n : 1, sizeof(*d->fields));
	d->checked = calloc(n ? n : 1, sizeof(*d->checked));
	if (!d->fields || !d->checked)
		return TB_ERR_NOMEM;
	for (f = ev->format.common_fields; f; f = f->next)
		if (f->offset + f->size > d->raw_min)
			d->raw_min = f->offset + f->size;
	for (f = ev->format.fields; f; f = f->next) {
		struct tp_field *t = &d->fields[d->nr++];

		tp_field_init(t, f);
		if (f->offset + f->size > d->raw_min)
			d->raw_min = f->offset + f->size;
		if (f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_STRING))
			d->checked[d->nr_checked++] = *t;
	}
	if (type)
		tp_field_init(&d->type, type);
	d->swap = tep_is_file_bigendian(ev->tep) != tep_is_local_bigendian(ev->tep);
	return 0;
}

int tp_decoder_new(struct tp_decoder **out, struct tep_event *ev)
{
	struct tp_decoder *d = calloc(1, sizeof(*d));

	*out = NULL;
	if (!d)
		return TB_ERR_NOMEM;
	d->ev = ev;
	d->id = ev->id;
	d->system = ev->system;
	d->name = ev->name;
	d->off_flags = common_offset(ev, "common_flags");
	d->off_preempt = common_offset(ev, "common_preempt_count");
	d->off_lock_depth = common_offset(ev, "common_lock_depth");
	d->off_pid = common_offset(ev, "common_pid");
	if (add_fields(d, ev) || (d->nr_reads = tpr_collect(ev, &d->reads)) < 0) {
		tp_decoder_free(d);
		return TB_ERR_NOMEM;
	}
	*out = d;
	return 0;
}

const struct tp_field *tp_decoder_field(const struct tp_decoder *d, const char *name)
{
	for (size_t i = 0; i < d->nr; i++)
		if (!strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

void tp_decoder_free(struct tp_decoder *d)
{
	if (!d)
		return;
	free(d->fields);
	free(d->checked);
	free(d->reads);
	tpf_free(d->fast);
	if (d->seq) {
		trace_seq_destroy(d->seq);
		free(d->seq);
	}
	free(d);
}

/* A string or __data_loc field must lie inside the raw data; a string
 * with a NUL, since libtraceevent prints "%s" up to it (a char[N] without
 * one is_printable_array lets through, and an empty __data_loc string
 * still reaches "%s" when print_field_raw prints the event). */
static int check_string(const struct tp_field *t, const unsigned char *raw, uint32_t size,
			const char *what, uint64_t off, struct tb_err *err)
{
	uint32_t o, l;

	if (!t->dynamic) {
		if (!memchr(raw + t->offset, 0, size - (uint32_t)t->offset))
			return tb_err_set(err, TB_ERR_FORMAT, off,
					  "%s sample: char[] field '%s' at %d has no NUL before "
					  "the end of its %u-byte raw data", what, t->name,
					  t->offset, size);
		return 0;
	}
	if (tp_dataloc(t, raw, size, &o, &l) ||
	    (t->kind == TP_STRING && !memchr(raw + o, 0, l ? l : size - o))) {
		uint64_t loc = 0;

		loc = tp_load(raw + t->offset, t->size < 8 ? t->size : 8, 0, t->swap);  /* raw_min covers it */
		return tb_err_set(err, TB_ERR_FORMAT, off,
				  "%s sample: __data_loc field '%s' (0x%llx at %d) is outside its "
				  "%u-byte raw data or lacks its NUL", what, t->name,
				  (unsigned long long)loc, t->offset, size);
	}
	return 0;
}

int tp_decoder_check(const struct tp_decoder *d, const unsigned char *raw, uint32_t size,
		     const char *what, uint64_t off, struct tb_err *err)
{
	uint64_t type, start, len;

	if (!raw || size < (uint32_t)d->raw_min)
		return tb_err_set(err, TB_ERR_FORMAT, off,
				  "%s sample: raw data of %u bytes, its format needs %d",
				  what, size, d->raw_min);
	/* libtraceevent prints the event the raw data's common_type names,
	 * whose fields this raw data was not checked against */
	if (d->type.size && !tp_read_int(&d->type, raw, size, 0, &type) &&
	    type != (uint64_t)d->id)
		return tb_err_set(err, TB_ERR_FORMAT, off,
				  "%s sample: common_type %llu is not the event's id %d",
				  what, (unsigned long long)type, d->id);
	for (int i = 0; i < d->nr_checked; i++)
		if (check_string(&d->checked[i], raw, size, what, off, err))
			return err ? err->code : TB_ERR_FORMAT;
	/* __print_hex and __print_array read as many bytes as the record says */
	for (int i = 0; i < d->nr_reads; i++)
		if (tpr_check(d->ev, d->reads[i], raw, size, &start, &len))
			return tb_err_set(err, TB_ERR_FORMAT, off,
					  "%s sample: its print fmt's __print_hex or __print_array "
					  "reads [%llu, +%llu), past its %u-byte raw data", what,
					  (unsigned long long)start, (unsigned long long)len, size);
	return 0;
}

long tp_render(struct tp_decoder *d, const unsigned char *raw, uint32_t size, int cpu,
	       char *buf, size_t cap, const char **text)
{
	struct tep_record rec;
	int n;

	if (!d->fast_tried) {
		d->fast_tried = 1;
		d->fast = tpf_compile(d->ev);
	}
	n = d->fast ? tpf_render(d->fast, raw, (int)size, buf, cap) : -1;
	if (n >= 0) {
		*text = buf;
		return n;
	}
	if (!d->seq) {
		d->seq = malloc(sizeof(*d->seq));
		if (!d->seq)
			return -1;
		trace_seq_init(d->seq);
	}
	memset(&rec, 0, sizeof(rec));
	rec.cpu = cpu;
	rec.size = (int)size;
	rec.data = (void *)raw;
	trace_seq_reset(d->seq);
	tep_print_event(d->ev->tep, d->seq, &rec, "%s", TEP_PRINT_INFO);
	*text = d->seq->buffer;
	return (long)d->seq->len;
}
