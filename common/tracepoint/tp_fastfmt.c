/* tp_fastfmt.c - compile libtraceevent's parsed print format of simple
 * events into direct rendering steps; byte-identical to tep_print_event
 * (libtraceevent 1.7: parse_args, print_arg_number, print_str_arg). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "tracepoint/tp_fastfmt.h"
#include "tracepoint/tp_fields.h"
#include "util/digit_pairs.h"

enum step_kind { STEP_LIT, STEP_INT, STEP_STR_ARRAY, STEP_STR_DYN };

struct step {
	enum step_kind kind;
	/* STEP_LIT */
	char *lit;
	size_t lit_len;
	/* the value's place in the record */
	int offset, size;
	/* conversion */
	int bits;          /* width the value is cast to: 8, 16, 32, 64 */
	int is_signed;     /* d, i */
	int base;          /* 10, 16, 8 */
	int upper;         /* X */
	int left, zero;    /* '-' and '0' flags */
	int width;
	struct tp_field loc;   /* STEP_STR_DYN: the __data_loc field */
};

/* a literal up to this long is copied as a block of this size */
#define LIT_COPY 16

/*
 * A format of numbers and short literals alone ("NR %ld (%lx, %lx, ...)",
 * most of a storm's lines) also runs as fused steps: each number with the
 * literal before it, the record's size and the output's room checked once
 * for all of them, the commonest conversions (%x, %lx; %d, %u, %ld, %lu
 * without a width) written digit pairs at a time where they go.
 */
enum conv { CONV_NONE, CONV_HEX, CONV_DEC, CONV_OTHER };

struct fused {
	char lit[LIT_COPY];        /* the literal before the number */
	uint8_t lit_len;
	uint8_t conv;              /* enum conv; CONV_NONE: the literal alone */
	uint8_t size;              /* the field's bytes */
	uint8_t is_signed;         /* CONV_DEC: sign-extend from sign_bit */
	int offset;
	uint64_t mask, sign_bit;   /* the C cast to the conversion's width */
	const struct step *s;      /* CONV_OTHER: put_int's step */
};

/* the room one fused step may write: its literal block and a number */
#define FUSED_OUT (LIT_COPY + 96)

struct tpf_prog {
	struct step *steps;
	size_t nr;
	int swap;          /* the recording's byte order is not ours */
	struct fused *fused;       /* NULL: not numbers and short literals alone */
	size_t nr_fused;
	int min_size;              /* the record bytes the fused steps read */
};

static int add_step(struct tpf_prog *p, const struct step *s)
{
	struct step *n = realloc(p->steps, (p->nr + 1) * sizeof(*n));

	if (!n)
		return -1;
	p->steps = n;
	p->steps[p->nr++] = *s;
	return 0;
}

/* A literal run up to the next real conversion, with libtraceevent's
 * escapes (\n \t \r \\, %% -> %). Returns the bytes consumed. */
static size_t literal(struct tpf_prog *p, const char *f, int *err)
{
	struct step s = { .kind = STEP_LIT };
	size_t i = 0, n = 0;
	/* LIT_COPY bytes past the text: tpf_render copies a short one whole */
	char *out = calloc(1, strlen(f) + 1 + LIT_COPY);

	if (!out) {
		*err = 1;
		return 0;
	}
	while (f[i]) {
		if (f[i] == '\\' && f[i + 1]) {
			char c = f[i + 1];

			out[n++] = c == 'n' ? '\n' : c == 't' ? '\t' : c == 'r' ? '\r' : c;
			i += 2;
		} else if (f[i] == '%') {
			if (f[i + 1] != '%')
				break;
			out[n++] = '%';
			i += 2;
		} else {
			out[n++] = f[i++];
		}
	}
	s.lit = out;
	s.lit_len = n;
	if (add_step(p, &s)) {
		free(out);
		*err = 1;
	}
	return i;
}

/* The field a FIELD arg or an array element "REC->a[N]" reads. */
static int numeric_place(struct tep_event *ev, struct tep_print_arg *a, int *off, int *size)
{
	struct tep_format_field *f;
	unsigned long long idx;
	char *end;

	if (a->type == TEP_PRINT_FIELD) {
		f = a->field.field ? a->field.field : tep_find_any_field(ev, a->field.name);
		if (!f || (f->flags & (TEP_FIELD_IS_ARRAY | TEP_FIELD_IS_DYNAMIC)))
			return -1;
		*off = f->offset;
		*size = f->size;
	} else if (a->type == TEP_PRINT_OP && !strcmp(a->op.op, "[") &&
		   a->op.left && a->op.left->type == TEP_PRINT_FIELD &&
		   a->op.right && a->op.right->type == TEP_PRINT_ATOM) {
		struct tep_print_arg *l = a->op.left;

		f = l->field.field ? l->field.field : tep_find_any_field(ev, l->field.name);
		idx = strtoull(a->op.right->atom.atom, &end, 0);
		if (!f || *end || idx > 4096 || !(f->flags & TEP_FIELD_IS_ARRAY) ||
		    (f->flags & TEP_FIELD_IS_DYNAMIC))
			return -1;
		*off = f->offset + (int)idx * (int)f->elementsize;
		*size = (int)f->elementsize;
	} else {
		return -1;
	}
	return (*size == 1 || *size == 2 || *size == 4 || *size == 8) ? 0 : -1;
}

