/* tep_workarounds.c - keep hostile tracing data away from libtraceevent bugs.
 * Each public function names the upstream bug it guards (tep_workarounds.h
 * says how to drop one); the format text is the tracepoint format file. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "tracepoint/tep_workarounds.h"

/**
 * tepw_format_text - end a format's text where libtraceevent can read it
 * @text: a private, NUL-terminated copy of the format, with room for
 *        @len + 2 bytes; rewritten in place
 * @len: its length
 *
 * Upstream bug (libtraceevent 1.7.1, still in 1.8.4; FIGURES #7):
 * the tokenizer returns a NULL token for the end of the text and for a
 * byte that is not text, and event_read_fields() strcmp()s the token right
 * after a '[' without checking it, so "char a[" at the end, or before such
 * a byte, is a NULL dereference. The text is cut before its first byte
 * that is neither printable nor space, and ends in a newline: a newline
 * token there ends the field instead.
 *
 * Returns the new length (at most @len + 1).
 */
size_t tepw_format_text(char *text, size_t len)
{
	size_t n;

	for (n = 0; n < len && (isprint((unsigned char)text[n]) || isspace((unsigned char)text[n])); n++)
		;
	text[n] = 0;
	if (n && text[n - 1] != '\n') {
		text[n++] = '\n';
		text[n] = 0;
	}
	return n;
}

/**
 * tepw_print_fmt_tabs - write a tab inside the print fmt's strings as "\t"
 * @text: the format, NUL-terminated, in a buffer with room for twice @len
 *        plus 2 bytes; rewritten in place
 * @len: its length
 *
 * Upstream bug (libtraceevent 1.7.1; perf 6.1's own copy reads it): a
 * raw tab inside the print fmt's quoted string makes the parse fail
 * ("expected type 5 (DELIM) but read 6 (ITEM)") and the event print
 * "[FAILED TO PARSE]"; maple_tree's events have one ("%s\tNode: ...").
 * libtraceevent turns the two-byte escape back into a tab when it prints.
 *
 * Returns the new length.
 */
