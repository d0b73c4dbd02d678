/* pd_compressed.c - PERF_RECORD_COMPRESSED: decompress zstd record streams
 * (perf record -z) and write them. Layout and bound: pd_compressed.h. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>
#include "perfdata/pd_compressed.h"
#include "perfdata/pd_format.h"

#define FIRST_CAP   (256u << 10)
#define REC_PAYLOAD (65535u - PD_EVENT_HEADER)   /* header.size is a u16 */
/* the input one record takes: flushed, its compressed form (at most
 * ZSTD_compressBound, 32 KiB and some 140 bytes) ends in the record, so
 * every record decompresses to something, which perf requires of each */
#define REC_INPUT (32u << 10)

/* ---- reading ---- */

void pd_decomp_init(struct pd_decomp *d, uint64_t mmap_len)
{
	memset(d, 0, sizeof(*d));
	d->limit = mmap_len && mmap_len < PD_DECOMP_MAX ? (size_t)mmap_len : PD_DECOMP_MAX;
}

void pd_decomp_free(struct pd_decomp *d)
{
	ZSTD_freeDStream(d->dstream);
	free(d->buf);
	memset(d, 0, sizeof(*d));
}

size_t pd_decomp_pending(const struct pd_decomp *d)
{
	return d->len - d->head;
}

/* Room for at least one more byte, never more than @most in all. */
static int grow(struct pd_decomp *d, size_t most)
{
	size_t cap = d->cap ? d->cap * 2 : FIRST_CAP;
	unsigned char *n;

	if (cap > most)
		cap = most;
	if (cap <= d->len)
		return -1;
	n = realloc(d->buf, cap);
	if (!n)
		return -1;
	d->buf = n;
	d->cap = cap;
	return 0;
}

int pd_decomp_feed(struct pd_decomp *d, const unsigned char *src, size_t n, uint64_t off,
		   struct tb_err *err)
{
	ZSTD_inBuffer in = { src, n, 0 };
	size_t start, most;

	if (!d->dstream) {
		d->dstream = ZSTD_createDStream();
		if (!d->dstream || ZSTD_isError(ZSTD_initDStream(d->dstream)))
			return tb_err_set(err, TB_ERR_NOMEM, off, "cannot start a zstd stream");
	}
	/* keep only the carried tail, at the front */
	if (d->head)
		memmove(d->buf, d->buf + d->head, d->len - d->head);
	d->len -= d->head;
	d->head = 0;
	start = d->len;
	/* one byte past the bound tells "more than the bound" from "exactly" */
	most = start + d->limit + 1;
	while (in.pos < in.size || d->len == d->cap) {
		ZSTD_outBuffer out;
		size_t before_in = in.pos, r;

		if (d->len == d->cap && grow(d, most)) {
			if (d->cap >= most)
				return tb_err_set(err, TB_ERR_FORMAT, off,
						  "COMPRESSED record of %zu bytes decompresses to more "
						  "than %zu bytes (the recording's mmap_len bound)",
						  n + PD_EVENT_HEADER, d->limit);
			return tb_err_set(err, TB_ERR_NOMEM, off,
					  "no memory to decompress a COMPRESSED record");
		}
		out = (ZSTD_outBuffer){ d->buf + d->len, d->cap - d->len, 0 };
		r = ZSTD_decompressStream(d->dstream, &out, &in);
		if (ZSTD_isError(r))
			return tb_err_set(err, TB_ERR_FORMAT, off,
					  "COMPRESSED record of %zu bytes: zstd: %s",
					  n + PD_EVENT_HEADER, ZSTD_getErrorName(r));
		d->len += out.pos;
		if (d->len - start > d->limit)
			return tb_err_set(err, TB_ERR_FORMAT, off,
					  "COMPRESSED record of %zu bytes decompresses to more "
					  "than %zu bytes (the recording's mmap_len bound)",
					  n + PD_EVENT_HEADER, d->limit);
		/* all input taken and the output not full: the decoder is done */
		if (in.pos == in.size && out.pos < out.size)
			break;
		if (in.pos == before_in && out.pos == 0 && d->len < d->cap)
			return tb_err_set(err, TB_ERR_FORMAT, off,
					  "COMPRESSED record: zstd makes no progress");
	}
	/* perf 6.1 stops at such a record ("Couldn't decompress data"): a
	 * damaged block header asks for bytes the records after it hold */
	if (d->len == start)
		return tb_err_set(err, TB_ERR_FORMAT, off,
				  "COMPRESSED record of %zu bytes decompresses to nothing",
				  n + PD_EVENT_HEADER);
	return 0;
}