static int string_place(struct tep_event *ev, struct tep_print_arg *a, struct step *s)
{
	struct tep_format_field *f;

	if (a->type == TEP_PRINT_STRING) {
		f = a->string.field ? a->string.field : tep_find_any_field(ev, a->string.string);
		if (!f || !(f->flags & TEP_FIELD_IS_DYNAMIC) || (f->flags & TEP_FIELD_IS_RELATIVE) ||
		    f->size != 4)
			return -1;
		s->kind = STEP_STR_DYN;
		tp_field_init(&s->loc, f);
	} else if (a->type == TEP_PRINT_FIELD) {
		f = a->field.field ? a->field.field : tep_find_any_field(ev, a->field.name);
		/* non-array fields of long size are printed as pointers: not here */
		if (!f || !(f->flags & TEP_FIELD_IS_ARRAY) || (f->flags & TEP_FIELD_IS_DYNAMIC) ||
		    f->size <= 0)
			return -1;
		s->kind = STEP_STR_ARRAY;
	} else {
		return -1;
	}
	s->offset = f->offset;
	s->size = f->size;
	return 0;
}

/* One conversion at @f ('%'), taking *@arg. Returns bytes consumed or 0. */
static size_t conversion(struct tpf_prog *p, struct tep_event *ev, const char *f,
			 struct tep_print_arg **arg)
{
	struct step s = { .kind = STEP_INT };
	size_t i = 1;
	int ls = 0, h = 0, l = 0;

	for (;; i++) {
		char c = f[i];

		if (c == '-')
			s.left = 1;
		else if (c == '0' && s.width == 0)
			s.zero = 1;
		else if (c >= '0' && c <= '9')
			s.width = s.width * 10 + (c - '0');
		else
			break;
		if (s.width > 64)
			return 0;
	}
	for (;; i++) {
		if (f[i] == 'h') {
			ls--;
			h++;
		} else if (f[i] == 'l') {
			ls++;
			l++;
		} else {
			break;
		}
	}
	if (!*arg || (h && l) || h > 2 || l > 2)
		return 0;
	switch (f[i]) {
	case 'd': case 'i': case 'u': case 'x': case 'X': case 'o':
		if (numeric_place(ev, *arg, &s.offset, &s.size))
			return 0;
		s.bits = ls == -2 ? 8 : ls == -1 ? 16 : ls == 0 ? 32 : 64;
		s.is_signed = f[i] == 'd' || f[i] == 'i';
		s.base = f[i] == 'o' ? 8 : (f[i] == 'x' || f[i] == 'X') ? 16 : 10;
		s.upper = f[i] == 'X';
		break;
	case 's':
		if (ls || string_place(ev, *arg, &s))
			return 0;
		s.zero = 0;
		break;
	default:
		return 0;   /* %p, %c, '*', '.', '#', ' ', '+', 'z', 'L'...: libtraceevent */
	}
	if (add_step(p, &s))
		return 0;
	*arg = (*arg)->next;
	return i + 1;
}

/* the fused step of number step @s (NULL: none) after literal @lit */
static void fuse_one(struct fused *f, const struct step *lit, const struct step *s)
{
	memset(f, 0, sizeof(*f));
	if (lit) {
		memcpy(f->lit, lit->lit, lit->lit_len);
		f->lit_len = (uint8_t)lit->lit_len;
	}
	if (!s)
		return;
	f->size = (uint8_t)s->size;
	f->offset = s->offset;
	f->s = s;
	f->mask = s->bits == 64 ? ~0ULL : (1ULL << s->bits) - 1;
	f->sign_bit = 1ULL << (s->bits - 1);
	f->is_signed = (uint8_t)s->is_signed;
	if (s->width == 0 && s->base == 16 && !s->upper && !s->is_signed)
		f->conv = CONV_HEX;
	else if (s->width == 0 && s->base == 10)
		f->conv = CONV_DEC;
	else
		f->conv = CONV_OTHER;
}

