/* tracing_data.c - parse a HEADER_TRACING_DATA payload into libtraceevent.
 * Layout: perf-data-format.md section 5.3 (perf's trace-event-read.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "pd_format.h"
#include "tp_printreads.h"
#include "tracing_data.h"

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

/* One token of a print fmt, split as libtraceevent's __read_token does;
 * *@tok is where it starts. */
enum pf_tok { PF_END, PF_ITEM, PF_STR, PF_DELIM, PF_OP };

static enum pf_tok pf_next(const char **pp, char op[4], const char **tok)
{
	const char *p = *pp;
	enum pf_tok t;

	while (*p && isspace((unsigned char)*p))
		p++;
	*tok = p;
	op[0] = *p;
	op[1] = 0;
	if (!*p) {
		t = PF_END;
	} else if (*p == '"' || *p == '\'') {
		char q = *p++;

		while (*p && *p != q)
			p += p[0] == '\\' && p[1] ? 2 : 1;
		p += *p ? 1 : 0;
		t = PF_STR;
	} else if (isalnum((unsigned char)*p) || *p == '_') {
		while (isalnum((unsigned char)*p) || *p == '_')
			p++;
		t = PF_ITEM;
	} else if (*p == '(' || *p == ')' || *p == ',' || !isprint((unsigned char)*p)) {
		p++;
		t = PF_DELIM;
	} else {
		char c = *p++;
		int n = 1;

		if (c == '-' && *p == '>') {
			op[n++] = *p++;
		} else if (strchr("+|&><-", c) && *p == c) {
			op[n++] = *p++;
			if ((c == '<' || c == '>') && *p == '=')
				op[n++] = *p++;
		} else if (strchr("+|&><-!=", c) && *p == '=') {
			op[n++] = *p++;
		}
		op[n] = 0;
		t = PF_OP;
	}
	*pp = p;
	return t;
}

static int pf_is(enum pf_tok t, const char *tok, const char *p, const char *word)
{
	return t == PF_ITEM && (size_t)(p - tok) == strlen(word) && !strncmp(tok, word, strlen(word));
}

/* The right operand of a '/' or '%' at @p: libtraceevent 1.7.1 divides by
 * it unchecked, both when it folds constants (consolidate_op_arg) and for
 * every record (eval_num_arg), so it must be a non-zero number or a
 * sizeof(type), not followed by an operator that would take it as its left
 * operand first. Returns 1 for anything else (a field, a name, "(1-1)"). */
static int divisor_unsafe(const char *p)
{
	const char *tok, *t1;
	enum pf_tok t;
	char op[4];
	int depth = 0;

	t = pf_next(&p, op, &t1);
	if (t == PF_ITEM && isdigit((unsigned char)*t1)) {
		if (strtoull(t1, NULL, 0) == 0)
			return 1;
	} else if (pf_is(t, t1, p, "sizeof")) {
		if (pf_next(&p, op, &tok) != PF_DELIM || op[0] != '(')
			return 1;
		for (depth = 1; depth && (t = pf_next(&p, op, &tok)) != PF_END; ) {
			if (pf_is(t, tok, p, "REC"))
				return 1;
			depth += t == PF_DELIM && op[0] == '(';
			depth -= t == PF_DELIM && op[0] == ')';
		}
	} else {
		return 1;
	}
	t = pf_next(&p, op, &tok);
	return t == PF_OP && strchr("*/%[", op[0]) && !strcmp(op + 1, "");
}

/* Whether libtraceevent 1.7.1 would crash on the print fmt read from @text
 * on, with @sev's fields (upstream bugs, all still in 1.8.4):
 * - process_op() recurses with a NULL argument when an operator it has no
 *   priority for ("$", "=", "->", "{"...) follows an array subscript "X[N]"
 *   or the last operand of "A ? B : C" at the same depth;
 * - process_entry() sets a flag on the field "REC->name" names, NULL when
 *   the event has no such field (inside __print_flags/__print_symbolic, or
 *   later: the flag is a global);
 * - a '/' or '%' divides by zero (divisor_unsafe()).
 * Kernel formats do none of these. */