size_t tepw_print_fmt_tabs(char *text, size_t len)
{
	char *p = strstr(text, "\nprint fmt:");
	int quoted = 0;

	if (!p)
		return len;
	for (p += 11; *p && *p != '\n'; p++) {
		if (*p == '"' && p[-1] != '\\')
			quoted = !quoted;
		if (*p == '\t' && quoted) {
			memmove(p + 2, p + 1, len - (size_t)(p + 1 - text) + 1);
			p[0] = '\\';
			p[1] = 't';
			p++;
			len++;
		}
	}
	return len;
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
		/* as __read_token() reads a string: it ends at its quote or
		 * at any byte but a newline that is not printable (a tab),
		 * which it swallows, unless the byte before is a backslash
		 * (two backslashes do not cancel: "a\\" goes on) */
		char q = *p++;

		while (*p && ((*p != q && (isprint((unsigned char)*p) || *p == '\n')) ||
			      p[-1] == '\\'))
			p++;
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

/* The right operand of a '/' or '%' at @p must be a non-zero number or a
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

/* After "sizeof" at @p: whether process_sizeof() would read a token it
 * freed or that is NULL. It reads "(", then "[unsigned] int", "[unsigned]
 * long long" and "REC->field" end in a strcmp() of the freed type token;
 * the end of the text right after "(" is a strcmp() of NULL. */
static int sizeof_unsafe(const char *p)
{
	const char *tok;
	enum pf_tok t;
	char op[4];

	if (pf_next(&p, op, &tok) != PF_DELIM || op[0] != '(')
		return 0;         /* not the helper: process_function fails it */
	t = pf_next(&p, op, &tok);
	if (t == PF_END)
		return 1;
	if (pf_is(t, tok, p, "unsigned"))
		t = pf_next(&p, op, &tok);
	if (pf_is(t, tok, p, "int") || pf_is(t, tok, p, "REC"))
		return 1;
	return pf_is(t, tok, p, "long") && (t = pf_next(&p, op, &tok), pf_is(t, tok, p, "long"));
}

/* A getter of a __data_loc field's bytes: libtraceevent reads the named
 * field as a __data_loc, whatever its type, and what it points at */
static int is_getter(enum pf_tok t, const char *tok, const char *p)
{
	static const char *const names[] = { "__get_str", "__get_bitmask", "__get_cpumask",
		"__get_sockaddr", "__get_dynamic_array", "__get_rel_str", "__get_rel_bitmask",
		"__get_rel_cpumask", "__get_rel_sockaddr", "__get_rel_dynamic_array" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (pf_is(t, tok, p, names[i]))
			return 1;
	return 0;
}

/* Whether the print fmt read from @text on would crash libtraceevent, with
 * @sev's fields: the bugs tepw_cut_print_fmt() names. */
static int print_fmt_crashes_tep(const char *text, struct tep_event *sev)
{
	static const char *const prio[] = { "~", "!", "*", "/", "%", "+", "-", "<", ">", "&",
		"^", "|", "?", "++", "--", ">>", "<<", ">=", "<=", "==", "!=", "&&", "||" };
	enum pf_tok t, prev = PF_END;
	char op[4], prev_op[4] = "";
	int sq = 0, par = 0, tern[32], nt = 0, closed_index = 0, rec = 0, rec_item = 0;
	int getter = 0;        /* 1 after a field's getter ("__get_str"), 2 after its "(" */
	const char *p = text, *tok;

	while ((t = pf_next(&p, op, &tok)) != PF_END) {
		int known = 0, after_item = prev == PF_ITEM || (prev == PF_DELIM && prev_op[0] == ')');

		if (t == PF_ITEM && ((prev == PF_OP && !strcmp(prev_op, "->") && rec) || getter == 2)) {
			struct tep_format_field *f;
			char name[256];

			/* a longer name cut here would find a field it is not */
			if ((size_t)(p - tok) >= sizeof(name))
				return 1;
			snprintf(name, sizeof(name), "%.*s", (int)(p - tok), tok);
			f = sev ? tep_find_any_field(sev, name) : NULL;
			if (sev && (!f || (getter == 2 && !(f->flags & TEP_FIELD_IS_DYNAMIC))))
				return 1;
		}
		if (pf_is(t, tok, p, "sizeof") && sizeof_unsafe(p))
			return 1;
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
		getter = is_getter(t, tok, p) ? 1 : getter == 1 && t == PF_DELIM && op[0] == '(' ? 2 : 0;
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
static size_t end_text_at(char *text, char *at)
{
	at[0] = '\n';
	at[1] = 0;
	return (size_t)(at - text) + 1;
}

/* The level the caller wants libtraceevent to log at (tepw_set_loglevel);
 * probes parse with it off. libtraceevent's own default is CRITICAL. */
static enum tep_loglevel wanted_level = TEP_LOG_CRITICAL;

void tepw_set_loglevel(enum tep_loglevel level)
{
	wanted_level = level;
	tep_set_loglevel(level);
}

/* Whether the print fmt of @text would crash libtraceevent: its fields,
 * parsed first into a scratch handle, tell what "REC->name" may name. */
static int print_fmt_unsafe(char *text, int long_size, const char *sys)
{
	char *pf = print_fmt_next(text), save[2];
	struct tep_handle *scratch;
	struct tep_event *sev = NULL;
	int bad = 0;

	if (!pf)
		return 0;
	scratch = tep_alloc();
	if (!scratch)
		return 1;
	tep_set_long_size(scratch, long_size);
	memcpy(save, pf, 2);
	tep_set_loglevel(TEP_LOG_NONE);       /* a probe of a cut text: no warnings */
	tep_parse_format(scratch, &sev, text, end_text_at(text, pf), sys);
	tep_set_loglevel(wanted_level);
	memcpy(pf, save, 2);
	/* no event: libtraceevent stops before the print fmt as here */
	for (; sev && pf && !bad; pf = print_fmt_next(pf + 5))
		bad = print_fmt_crashes_tep(pf, sev);
	tep_free(scratch);
	return bad;
}

/**
 * tepw_cut_print_fmt - drop a print fmt libtraceevent would crash on
 * @text: a format's NUL-terminated text, after tepw_format_text();
 *        rewritten in place
 * @len: its length
 * @long_size: the payload's long size, for the scratch handle
 * @sys: the event's system
 *
 * Upstream bugs (libtraceevent 1.7.1, all but one still in 1.8.4):
 * - process_op() recurses with a NULL argument when an operator it has no
 *   priority for ("$", "=", "->", "{"...) follows an array subscript "X[N]"
 *   or the last operand of "A ? B : C" at the same depth (FIGURES #5);
 * - process_entry() sets a flag on the field "REC->name" names, NULL when
 *   the event has no such field (inside __print_flags/__print_symbolic, or
 *   later: the flag is a global) (FIGURES #10);
 * - a '/' or '%' divides by its right operand unchecked, both when
 *   consolidate_op_arg() folds constants and in eval_num_arg() for every
 *   record: only a non-zero number or a sizeof(type) may divide (FIGURES #9);
 * - print_str_arg() reads the offset of the field
 *   "__get_cpumask(name)" or "__get_rel_cpumask(name)" names, NULL when the
 *   event has no such field (FIGURES #22), and "__get_str(name)" and the
 *   other getters of a __data_loc's bytes read a field that is none (a
 *   char[4], an int) as one, pointing anywhere: only the checked __data_loc
 *   fields may be named there (FIGURES #24);
 * - process_sizeof() compares a NULL token when the text ends after
 *   "sizeof(", and (1.7.1 only) the token it has just freed for
 *   "sizeof(int)", "sizeof(unsigned int)", "sizeof(long long)" and
 *   "sizeof(REC->field)" (FIGURES #16). perf 6.1's own parser knows no sizeof() at
 *   all, so such an event prints "[FAILED TO PARSE]" there too.
 * The print fmt is checked by a tokenizer that splits it as
 * __read_token() does, from every place libtraceevent may start reading
 * it ("print fmt:", whatever the spacing). Kernel formats do none of these.
 *
 * Returns the new length: @len, or the text ends (in a newline) before the
 * print fmt, so the event keeps its fields and prints "[FAILED TO PARSE]".
 */
size_t tepw_cut_print_fmt(char *text, size_t len, int long_size, const char *sys)
{
	if (print_fmt_unsafe(text, long_size, sys))
		len = end_text_at(text, print_fmt_next(text));
	return len;
}

/**
 * tepw_check_common_type - check every event's common_type sits alike
 * @tep: the handle holding every format of the payload
 * @base: the payload's offset in its file, for the error message
 * @err: filled on failure
 *
 * Upstream behaviour (libtraceevent 1.7.1, still in 1.8.4; FIGURES #6):
 * tep_data_type() reads the type of every record at the offset and size of
 * the first event's common_type (tep->type_offset, type_size), whatever the
 * record's event, so an event whose common_type lies elsewhere has a short
 * record read past its end.
 *
 * Returns 0 when each event's common_type has the first one's offset and
 * size (or the first has none), else TB_ERR_FORMAT naming the event.
 */
int tepw_check_common_type(struct tep_handle *tep, uint64_t base, struct tb_err *err)
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

/* Keep, in place, the lines of @text that @keep accepts (@len: with its
 * newline, @line: without). */
static void keep_lines(char *text, int (*keep)(const char *in, size_t line))
{
	char *in = text, *out = text;

	while (*in) {
		char *nl = strchr(in, '\n');
		size_t len = nl ? (size_t)(nl - in) + 1 : strlen(in);

		if (keep(in, nl ? len - 1 : len)) {
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	*out = 0;
}

static int printk_line_sane(const char *in, size_t line)
{
	const char *colon = memchr(in, ':', line);
	size_t fmt = colon ? line - (size_t)(colon - in) - 1 : 0;

	if (fmt > 1 && colon[2] == '"')
		fmt--;
	return in[0] != ':' && colon && fmt >= 1 + 3;
}

/**
 * tepw_printk_lines - drop printk format lines libtraceevent misreads
 * @text: the NUL-terminated "ADDR : FMT" lines; rewritten in place
 *
 * Upstream bugs (libtraceevent 1.7.1, still in 1.8.4; FIGURES #1, #2):
 * tep_parse_printk_formats() copies the text from colon + 2, and
 * tep_register_print_string() then drops a leading '"' and looks at the
 * last 3 bytes, so a line with no ": FMT" (on the last line, strdup past
 * the text) or a FMT shorter than 3 bytes is read outside its buffer.
 * Only the lines with a colon, not first, and a FMT of 3 bytes or more
 * (past a leading '"') are kept.
 */
void tepw_printk_lines(char *text)
{
	keep_lines(text, printk_line_sane);
}

static int cmdline_sane(const char *in, size_t line)
{
	size_t digits = strspn(in, "0123456789");

	(void)line;
	return digits > 0 && digits <= 9 && in[digits] == ' ';
}

/**
 * tepw_cmdline_lines - drop saved cmdline lines libtraceevent leaks on
 * @text: the NUL-terminated "PID COMM" lines; rewritten in place
 *
 * Upstream bug (libtraceevent 1.7.1; no fuzz regression file): the
 * sscanf() with %m in tep_parse_saved_cmdlines() leaks on a line that is
 * not "PID COMM" with a PID that fits an int. Only the lines that start
 * with 1 to 9 digits and a space are kept.
 */
void tepw_cmdline_lines(char *text)
{
	keep_lines(text, cmdline_sane);
}