/* Fused steps for a program of numbers and short literals, none for
 * others; -1 when out of memory. */
static int fuse(struct tpf_prog *p)
{
	const struct step *lit = NULL;
	size_t n = 0;

	for (size_t i = 0; i < p->nr; i++) {
		const struct step *s = &p->steps[i];

		if (s->kind == STEP_LIT ? s->lit_len > LIT_COPY || lit : s->kind != STEP_INT)
			return 0;
		lit = s->kind == STEP_LIT ? s : NULL;
		n += s->kind == STEP_INT || i + 1 == p->nr;
	}
	if (n == 0 || !(p->fused = calloc(n, sizeof(*p->fused))))
		return n ? -1 : 0;
	lit = NULL;
	for (size_t i = 0; i < p->nr; i++) {
		const struct step *s = &p->steps[i];

		if (s->kind == STEP_LIT && i + 1 < p->nr) {
			lit = s;
			continue;
		}
		fuse_one(&p->fused[p->nr_fused++], s->kind == STEP_LIT ? s : lit,
			 s->kind == STEP_INT ? s : NULL);
		if (s->kind == STEP_INT && s->offset + s->size > p->min_size)
			p->min_size = s->offset + s->size;
		lit = NULL;
	}
	return 0;
}

struct tpf_prog *tpf_compile(struct tep_event *ev)
{
	struct tpf_prog *p;
	struct tep_print_arg *arg;
	const char *f;
	int err = 0;

	if (!ev || !ev->print_fmt.format || ev->handler ||
	    (ev->flags & (TEP_EVENT_FL_FAILED | TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW)))
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	/* numbers in the recording's byte order, as libtraceevent reads them */
	p->swap = tep_is_file_bigendian(ev->tep) != tep_is_local_bigendian(ev->tep);
	arg = ev->print_fmt.args;
	f = ev->print_fmt.format;
	while (*f) {
		size_t n = *f == '%' && f[1] != '%' ? conversion(p, ev, f, &arg) : literal(p, f, &err);

		if (n == 0 || err) {
			tpf_free(p);
			return NULL;
		}
		f += n;
	}
	if (fuse(p) < 0) {
		tpf_free(p);
		return NULL;
	}
	return p;
}

void tpf_free(struct tpf_prog *p)
{
	if (!p)
		return;
	free(p->fused);
	for (size_t i = 0; i < p->nr; i++)
		free(p->steps[i].lit);
	free(p->steps);
	free(p);
}

/* Pad @len bytes of @src to the step's width into @out. */
static size_t put_padded(char *out, const char *src, size_t len, const struct step *s,
			 int negative)
{
	size_t w = (size_t)s->width, n = 0;

	if (len >= w || s->left) {
		memcpy(out, src, len);
		n = len;
		while (n < w)
			out[n++] = ' ';
		return n;
	}
	if (s->zero && s->kind == STEP_INT) {
		/* zeros go after the sign */
		if (negative) {
			out[n++] = '-';
			src++;
			len--;
			w--;
		}
		memset(out + n, '0', w - len);
	} else {
		memset(out, ' ', w - len);
	}
	n += w - len;
	memcpy(out + n, src, len);
	return n + len;
}

static size_t put_int(char *out, uint64_t raw, const struct step *s)
{
	static const char lo[] = "0123456789abcdef", up[] = "0123456789ABCDEF";
	const char *digits = s->upper ? up : lo;
	/* the digits end at tmp + INT_END (at most 22, octal, and a sign);
	 * the bytes after it let a block of INT_END bytes be copied */
	enum { INT_END = 24 };
	char tmp[2 * INT_END];
	int pos = INT_END;
	uint64_t mask = s->bits == 64 ? ~0ULL : (1ULL << s->bits) - 1;
	uint64_t v = raw & mask;
	int negative = 0;

	if (s->is_signed && s->bits < 64 && (v >> (s->bits - 1)) & 1)
		v |= ~mask;                      /* sign-extend, as the C cast does */
	if (s->is_signed && (int64_t)v < 0) {
		negative = 1;
		v = (uint64_t)0 - v;
	}
	/* by the base's own shift or constant: no division by a variable */
	if (s->base == 16) {
		do
			tmp[--pos] = digits[v & 15];
		while ((v >>= 4) != 0);
	} else if (s->base == 8) {
		do
			tmp[--pos] = (char)('0' + (v & 7));
		while ((v >>= 3) != 0);
	} else {
		do
			tmp[--pos] = (char)('0' + v % 10);
		while ((v /= 10) != 0);
	}
	if (negative)
		tmp[--pos] = '-';
	if (s->width <= INT_END - pos) {
		memcpy(out, tmp + pos, INT_END);     /* one block: @out has room */
		return (size_t)(INT_END - pos);
	}
	return put_padded(out, tmp + pos, (size_t)(INT_END - pos), s, negative);
}

