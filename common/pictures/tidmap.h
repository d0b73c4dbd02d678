/* tidmap.h - per-thread state of a picture: a hash of thread ids (any
 * 32-bit value a recording holds) to zero-initialised slots. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TIDMAP_H
#define TIDMAP_H

#include <stddef.h>
#include <stdint.h>

struct tidmap {
	unsigned char *slots;      /* cap entries: a uint32 key + 1 (0: empty), then the value */
	size_t cap, nr, elem, stride;
};

/** tidmap_init - an empty map of @elem-byte values */
void tidmap_init(struct tidmap *m, size_t elem);
/**
 * tidmap_get - the value of @tid: made (zeroed) when missing and @create,
 * else NULL; NULL too when out of memory. Valid until the next call that
 * creates.
 */
void *tidmap_get(struct tidmap *m, uint32_t tid, int create);
/** tidmap_each - the value of slot @i (< cap) and its tid, NULL when empty */
void *tidmap_each(const struct tidmap *m, size_t i, uint32_t *tid);
void tidmap_free(struct tidmap *m);

#endif
