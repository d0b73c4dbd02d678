/* bytebuf.h - a growing byte buffer for building payloads and records. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef BYTEBUF_H
#define BYTEBUF_H

#include <stddef.h>

/* Append with bb_put; after any failed allocation @oom stays set and
 * further puts do nothing, so callers check once at the end. */
struct bytebuf {
	unsigned char *p;
	size_t len, cap;
	int oom;
};

void bb_put(struct bytebuf *b, const void *data, size_t n);
void bb_free(struct bytebuf *b);

#endif
