/* tracing_data.c - parse a HEADER_TRACING_DATA payload into libtraceevent.
 * Layout: perf-data-format.md section 5.3 (perf's trace-event-read.c).
 * What is given to libtraceevent passes tep_workarounds.c's checks first. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "perfdata/pd_format.h"
#include "tracepoint/tep_workarounds.h"
#include "tracepoint/tp_printreads.h"
#include "tracepoint/tracing_data.h"

/* A cursor over the payload: every read is checked against the end. */
struct cursor {
	const unsigned char *p;
	size_t size, off;
	uint64_t base;
	int swap;
	struct tb_err *err;
};

static int short_read(struct cursor *c, size_t n, const char *what)
{
	return tb_err_set(c->err, TB_ERR_TRUNCATED, c->base + c->off,
			  "tracing data: %s needs %zu bytes, %zu left", what, n,
			  c->size - c->off);
}

static int take(struct cursor *c, size_t n, const unsigned char **out, const char *what)
{
	if (c->size - c->off < n)
		return short_read(c, n, what);
	*out = c->p + c->off;
	c->off += n;
	return 0;
}

static int take_u32(struct cursor *c, uint32_t *v, const char *what)
{
	const unsigned char *q = NULL;
	int r = take(c, 4, &q, what);

	if (!r)
		*v = c->swap ? __builtin_bswap32(pd_u32(q)) : pd_u32(q);
	return r;
}

static int take_u64(struct cursor *c, uint64_t *v, const char *what)
{
	const unsigned char *q = NULL;
	int r = take(c, 8, &q, what);

	if (!r)
		*v = c->swap ? __builtin_bswap64(pd_u64(q)) : pd_u64(q);
	return r;
}

/* A NUL-terminated string inside the payload, at most @max bytes with the NUL. */
static int take_str(struct cursor *c, const char **s, size_t max, const char *what)
{
	const unsigned char *start = c->p + c->off;
	size_t left = c->size - c->off;
	const unsigned char *nul = memchr(start, 0, left < max ? left : max);

	if (!nul)
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base + c->off,
				  "tracing data: %s is not NUL-terminated within %zu bytes",
				  what, left < max ? left : max);
	*s = (const char *)start;
	c->off += (size_t)(nul - start) + 1;
	return 0;
}

/* A u64-sized blob: length then bytes, bounded by the payload. */
static int take_blob64(struct cursor *c, const unsigned char **b, size_t *n, const char *what)
{
	uint64_t len;
	int r = take_u64(c, &len, what);

	if (r)
		return r;
	if (len > c->size - c->off)
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base + c->off - 8,
				  "tracing data: %s size %llu exceeds the %zu bytes left",
				  what, (unsigned long long)len, c->size - c->off);
	*n = (size_t)len;
	*b = c->p + c->off;
	c->off += (size_t)len;
	return 0;
}

static int add_warning(struct td_result *res, const char *sys, const char *name, int e)
{
	struct td_warning *w;

	w = realloc(res->warnings, (res->nr_warnings + 1) * sizeof(*w));
	if (!w)
		return TB_ERR_NOMEM;
	res->warnings = w;
	w += res->nr_warnings++;
	snprintf(w->system, sizeof(w->system), "%s", sys);
	snprintf(w->name, sizeof(w->name), "%s", name ? name : "?");
	w->tep_errno = e;
	return 0;
}

/* The number of field lines in a format's text (a line whose first word
 * starts "field", before "print fmt"): libtraceevent reads them in turn and
 * stops at the first it cannot read. */
static unsigned count_field_lines(const unsigned char *text, size_t len)
{
	const unsigned char *p = text, *end = text + len;
	unsigned n = 0;

	while (p < end) {
		const unsigned char *nl = memchr(p, '\n', (size_t)(end - p));
		const unsigned char *eol = nl ? nl : end;

		while (p < eol && (*p == ' ' || *p == '\t'))
			p++;
		if ((size_t)(eol - p) >= 9 && !memcmp(p, "print fmt", 9))
			break;
		if ((size_t)(eol - p) >= 5 && !memcmp(p, "field", 5))
			n++;
		p = eol + 1;
	}
	return n;
}

static int add_cut_id(struct td_result *res, int id)
{
	int *ids = realloc(res->cut_ids, (res->nr_cut_ids + 1) * sizeof(*ids));

	if (!ids)
		return TB_ERR_NOMEM;
	res->cut_ids = ids;
	ids[res->nr_cut_ids++] = id;
	return 0;
}

int td_fields_cut(const struct td_result *res, int id)
{
	for (unsigned i = 0; i < res->nr_cut_ids; i++)
		if (res->cut_ids[i] == id)
			return 1;
	return 0;
}

/* Every field must lie inside a record's raw data (at most 64 KiB) and a
 * __data_loc be 2 or 4 bytes: check_raw() in pd_records.c, the engines and
 * libtraceevent then read fields at offsets the raw size bounds. A huge
 * "offset:" is a negative int to libtraceevent, which reads it unchecked. */
