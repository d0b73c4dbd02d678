/* utf8.h - bytes from a recording made valid UTF-8 before a picture or a
 * folded line shows them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PIC_UTF8_H
#define PIC_UTF8_H

#include <stddef.h>

/** utf8_seq - the length of the valid UTF-8 sequence at @p (@n bytes left), 0 if none */
size_t utf8_seq(const unsigned char *p, size_t n);
/** utf8_valid - whether @p's @n bytes are valid UTF-8 */
int utf8_valid(const char *p, size_t n);
/**
 * utf8_clean - @p's @n bytes into @out as valid UTF-8: each byte that
 * starts no valid sequence, and each NUL, becomes U+FFFD; at most @max
 * bytes written (whole characters; @out holds @max + 1). Returns the
 * bytes written; @out is NUL-terminated.
 */
size_t utf8_clean(const char *p, size_t n, char *out, size_t max);

#endif