static int print_fmt_crashes_tep(const char *text, struct tep_event *sev)
{
	static const char *const prio[] = { "~", "!", "*", "/", "%", "+", "-", "<", ">", "&",
		"^", "|", "?", "++", "--", ">>", "<<", ">=", "<=", "==", "!=", "&&", "||" };
	enum pf_tok t, prev = PF_END;
	char op[4], prev_op[4] = "";
	int sq = 0, par = 0, tern[32], nt = 0, closed_index = 0, rec = 0, rec_item = 0;
	const char *p = text, *tok;

	while ((t = pf_next(&p, op, &tok)) != PF_END) {
		int known = 0, after_item = prev == PF_ITEM || (prev == PF_DELIM && prev_op[0] == ')');

		if (t == PF_ITEM && prev == PF_OP && !strcmp(prev_op, "->") && rec) {
			char name[256];

			snprintf(name, sizeof(name), "%.*s", (int)(p - tok), tok);
			if (sev && !tep_find_any_field(sev, name))
				return 1;
		}
		if (t == PF_DELIM && op[0] == '(') {
			par++;
		} else if (t == PF_DELIM && (op[0] == ')' || op[0] == ',')) {
			par -= op[0] == ')';
			while (nt && tern[nt - 1] >= par + (op[0] == ')'))
				nt--;
		} else if (t == PF_OP) {
			for (size_t i = 0; i < sizeof(prio) / sizeof(prio[0]); i++)
				known |= !strcmp(op, prio[i]);
			if (!known && strcmp(op, ":")) {
				int closes = op[0] == ']' && !op[1] && sq > 0;

				if (prev == PF_OP && !strcmp(prev_op, "]") && closed_index && !closes)
					return 1;
				if (nt && tern[nt - 1] == par && !closes &&
				    !(after_item && (!strcmp(op, "->") || !strcmp(op, "["))))
					return 1;
			}
			if ((!strcmp(op, "/") || !strcmp(op, "%")) && divisor_unsafe(p))
				return 1;
			if (!strcmp(op, ":") && nt < 32)
				tern[nt++] = par;
			if (!strcmp(op, "]"))
				closed_index = !(prev == PF_OP && !strcmp(prev_op, "["));
			sq += !strcmp(op, "[") - (!strcmp(op, "]") && sq > 0);
			/* "REC->" and "(REC)->" name a field */
			rec = !strcmp(op, "->") && (prev == PF_ITEM ? rec_item :
						    prev == PF_DELIM && prev_op[0] == ')');
		}
		rec_item = pf_is(t, tok, p, "REC");
		prev = t;
		memcpy(prev_op, op, sizeof(op));
	}
	return 0;
}

/* The next place from @from on where libtraceevent may start reading the
 * print fmt: the tokens "print", "fmt", ":", whatever the spacing. */
static char *print_fmt_next(char *from)
{
	const char *p = from, *start = from, *tok;
	enum pf_tok t;
	char op[4];
	int state = 0;

	while ((t = pf_next(&p, op, &tok)) != PF_END) {
		if (pf_is(t, tok, p, "print")) {
			state = 1;
			start = tok;
		} else if (state == 1 && pf_is(t, tok, p, "fmt")) {
			state = 2;
		} else if (state == 2 && t == PF_OP && !strcmp(op, ":")) {
			return (char *)start;
		} else {
			state = 0;
		}
	}
	return NULL;
}

/* End the text at @at with a newline (a field cut short there then ends
 * at a newline token, not at libtraceevent's NULL one). Returns its length. */
static size_t end_text_at(char *copy, char *at)
{
	at[0] = '\n';
	at[1] = 0;
	return (size_t)(at - copy) + 1;
}

/* Whether the print fmt of @copy would crash libtraceevent: its fields,
 * parsed first into a scratch handle, tell what "REC->name" may name. */
static int print_fmt_unsafe(struct td_result *res, char *copy, const char *sys)
{
	char *pf = print_fmt_next(copy), save[2];
	struct tep_handle *scratch;
	struct tep_event *sev = NULL;
	int bad = 0;

	if (!pf)
		return 0;
	scratch = tep_alloc();
	if (!scratch)
		return 1;
	tep_set_long_size(scratch, res->long_size);
	memcpy(save, pf, 2);
	tep_parse_format(scratch, &sev, copy, end_text_at(copy, pf), sys);
	memcpy(pf, save, 2);
	/* no event: libtraceevent stops before the print fmt as here */
	for (; sev && pf && !bad; pf = print_fmt_next(pf + 5))
		bad = print_fmt_crashes_tep(pf, sev);
	tep_free(scratch);
	return bad;
}

/* Give one format file to libtraceevent. Its text must say "name:" and
 * "format:" first; a failure to parse the print fmt is kept as a warning. */