/* @v in hex at @o, digit pairs at a time; returns the end */
static char *put_hex(char *o, uint64_t v)
{
	const char *pairs = tb_hex_pairs;
	/* (bits + 3) / 4 digits, bits = 64 - clz */
	char *end = o + ((67 - (unsigned)__builtin_clzll(v | 1)) >> 2), *q = end;

	while (q - o >= 2) {
		q -= 2;
		memcpy(q, pairs + 2 * (v & 255), 2);
		v >>= 8;
	}
	if (q > o)
		*--q = "0123456789abcdef"[v & 15];
	return end;
}

/* @v in decimal at @o, digit pairs at a time; returns the end */
static char *put_dec(char *o, uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ull, 10ull, 100ull, 1000ull, 10000ull, 100000ull, 1000000ull, 10000000ull,
		100000000ull, 1000000000ull, 10000000000ull, 100000000000ull,
		1000000000000ull, 10000000000000ull, 100000000000000ull,
		1000000000000000ull, 10000000000000000ull, 100000000000000000ull,
		1000000000000000000ull, 10000000000000000000ull,
	};
	/* bits * log10(2) digits, one more when at or past that power of ten */
	unsigned t = ((64 - (unsigned)__builtin_clzll(v | 1)) * 1233) >> 12;
	char *end = o + t + ((v | 1) >= pow10[t]);

	tb_dec_before(end, v);
	return end;
}

/* the fused steps (room and record size checked by the caller) */
static size_t render_fused(const struct tpf_prog *p, const unsigned char *data, char *buf)
{
	const struct fused *f = p->fused, *end = f + p->nr_fused;
	char *o = buf;

	for (; f < end; f++) {
		uint64_t v;

		memcpy(o, f->lit, LIT_COPY);     /* one block, no call */
		o += f->lit_len;
		if (f->conv == CONV_NONE)
			continue;
		v = tp_load(data + f->offset, f->size, 0, p->swap) & f->mask;
		if (f->conv == CONV_HEX) {
			o = put_hex(o, v);
		} else if (f->conv == CONV_DEC) {
			if (f->is_signed && (v & f->sign_bit)) {
				*o++ = '-';
				v = (uint64_t)0 - (v | ~f->mask);   /* sign-extended, negated */
			}
			o = put_dec(o, v);
		} else {
			o += put_int(o, v, f->s);
		}
	}
	return (size_t)(o - buf);
}

int tpf_render(const struct tpf_prog *p, const unsigned char *data, int size,
	       char *buf, size_t cap)
{
	size_t n = 0;

	if (p->fused && size >= p->min_size && cap / FUSED_OUT >= p->nr_fused)
		return (int)render_fused(p, data, buf);

	for (size_t i = 0; i < p->nr; i++) {
		const struct step *s = &p->steps[i];
		const char *str;
		size_t len, need;

		switch (s->kind) {
		case STEP_LIT:
			if (s->lit_len <= LIT_COPY && cap - n >= LIT_COPY) {
				memcpy(buf + n, s->lit, LIT_COPY);   /* one block, no call */
			} else {
				if (cap - n < s->lit_len)
					return -1;
				memcpy(buf + n, s->lit, s->lit_len);
			}
			n += s->lit_len;
			continue;
		case STEP_INT:
			if (s->offset < 0 || s->offset + s->size > size || cap - n < 96)
				return -1;
			n += put_int(buf + n, tp_load(data + s->offset, s->size, 0, p->swap), s);
			continue;
		case STEP_STR_ARRAY:
			if (s->offset < 0 || s->offset + s->size > size)
				return -1;
			str = (const char *)data + s->offset;
			len = strnlen(str, (size_t)s->size);
			if (len == (size_t)s->size)
				return -1;       /* no NUL: libtraceevent copes */
			break;
		case STEP_STR_DYN: {
			uint32_t o, l;

			if (tp_dataloc(&s->loc, data, (size_t)size, &o, &l))
				return -1;
			if (l == 0)
				continue;        /* libtraceevent prints nothing */
			str = (const char *)data + o;
			len = strnlen(str, l);
			if (len == l)
				return -1;
			break;
		}
		default:
			return -1;
		}
		need = len > (size_t)s->width ? len : (size_t)s->width;
		if (cap - n < need)
			return -1;
		n += put_padded(buf + n, str, len, s, 0);
	}
	return (int)n;
}