int pd_decomp_next(struct pd_decomp *d, const unsigned char **rec, size_t *size, uint64_t off,
		   struct tb_err *err)
{
	size_t left = d->len - d->head;
	uint32_t type;
	uint16_t sz;

	if (left < PD_EVENT_HEADER)
		return 0;
	sz = pd_u16(d->buf + d->head + 6);
	type = pd_u32(d->buf + d->head);
	if (d->swapped) {
		sz = __builtin_bswap16(sz);
		type = __builtin_bswap32(type);
	}
	if (sz < PD_EVENT_HEADER)
		return tb_err_set(err, TB_ERR_FORMAT, off,
				  "COMPRESSED record: the record at byte %zu of its decompressed "
				  "data (type %u) has size %u, smaller than its header", d->head,
				  type, sz);
	if (sz > left)
		return 0;
	*rec = d->buf + d->head;
	*size = sz;
	d->head += sz;
	return 1;
}

/* ---- writing ---- */

int pd_comp_init(struct pd_comp *c, int level, struct tb_err *err)
{
	memset(c, 0, sizeof(*c));
	c->level = level;
	c->cstream = ZSTD_createCStream();
	if (!c->cstream)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "cannot start a zstd stream");
	if (ZSTD_isError(ZSTD_initCStream(c->cstream, level))) {
		pd_comp_free(c);
		return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "zstd refuses level %d", level);
	}
	return 0;
}

void pd_comp_free(struct pd_comp *c)
{
	ZSTD_freeCStream(c->cstream);
	c->cstream = NULL;
}

/* One COMPRESSED record: up to REC_INPUT bytes of @in compressed and
 * flushed into it (or, with @in NULL, a flush). Returns zstd's result (0:
 * all flushed), or an error code via ZSTD_isError. */
static size_t one_record(struct pd_comp *c, ZSTD_inBuffer *in, struct bytebuf *out, int *oom)
{
	unsigned char rec[PD_EVENT_HEADER + REC_PAYLOAD];
	ZSTD_outBuffer o = { rec + PD_EVENT_HEADER, REC_PAYLOAD, 0 };
	uint32_t type = PD_REC_COMPRESSED;
	uint16_t misc = 0, size;
	size_t r;

	if (in) {
		ZSTD_inBuffer part = { in->src, in->size - in->pos > REC_INPUT ? in->pos + REC_INPUT :
					in->size, in->pos };

		r = ZSTD_compressStream2(c->cstream, &o, &part, ZSTD_e_flush);
		in->pos = part.pos;
	} else {
		r = ZSTD_flushStream(c->cstream, &o);
	}
	if (ZSTD_isError(r) || o.pos == 0)
		return r;
	size = (uint16_t)(PD_EVENT_HEADER + o.pos);
	memcpy(rec, &type, 4);
	memcpy(rec + 4, &misc, 2);
	memcpy(rec + 6, &size, 2);
	bb_put(out, rec, size);
	*oom = out->oom;
	c->bytes_out += size;
	return r;
}

int pd_comp_records(struct pd_comp *c, const void *src, size_t n, struct bytebuf *out,
		    struct tb_err *err)
{
	ZSTD_inBuffer in = { src, n, 0 };
	int oom = 0;
	size_t r;

	while (in.pos < in.size) {
		r = one_record(c, &in, out, &oom);
		if (ZSTD_isError(r))
			return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "zstd: %s",
					  ZSTD_getErrorName(r));
		if (oom)
			return TB_ERR_NOMEM;
	}
	do {
		r = one_record(c, NULL, out, &oom);
		if (ZSTD_isError(r))
			return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "zstd: %s",
					  ZSTD_getErrorName(r));
		if (oom)
			return TB_ERR_NOMEM;
	} while (r != 0);
	c->bytes_in += n;
	return 0;
}

void pd_comp_feature(unsigned char out[PD_COMP_FEATURE_SIZE], const struct pd_comp *c,
		     uint32_t mmap_len)
{
	/* perf 6.1 writes version 0 and the ratio rounded to the nearest */
	uint32_t v[5] = { 0, PD_COMP_ZSTD, (uint32_t)c->level,
			  c->bytes_out ? (uint32_t)((double)c->bytes_in / (double)c->bytes_out + 0.5) : 0,
			  mmap_len };

	memcpy(out, v, sizeof(v));
}