static int parse_format(struct cursor *c, struct td_result *res, const char *sys,
			const unsigned char *text, size_t len)
{
	struct tep_event *ev = NULL;
	enum tep_errno e;
	char *copy;
	size_t n;
	int r;

	if (len == 0 || !memmem(text, len, "name:", 5) || !memmem(text, len, "format:", 7))
		return tb_err_set(c->err, TB_ERR_FORMAT, c->base + (size_t)(text - c->p),
				  "tracing data: %s format of %zu bytes is not a format file",
				  sys, len);
	/* libtraceevent reads text: give it a private NUL-terminated copy that
	 * ends before the first byte that is not text, and in a newline. Its
	 * tokenizer returns a NULL token for such a byte or the end, which 1.7.1
	 * event_read_fields strcmp()s right after a '[' (upstream bug, still in
	 * 1.8.4); a newline token there ends the field instead. */
	for (n = 0; n < len && (isprint(text[n]) || isspace(text[n])); n++)
		;
	len = n;
	copy = malloc(len + 2);
	if (!copy)
		return TB_ERR_NOMEM;
	memcpy(copy, text, len);
	copy[len] = 0;
	if (len && copy[len - 1] != '\n') {
		copy[len++] = '\n';
		copy[len] = 0;
	}
	/* a print fmt libtraceevent would crash on, read from any place it
	 * may start: give it none (the event then prints "[FAILED TO PARSE]"
	 * and keeps its fields) */
	if (print_fmt_unsafe(res, copy, sys))
		len = end_text_at(copy, print_fmt_next(copy));
	e = tep_parse_format(res->tep, &ev, copy, len, sys);
	free(copy);
	if (ev && (r = check_fields(c, sys, text, ev)))
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

/* Keep only "PID COMM" lines whose PID fits an int: libtraceevent 1.7.1
 * leaks on the others (sscanf %m in tep_parse_saved_cmdlines). Upstream
 * bug; the lines are dropped in place. */
static void keep_sane_cmdlines(char *text)
{
	char *in = text, *out = text;

	while (*in) {
		char *nl = strchr(in, '\n');
		size_t len = nl ? (size_t)(nl - in) + 1 : strlen(in);
		size_t digits = strspn(in, "0123456789");

		if (digits > 0 && digits <= 9 && in[digits] == ' ') {
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	*out = 0;
}

/* Keep only "ADDR : FMT" lines whose FMT libtraceevent 1.7.1 can take:
 * tep_parse_printk_formats copies the text from colon + 2, and
 * tep_register_print_string then drops a leading '"' and looks at the last
 * 3 bytes, so a shorter FMT (or none, on the last line) is read outside its
 * buffer. Upstream bugs (still in 1.8.4); the lines are dropped in place. */
static void keep_sane_printk(char *text)
{
	char *in = text, *out = text;

	while (*in) {
		char *nl = strchr(in, '\n');
		size_t len = nl ? (size_t)(nl - in) + 1 : strlen(in);
		size_t line = nl ? len - 1 : len;
		char *colon = memchr(in, ':', line);
		size_t fmt = colon ? line - (size_t)(colon - in) - 1 : 0;

		if (fmt > 1 && colon[2] == '"')
			fmt--;
		if (in[0] != ':' && colon && fmt >= 1 + 3) {
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	*out = 0;
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
		keep_sane_printk(text);
		tep_parse_printk_formats(res->tep, text);
	} else {
		keep_sane_cmdlines(text);
		tep_parse_saved_cmdlines(res->tep, text);
	}
	free(text);
	return 0;
}

/* libtraceevent reads the type of every record at the offset and size of
 * its first event's common_type (tep->type_offset, type_size), whatever
 * the record's event: each event must have its common_type there, or a
 * short record of another event is read past its end. */
static int check_common_type(struct tep_handle *tep, uint64_t base, struct tb_err *err)
{
	struct tep_format_field *f0, *f;
	int n = tep_get_events_count(tep);

	if (n == 0 || !(f0 = tep_find_common_field(tep_get_event(tep, 0), "common_type")))
		return 0;
	for (int i = 1; i < n; i++) {
		struct tep_event *ev = tep_get_event(tep, i);

		f = tep_find_common_field(ev, "common_type");
		if (!f || f->offset != f0->offset || f->size != f0->size)
			return tb_err_set(err, TB_ERR_FORMAT, base,
					  "tracing data: %s:%s common_type is not at offset %d, "
					  "size %d as in the other formats", ev->system, ev->name,
					  f0->offset, f0->size);
	}
	return 0;
}

int td_parse(const unsigned char *buf, size_t size, uint64_t base,
	     struct td_result *res, struct tb_err *err)
{
	struct cursor c = { .p = buf, .size = size, .base = base, .err = err };
	const unsigned char *q, *b;
	const char *s, *sys;
	uint32_t count, nsys, nev;
	size_t n;
	int r;

	memset(res, 0, sizeof(*res));
	if ((r = take(&c, 10, &q, "magic")))
		return r;
	if (memcmp(q, "\027\010\104tracing", 10))
		return tb_err_set(err, TB_ERR_FORMAT, base,
				  "tracing data: bad magic (expected 17 08 44 \"tracing\")");
	if ((r = take_str(&c, &s, 16, "version")))
		return r;
	snprintf(res->version, sizeof(res->version), "%s", s);
	if ((r = take(&c, 2, &q, "endian and long size")))
		return r;
	if (q[0] > 1 || (q[1] != 4 && q[1] != 8))
		return tb_err_set(err, TB_ERR_FORMAT, base + c.off - 2,
				  "tracing data: endian %u / long size %u is not 0|1 / 4|8",
				  q[0], q[1]);
	res->file_bigendian = q[0];
	res->long_size = q[1];
	c.swap = res->file_bigendian != (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);
	if ((r = take_u32(&c, &res->page_size, "page size")))
		return r;
	if (res->page_size == 0)
		return tb_err_set(err, TB_ERR_FORMAT, base + c.off - 4,
				  "tracing data: page size is 0");

	res->tep = tep_alloc();
	if (!res->tep)
		return TB_ERR_NOMEM;
	tep_set_flag(res->tep, TEP_NSEC_OUTPUT);
	tep_set_file_bigendian(res->tep, res->file_bigendian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(res->tep, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__ ?
				TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(res->tep, res->long_size);
	tep_set_page_size(res->tep, (int)res->page_size);

	if ((r = take(&c, 12, &q, "header_page tag")))
		goto fail;
	if (memcmp(q, "header_page", 12)) {
		r = tb_err_set(err, TB_ERR_FORMAT, base + c.off - 12,
			       "tracing data: \"header_page\" tag missing");
		goto fail;
	}
	if ((r = take_blob64(&c, &b, &n, "header_page")))
		goto fail;
	if (n == 0) {
		r = tb_err_set(err, TB_ERR_FORMAT, base + c.off - 8,
			       "tracing data: header_page is empty");
		goto fail;
	} else {
		char *hp = malloc(n + 1);

		if (!hp) {
			r = TB_ERR_NOMEM;
			goto fail;
		}
		memcpy(hp, b, n);
		hp[n] = 0;
		if (!tep_parse_header_page(res->tep, hp, n, res->long_size))
			tep_set_long_size(res->tep, tep_get_header_page_size(res->tep));
		free(hp);
	}
	if ((r = take(&c, 13, &q, "header_event tag")))
		goto fail;
	if (memcmp(q, "header_event", 13)) {
		r = tb_err_set(err, TB_ERR_FORMAT, base + c.off - 13,
			       "tracing data: \"header_event\" tag missing");
		goto fail;
	}
	if ((r = take_blob64(&c, &b, &n, "header_event")))
		goto fail;

	if ((r = take_u32(&c, &count, "ftrace format count")))
		goto fail;
	for (uint32_t i = 0; i < count; i++) {
		if ((r = take_blob64(&c, &b, &n, "ftrace format")) ||
		    (r = parse_format(&c, res, "ftrace", b, n)))
			goto fail;
		res->nr_ftrace++;
	}
	if ((r = take_u32(&c, &nsys, "system count")))
		goto fail;
	for (uint32_t i = 0; i < nsys; i++) {
		if ((r = take_str(&c, &sys, 256, "system name")) ||
		    (r = take_u32(&c, &nev, "event count")))
			goto fail;
		for (uint32_t j = 0; j < nev; j++) {
			if ((r = take_blob64(&c, &b, &n, "event format")) ||
			    (r = parse_format(&c, res, sys, b, n)))
				goto fail;
			res->nr_events++;
		}
		res->nr_systems++;
	}
	if ((r = check_common_type(res->tep, base, err)))
		goto fail;
	if ((r = parse_text_section(&c, res, 0, "kallsyms")) ||
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
	res->tep = NULL;
	res->warnings = NULL;
	res->nr_warnings = 0;
}
