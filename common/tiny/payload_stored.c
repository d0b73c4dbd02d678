/* payload_stored.c - payload_inflate for builds without zlib (make tiny):
 * their payload is written stored (gen-payload.py --store), so a
 * compressed entry is refused as a bad archive. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "util/payload.h"

int payload_inflate(const unsigned char *src, size_t n, unsigned char *dst, size_t size)
{
	(void)src, (void)n, (void)dst, (void)size;
	return -1;
}
