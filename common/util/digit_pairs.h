/* digit_pairs.h - the tables of two digits that number formatting writes a pair at a time from. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef UTIL_DIGIT_PAIRS_H
#define UTIL_DIGIT_PAIRS_H

#include <stdint.h>
#include <string.h>

/* "00" to "99": the pair of n (< 100) at 2 * n */
extern const char tb_dec_pairs[201];
/* "00" to "ff" (lower case): the pair of n (< 256) at 2 * n */
extern const char tb_hex_pairs[513];

/** tb_dec_before - @v in decimal, its last digit just before @end, two
 * digits a step: where its first digit is */
static inline char *tb_dec_before(char *end, uint64_t v)
{
	char *p = end;

	while (v >= 100) {
		p -= 2;
		memcpy(p, tb_dec_pairs + 2 * (v % 100), 2);
		v /= 100;
	}
	if (v >= 10) {
		p -= 2;
		memcpy(p, tb_dec_pairs + 2 * v, 2);
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

#endif
