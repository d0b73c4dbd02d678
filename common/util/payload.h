/* payload.h - the files tracebox carries inside itself (canned scripts,
 * Perf-Trace-Util, the interpreters' library modules), read by path. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PAYLOAD_H
#define PAYLOAD_H

#include <stddef.h>

/*
 * The payload is an archive linked into the binary as read-only data (an
 * ELF section, so it survives strip; build/gen/payload.c .incbin's it):
 * scripts/tools/gen-payload.py writes it. Its files have virtual paths
 * under PAYLOAD_ROOT, e.g. "<tracebox>/scripts/python/syscall-counts.py";
 * no file on disk has such a name, so a path says where it is read from.
 *
 * Layout (little-endian): "TBPAYLD1", u32 count, u32 0, then count entries
 * of 6 x u32 { name_off, name_len, data_off, size, stored, method } sorted
 * by name (bytes), then the names and the data; offsets from the start.
 * method 0: stored (stored == size); 1: a zlib stream of stored bytes.
 */
#define PAYLOAD_ROOT "<tracebox>"

/** payload_is - whether @path names a payload file ("<tracebox>/...") */
int payload_is(const char *path);

/**
 * payload_read - the bytes of payload file @path, NUL-terminated (not counted)
 * Returns 0 with *@data (free it) and *@len; -1 when the payload has no
 * such file; TB_ERR_NOMEM; TB_ERR_FORMAT when the archive or a stream is bad.
 */
int payload_read(const char *path, unsigned char **data, size_t *len);

/** payload_has - whether payload file @path exists */
int payload_has(const char *path);

/**
 * payload_list - call @fn with the name of every file directly in payload
 * folder @dir ("<tracebox>/scripts/python/bin"), in name order.
 * Returns the number of names given.
 */
long payload_list(const char *dir, void (*fn)(void *ctx, const char *name), void *ctx);

/** payload_size - the archive's bytes (0: this binary carries none) */
size_t payload_size(void);

/** vfile_readable - @path is a payload file, or a readable file on disk */
int vfile_readable(const char *path);

/**
 * vfile_read - the whole of @path, from the payload or the disk,
 * NUL-terminated (not counted). Returns 0 with *@data (free it) and *@len,
 * -1 (errno set) when it cannot be read, TB_ERR_NOMEM, TB_ERR_FORMAT.
 */
int vfile_read(const char *path, unsigned char **data, size_t *len);

/* The decompressor this build links: payload_zlib.c, or common/tiny/payload_stored.c.
 * Returns 0 when @src (@n bytes) inflates to exactly @size bytes at @dst. */
int payload_inflate(const unsigned char *src, size_t n, unsigned char *dst, size_t size);

#endif
