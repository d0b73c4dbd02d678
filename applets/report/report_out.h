/* report_out.h - trace-report's output buffer: text goes to a fixed buffer
 * that is written out when full, with printf-free number formatting. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_OUT_H
#define REPORT_OUT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "report/report_state.h"
#include "util/digit_pairs.h"

#define RO_SIZE (1u << 16)
#define RO_ITEM 256       /* room every ro_ call below may use without asking */

void ro_write(FILE *out, const char *s, size_t n);
/** ro_out - @n bytes to the output: the hold while there is one, else the file */
void ro_out(struct report_print *p, const char *s, size_t n);

static inline void ro_flush(struct report_print *p)
{
	if (p->pos > p->buf)
		ro_out(p, p->buf, (size_t)(p->pos - p->buf));
	p->pos = p->buf;
	p->flushes++;
}

/* make room for @n bytes */
static inline void ro_room(struct report_print *p, size_t n)
{
	if ((size_t)(p->end - p->pos) < n)
		ro_flush(p);
}

/*
 * A piece of a line kept to be copied again (a stack frame's line, a
 * thread's comm and pid): ro_keep_begin before printing it, ro_keep_end
 * after, which copies what was printed to @keep when the buffer was not
 * flushed meanwhile and it fits in @cap bytes.
 */
static inline char *ro_keep_begin(struct report_print *p, unsigned long *flushes)
{
	ro_room(p, RO_ITEM);
	*flushes = p->flushes;
	return p->pos;
}

/* the piece's length, 0 when not kept */
static inline size_t ro_keep_end(const struct report_print *p, const char *start,
				 unsigned long flushes, char *keep, size_t cap)
{
	size_t n = (size_t)(p->pos - start);

	if (p->flushes != flushes || n > cap)
		return 0;
	memcpy(keep, start, n);
	return n;
}

static inline void ro_mem(struct report_print *p, const char *s, size_t n)
{
	if (n > RO_SIZE / 2) {
		ro_flush(p);
		ro_out(p, s, n);
		return;
	}
	ro_room(p, n);
	memcpy(p->pos, s, n);
	p->pos += n;
}

static inline void ro_str(struct report_print *p, const char *s)
{
	ro_mem(p, s, strlen(s));
}

static inline void ro_ch(struct report_print *p, char c)
{
	ro_room(p, 1);
	*p->pos++ = c;
}

static inline void ro_pad(struct report_print *p, size_t n)
{
	ro_room(p, n);
	memset(p->pos, ' ', n);
	p->pos += n;
}

/* %*s: @s right-aligned in @width */
static inline void ro_right(struct report_print *p, const char *s, size_t width)
{
	size_t n = strlen(s);

	if (n < width)
		ro_pad(p, width - n);
	ro_mem(p, s, n);
}

/* %-*s */
static inline void ro_left(struct report_print *p, const char *s, size_t width)
{
	size_t n = strlen(s);

	ro_mem(p, s, n);
	if (n < width)
		ro_pad(p, width - n);
}

/* @v in decimal, its last digit just before @end (two digits a step):
 * the count of digits */
static inline size_t ro_dec(char *end, uint64_t v)
{
	return (size_t)(end - tb_dec_before(end, v));
}

/* The digits of a number end at tmp + RO_NUM (at most 20 and a sign); the
 * RO_NUM bytes after it let the number go out as one block of RO_NUM bytes,
 * a copy of constant size (no call), the buffer having room for it. */
#define RO_NUM 24

/* @n bytes ending at @end, copied as one block of RO_NUM */
static inline void ro_num_out(struct report_print *p, const char *end, size_t n)
{
	memcpy(p->pos, end - n, RO_NUM);
	p->pos += n;
}

/* unsigned in base 10 or 16, right-aligned in @width with @pad */
static inline void ro_unum(struct report_print *p, uint64_t v, unsigned base, size_t width,
			   char pad)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[2 * RO_NUM];
	size_t n = 0;

	if (base == 16) {
		const char *pairs = tb_hex_pairs;

		while (v > 15) {          /* two digits a step */
			n += 2;
			memcpy(tmp + RO_NUM - n, pairs + 2 * (v & 255), 2);
			v >>= 8;
		}
		if (v || !n)
			tmp[RO_NUM - ++n] = digits[v];
	} else {
		n = ro_dec(tmp + RO_NUM, v);
	}
	ro_room(p, RO_NUM + width);
	while (n < width--)
		*p->pos++ = pad;
	ro_num_out(p, tmp + RO_NUM, n);
}

/* signed decimal, right-aligned with spaces (%*d) or zeros (%0*d) */
static inline void ro_snum(struct report_print *p, int64_t v, size_t width, char pad)
{
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;

	if (v >= 0) {
		ro_unum(p, u, 10, width, pad);
		return;
	}
	if (pad == '0') {            /* the sign goes before zero padding */
		ro_ch(p, '-');
		ro_unum(p, u, 10, width ? width - 1 : 0, '0');
		return;
	}
	char tmp[2 * RO_NUM];
	size_t n = ro_dec(tmp + RO_NUM, u);

	tmp[RO_NUM - ++n] = '-';
	ro_room(p, RO_NUM + width);
	while (n < width--)
		*p->pos++ = ' ';
	ro_num_out(p, tmp + RO_NUM, n);
}

/* printf into the buffer (the rare fields) */
void ro_printf(struct report_print *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* perf's "%s" of a symbol: its name and, asked for, "+0x<off>"; or [unknown] */
static inline void ro_sym(struct report_print *p, const struct rp_loc *l, int offsets)
{
	if (!l->sym) {
		ro_mem(p, "[unknown]", 9);
		return;
	}
	ro_str(p, l->sym);
	if (offsets) {
		ro_mem(p, "+0x", 3);
		ro_unum(p, l->symoff, 16, 0, ' ');
	}
}

#endif
