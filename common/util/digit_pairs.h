/* digit_pairs.h - the tables of two digits that number formatting writes a pair at a time from. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef UTIL_DIGIT_PAIRS_H
#define UTIL_DIGIT_PAIRS_H

/* "00" to "99": the pair of n (< 100) at 2 * n */
extern const char tb_dec_pairs[201];
/* "00" to "ff" (lower case): the pair of n (< 256) at 2 * n */
extern const char tb_hex_pairs[513];

#endif
