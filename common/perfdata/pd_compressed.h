/* pd_compressed.h - PERF_RECORD_COMPRESSED (perf record -z): one zstd stream
 * cut into records, read back into the records it holds, and written. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_COMPRESSED_H
#define PD_COMPRESSED_H

#include <stddef.h>
#include <stdint.h>
#include "util/bytebuf.h"
#include "util/tb_err.h"

/*
 * The layout (perf 6.1 builtin-record.c zstd_compress, session.c
 * perf_session__process_compressed_event): a COMPRESSED record is the
 * 8-byte header and a piece of ONE zstd stream that runs through the whole
 * recording; the pieces decompress, in file order, to ordinary records. A
 * record may straddle two COMPRESSED records: the reader carries the tail
 * it could not use over to the next one, as perf does.
 *
 * Bound: one COMPRESSED record may decompress to at most the HEADER_COMPRESSED
 * feature's mmap_len (perf sizes its buffer so), and never to more than
 * PD_DECOMP_MAX; a frame that wants more is refused, so a hostile 64 KiB
 * record costs at most PD_DECOMP_MAX + 64 KiB of memory.
 */
#define PD_DECOMP_MAX   (64u << 20)
#define PD_COMP_ZSTD    1              /* HEADER_COMPRESSED type (PERF_COMP_ZSTD) */
#define PD_COMP_FEATURE_SIZE 20        /* 5 x u32: ver, type, level, ratio, mmap_len */

struct pd_decomp {
	void *dstream;                 /* ZSTD_DStream, created on the first record */
	unsigned char *buf;            /* buf[head..len): records not yet handed out */
	size_t cap, len, head;
	size_t limit;                  /* decompressed bytes one record may give */
	int swapped;                   /* the records are of the other byte order */
};

/*
 * Usage (reader):
 *   pd_decomp_init(&d, mmap_len);              0 = no feature: PD_DECOMP_MAX
 *   per COMPRESSED record:
 *       pd_decomp_feed(&d, payload, n, off, &err);
 *       while ((r = pd_decomp_next(&d, &rec, &size, off, &err)) == 1) use rec;
 *   pd_decomp_pending(&d)                      bytes of a record cut at the end
 *   pd_decomp_free(&d);
 * A record from pd_decomp_next stays valid until the next feed.
 */
void pd_decomp_init(struct pd_decomp *d, uint64_t mmap_len);
void pd_decomp_free(struct pd_decomp *d);

/**
 * pd_decomp_feed - decompress one COMPRESSED record's payload behind the carried tail
 * @src, @n: the bytes after the record's 8-byte header
 * @off: the record's offset, for messages
 * Returns 0, TB_ERR_FORMAT (zstd refused the bytes, or they decompress to
 * more than the bound, or to nothing, which perf refuses) or TB_ERR_NOMEM,
 * with @err set.
 */
int pd_decomp_feed(struct pd_decomp *d, const unsigned char *src, size_t n, uint64_t off,
		   struct tb_err *err);

/**
 * pd_decomp_next - the next whole record of the decompressed bytes
 * Returns 1 with @rec/@size set; 0 when what is left is shorter than its
 * header says (kept for the next feed); TB_ERR_FORMAT for a header.size
 * below 8, naming @off (the COMPRESSED record) and the position inside.
 */
int pd_decomp_next(struct pd_decomp *d, const unsigned char **rec, size_t *size, uint64_t off,
		   struct tb_err *err);

/** pd_decomp_pending - decompressed bytes not yet handed out */
size_t pd_decomp_pending(const struct pd_decomp *d);

/* Writer: the CStream and what went through it. */
struct pd_comp {
	void *cstream;                 /* ZSTD_CStream */
	int level;
	uint64_t bytes_in, bytes_out;  /* for the feature's ratio */
};

/*
 * Usage (writer):
 *   pd_comp_init(&c, level, &err);             level 1..22 as perf record -z
 *   per batch of whole records:
 *       pd_comp_records(&c, batch, n, &out, &err);   COMPRESSED records appended to out
 *       write out, then empty it
 *   pd_comp_feature(payload, &c, mmap_len);    the HEADER_COMPRESSED payload
 *   pd_comp_free(&c);
 * Each batch is flushed to the end, so the records of one batch need no
 * later batch to decompress; each COMPRESSED record is at most 65535 bytes.
 */
int pd_comp_init(struct pd_comp *c, int level, struct tb_err *err);
void pd_comp_free(struct pd_comp *c);

/**
 * pd_comp_records - compress @n bytes of whole records into COMPRESSED records
 * @out: the records are appended here
 * Returns 0, or TB_ERR_NOMEM / TB_ERR_FORMAT (zstd failed) with @err set.
 */
int pd_comp_records(struct pd_comp *c, const void *src, size_t n, struct bytebuf *out,
		    struct tb_err *err);

/** pd_comp_feature - HEADER_COMPRESSED payload (version 1, zstd, level,
 * ratio in/out rounded, @mmap_len) into @out (PD_COMP_FEATURE_SIZE bytes) */
void pd_comp_feature(unsigned char out[PD_COMP_FEATURE_SIZE], const struct pd_comp *c,
		     uint32_t mmap_len);

#endif
