/* payload_zlib.c - payload_inflate with zlib (the full build links zlib
 * for Python anyway); the tiny build links common/tiny/payload_stored.c. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <zlib.h>
#include "util/payload.h"

int payload_inflate(const unsigned char *src, size_t n, unsigned char *dst, size_t size)
{
	uLongf out = (uLongf)size;

	return uncompress(dst, &out, src, (uLong)n) == Z_OK && out == size ? 0 : -1;
}
