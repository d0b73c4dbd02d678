/* utf8.c - UTF-8 validation and repair for names shown in pictures. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "pictures/utf8.h"

size_t utf8_seq(const unsigned char *p, size_t n)
{
	unsigned c = p[0];
	size_t len;
	unsigned lo = 0x80, hi = 0xbf;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, lo = c == 0xe0 ? 0xa0 : 0x80, hi = c == 0xed ? 0x9f : 0xbf;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, lo = c == 0xf0 ? 0x90 : 0x80, hi = c == 0xf4 ? 0x8f : 0xbf;
	else
		return 0;
	if (n < len || p[1] < lo || p[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	return len;
}

int utf8_valid(const char *p, size_t n)
{
	const unsigned char *u = (const unsigned char *)p;

	for (size_t i = 0, k; i < n; i += k)
		if (!(k = utf8_seq(u + i, n - i)))
			return 0;
	return 1;
}

size_t utf8_clean(const char *p, size_t n, char *out, size_t max)
{
	const unsigned char *u = (const unsigned char *)p;
	size_t o = 0, k;

	for (size_t i = 0; i < n; i += k ? k : 1) {
		k = u[i] ? utf8_seq(u + i, n - i) : 0;
		if ((k ? k : 3) + o > max)
			break;
		if (k) {
			memcpy(out + o, p + i, k);
			o += k;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
		}
	}
	out[o] = 0;
	return o;
}