static int check_fields(struct cursor *c, const char *sys, const unsigned char *text,
			struct tep_event *ev)
{
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };

	for (int l = 0; l < 2; l++)
		for (struct tep_format_field *f = lists[l]; f; f = f->next) {
			if (f->offset < 0 || f->size < 0 || f->offset > 0xffff ||
			    f->size > 0xffff - f->offset)
				return tb_err_set(c->err, TB_ERR_FORMAT,
						  c->base + (size_t)(text - c->p),
						  "tracing data: %s:%s field '%s' at offset %d, size %d "
						  "does not fit a 64 KiB record", sys, ev->name,
						  f->name, f->offset, f->size);
			if ((f->flags & TEP_FIELD_IS_DYNAMIC) && f->size != 2 && f->size != 4)
				return tb_err_set(c->err, TB_ERR_FORMAT,
						  c->base + (size_t)(text - c->p),
						  "tracing data: %s:%s __data_loc field '%s' has size %d, "
						  "not 4", sys, ev->name, f->name, f->size);
		}
	return 0;
}

/* Give one format file to libtraceevent. Its text must say "name:" and
 * "format:" first; a failure to parse the print fmt is kept as a warning. */
static int parse_format(struct cursor *c, struct td_result *res, const char *sys,
			const unsigned char *text, size_t len)
{
	struct tep_event *ev = NULL;
	enum tep_errno e;
	unsigned nr_lines;
	char *copy;
	int r;

	if (len == 0 || !memmem(text, len, "name:", 5) || !memmem(text, len, "format:", 7))
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base + (size_t)(text - c->p),
				  "tracing data: %s format of %zu bytes is not a format file",
				  sys, len);
	/* libtraceevent reads a private NUL-terminated copy, cut and ended
	 * where its bugs allow (tep_workarounds.h) */
	copy = malloc(2 * len + 2);
	if (!copy)
		return TB_ERR_NOMEM;
	memcpy(copy, text, len);
	copy[len] = 0;
	nr_lines = count_field_lines(text, len);
	len = tepw_format_text(copy, len);
	len = tepw_print_fmt_tabs(copy, len);
	len = tepw_cut_print_fmt(copy, len, res->long_size, sys);
	e = tep_parse_format(res->tep, &ev, copy, len, sys);
	free(copy);
	if (ev && (r = check_fields(c, sys, text, ev)))
		return r;
	if (ev && (unsigned)(ev->format.nr_common + ev->format.nr_fields) < nr_lines &&
	    (r = add_cut_id(res, ev->id)))
		return r;
	/* a print helper whose reads we cannot bound per record
	 * (tp_printreads.h): the event prints "[FAILED TO PARSE]" */
	if (e == 0 && ev && tpr_print_fmt_bounded(ev))
		ev->flags |= TEP_EVENT_FL_FAILED;
	/* libtraceevent 1.7 returns 0 for a print fmt it could not parse and
	 * only flags the event (it then prints "[FAILED TO PARSE]") */
	if (e == 0 && ev && (ev->flags & TEP_EVENT_FL_FAILED))
		return add_warning(res, sys, ev->name, TEP_ERRNO__READ_PRINT_FAILED);
	if (e == 0)
		return 0;
	if (!ev)
		return tb_err_set(c->err, TB_ERR_TRACEDATA, c->base + (size_t)(text - c->p),
				  "tracing data: %s format rejected by libtraceevent: %d",
				  sys, (int)e);
	return add_warning(res, sys, ev->name, (int)e);
}

static int parse_text_section(struct cursor *c, struct td_result *res, int is_u64,
			      const char *what)
{
	const unsigned char *b;
	size_t n;
	uint32_t n32;
	char *text;
	int r;

	if (is_u64) {
		r = take_blob64(c, &b, &n, what);
	} else {
		r = take_u32(c, &n32, what);
		if (!r && n32 > c->size - c->off)
			r = tb_err_set(c->err, TB_ERR_FORMAT, c->base + c->off - 4,
				       "tracing data: %s size %u exceeds the %zu bytes left",
				       what, n32, c->size - c->off);
		if (!r) {
			n = n32;
			b = c->p + c->off;
			c->off += n;
		}
	}
	if (r || n == 0)
		return r;
	if (!strcmp(what, "kallsyms"))
		return 0;   /* perf 6.1 skips it too; symbols come from the host */
	text = malloc(n + 1);
	if (!text)
		return TB_ERR_NOMEM;
	memcpy(text, b, n);
	text[n] = 0;
	if (!strcmp(what, "printk formats")) {
		tepw_printk_lines(text);
		tep_parse_printk_formats(res->tep, text);
	} else {
		tepw_cmdline_lines(text);
		tep_parse_saved_cmdlines(res->tep, text);
	}
	free(text);
	return 0;
}

