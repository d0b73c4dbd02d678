/* report_out.h - trace-report's output buffer: text goes to a fixed buffer
 * that is written out when full, with printf-free number formatting. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_OUT_H
#define REPORT_OUT_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "report/report_state.h"

#define RO_SIZE (1u << 16)
#define RO_ITEM 256       /* room every ro_ call below may use without asking */

static inline void ro_flush(struct report_print *p)
{
	if (p->pos > p->buf)
		fwrite(p->buf, 1, (size_t)(p->pos - p->buf), p->out);
	p->pos = p->buf;
	p->flushes++;
}

/* make room for @n bytes */
static inline void ro_room(struct report_print *p, size_t n)
{
	if ((size_t)(p->end - p->pos) < n)
		ro_flush(p);
}

static inline void ro_mem(struct report_print *p, const char *s, size_t n)
{
	if (n > RO_SIZE / 2) {
		ro_flush(p);
		fwrite(s, 1, n, p->out);
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
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char *p = end;

	while (v >= 100) {
		p -= 2;
		memcpy(p, pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return (size_t)(end - p);
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
		static const char pairs[] =
			"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
			"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
			"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
			"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
			"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
			"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
			"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
			"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

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