/* The fixed start: magic, version, endianness and long size, page size. */
static int parse_preamble(struct cursor *c, struct td_result *res)
{
	const unsigned char *q;
	const char *s;
	int r;

	if ((r = take(c, 10, &q, "magic")))
		return r;
	if (memcmp(q, "\027\010\104tracing", 10))
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base,
				  "tracing data: bad magic (expected 17 08 44 \"tracing\")");
	if ((r = take_str(c, &s, 16, "version")))
		return r;
	snprintf(res->version, sizeof(res->version), "%s", s);
	if ((r = take(c, 2, &q, "endian and long size")))
		return r;
	if (q[0] > 1 || (q[1] != 4 && q[1] != 8))
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base + c->off - 2,
				  "tracing data: endian %u / long size %u is not 0|1 / 4|8",
				  q[0], q[1]);
	res->file_bigendian = q[0];
	res->long_size = q[1];
	c->swap = res->file_bigendian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if ((r = take_u32(c, &res->page_size, "page size")))
		return r;
	if (res->page_size == 0)
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base + c->off - 4,
				  "tracing data: page size is 0");
	return 0;
}

/* A libtraceevent handle for the preamble's byte order, long and page size. */
static int new_tep(struct td_result *res)
{
	res->tep = tep_alloc();
	if (!res->tep)
		return TB_ERR_NOMEM;
	tep_set_flag(res->tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(res->tep, res->file_bigendian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(res->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(res->tep, res->long_size);
	tep_set_page_size(res->tep, (int)res->page_size);
	return 0;
}

/* A section's tag: the NUL-terminated @tag. */
static int take_tag(struct cursor *c, const char *tag)
{
	size_t n = strlen(tag) + 1;
	const unsigned char *q;
	char what[32];
	int r;

	snprintf(what, sizeof(what), "%s tag", tag);
	if ((r = take(c, n, &q, what)))
		return r;
	if (memcmp(q, tag, n))
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base + c->off - n,
				  "tracing data: \"%s\" tag missing", tag);
	return 0;
}

/* "header_page", whose long size libtraceevent takes, and "header_event",
 * skipped: each a tag, then a u64-sized text. */
static int parse_headers(struct cursor *c, struct td_result *res)
{
	const unsigned char *b;
	size_t n;
	char *hp;
	int r;

	if ((r = take_tag(c, "header_page")) || (r = take_blob64(c, &b, &n, "header_page")))
		return r;
	if (n == 0)
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base + c->off - 8,
				  "tracing data: header_page is empty");
	hp = malloc(n + 1);
	if (!hp)
		return TB_ERR_NOMEM;
	memcpy(hp, b, n);
	hp[n] = 0;
	if (!tep_parse_header_page(res->tep, hp, n, res->long_size))
		tep_set_long_size(res->tep, tep_get_header_page_size(res->tep));
	free(hp);
	if ((r = take_tag(c, "header_event")))
		return r;
	return take_blob64(c, &b, &n, "header_event");
}

/* The ftrace formats, then each system's name and event formats. */
static int parse_formats(struct cursor *c, struct td_result *res)
{
	const unsigned char *b;
	const char *sys;
	uint32_t count, nsys, nev;
	size_t n;
	int r;

	if ((r = take_u32(c, &count, "ftrace format count")))
		return r;
	for (uint32_t i = 0; i < count; i++) {
		if ((r = take_blob64(c, &b, &n, "ftrace format")) ||
		    (r = parse_format(c, res, "ftrace", b, n)))
			return r;
		res->nr_ftrace++;
	}
	if ((r = take_u32(c, &nsys, "system count")))
		return r;
	for (uint32_t i = 0; i < nsys; i++) {
		if ((r = take_str(c, &sys, 256, "system name")) ||
		    (r = take_u32(c, &nev, "event count")))
			return r;
		for (uint32_t j = 0; j < nev; j++) {
			if ((r = take_blob64(c, &b, &n, "event format")) ||
			    (r = parse_format(c, res, sys, b, n)))
				return r;
			res->nr_events++;
		}
		res->nr_systems++;
	}
	return 0;
}

int td_parse(const unsigned char *buf, size_t size, uint64_t base,
	     struct td_result *res, struct tb_err *err)
{
	struct cursor c = { .p = buf, .size = size, .base = base, .err = err };
	int r;

	memset(res, 0, sizeof(*res));
	if ((r = parse_preamble(&c, res)))
		return r;
	if ((r = new_tep(res)) ||
	    (r = parse_headers(&c, res)) ||
	    (r = parse_formats(&c, res)) ||
	    (r = tepw_check_common_type(res->tep, base, err)) ||
	    (r = parse_text_section(&c, res, 0, "kallsyms")) ||
	    (r = parse_text_section(&c, res, 0, "printk formats")))
		goto fail;
	if (atof(res->version) >= 0.6 &&
	    (r = parse_text_section(&c, res, 1, "saved cmdlines")))
		goto fail;
	res->parsed_size = c.off;
	return 0;
fail:
	td_result_free(res);
	return r;
}

void td_result_free(struct td_result *res)
{
	if (res->tep)
		tep_free(res->tep);
	free(res->warnings);
	free(res->cut_ids);
	res->tep = NULL;
	res->warnings = NULL;
	res->cut_ids = NULL;
	res->nr_warnings = res->nr_cut_ids = 0;
}
