/* pd_open.c - opening a recording: the file-mode header, attrs, feature
 * sections and leading updates, or a pipe stream's header records
 * (perf-data-format.md sections 2-5); then symbols on request. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfdata/pd_records.h"
#include "perfdata/pd_session_int.h"
#include "perfdata/pd_swap.h"
#include "symbols/symbols.h"

#define MAX_TRACEDATA  (256u << 20)
#define MAX_FEATURE    (64u << 20)
#define INPUT_BUFFER   (256u << 10)    /* holds any record (64 KiB at most) */

/* The attrs section of the other byte order: each attr, then its ids
 * section {offset, size} right after attr.size bytes (read_attrs). */
static void swap_attrs(unsigned char *buf, uint64_t asize)
{
	uint64_t pos = 0;

	while (asize - pos >= PD_ATTR_SIZE_VER0) {
		uint32_t sz;

		pd_swap_attr(buf + pos, asize - pos);
		sz = pd_u32(buf + pos + PD_ATTR_OFF_SIZE);
		sz = sz ? sz : PD_ATTR_SIZE_VER0;
		if (sz > PD_ATTR_SIZE_LIMIT || asize - pos < sz || asize - pos - sz < 16)
			return;
		pd_swap_u64s(buf + pos + sz, 16);
		pos += sz + 16;
	}
}

static int read_attrs(struct pd_session *s, const unsigned char *hdr, struct tb_err *err)
{
	uint64_t attr_size = pd_u64(hdr + 16);
	uint64_t aoff = pd_u64(hdr + 24), asize = pd_u64(hdr + 32);
	unsigned char *buf;
	uint64_t pos = 0;
	int r = 0;

	if (attr_size == 0)
		return tb_err_set(err, TB_ERR_FORMAT, 16, "attr_size is 0");
	if (aoff > s->file_size || asize > s->file_size - aoff)
		return tb_err_set(err, TB_ERR_FORMAT, 24,
				  "attrs section [0x%llx, +0x%llx) lies outside the %llu-byte file",
				  (unsigned long long)aoff, (unsigned long long)asize,
				  (unsigned long long)s->file_size);
	if (asize == 0)
		return tb_err_set(err, TB_ERR_FORMAT, 32, "the file has no attrs");
	buf = malloc(asize);
	if (!buf)
		return TB_ERR_NOMEM;
	if ((r = pd_pread_all(s->fd, buf, asize, aoff, err)))
		goto out;
	if (s->swapped)
		swap_attrs(buf, asize);
	for (uint64_t k = 0; k < asize / attr_size; k++) {
		uint64_t ioff, isize, *ids = NULL;
		size_t alen;

		if (asize - pos < PD_ATTR_SIZE_VER0) {
			r = tb_err_set(err, TB_ERR_TRUNCATED, aoff + pos,
				       "attr %llu runs past the attrs section",
				       (unsigned long long)k);
			goto out;
		}
		/* the ids section follows attr.size bytes, whatever attr_size says */
		{
			uint32_t sz = pd_u32(buf + pos + PD_ATTR_OFF_SIZE);

			if (sz == 0)
				sz = PD_ATTR_SIZE_VER0;
			if (sz <= PD_ATTR_SIZE_LIMIT && (asize - pos < sz || asize - pos - sz < 16)) {
				r = tb_err_set(err, TB_ERR_TRUNCATED, aoff + pos,
					       "attr %llu and its ids section run past the attrs "
					       "section", (unsigned long long)k);
				goto out;
			}
			if (sz <= PD_ATTR_SIZE_LIMIT) {
				ioff = pd_u64(buf + pos + sz);
				isize = pd_u64(buf + pos + sz + 8);
			} else {
				ioff = isize = 0;
			}
		}
		if (ioff > s->file_size || isize > s->file_size - ioff || isize % 8) {
			r = tb_err_set(err, TB_ERR_FORMAT, aoff + pos,
				       "attr %llu ids section [0x%llx, +0x%llx) is not inside the file",
				       (unsigned long long)k, (unsigned long long)ioff,
				       (unsigned long long)isize);
			goto out;
		}
		if (isize) {
			ids = malloc(isize);
			if (!ids) {
				r = TB_ERR_NOMEM;
				goto out;
			}
			if ((r = pd_pread_all(s->fd, ids, isize, ioff, err))) {
				free(ids);
				goto out;
			}
			if (s->swapped)
				pd_swap_u64s(ids, isize);
		}
		r = pd_session_add_attr(s, buf + pos, asize - pos, aoff + pos, ids, isize / 8,
					&alen, err);
		free(ids);
		if (r)
			goto out;
		pos += alen + 16;
	}
out:
	free(buf);
	return r;
}

/* ---- tracing data and names ---- */

/* ---- file mode ---- */

/* Feature @feat's index entry at @at is damaged as @fmt says: the tracing
 * data is fatal, any other feature is lost alone. */
static int damaged_entry(struct pd_session *s, int feat, uint64_t at, struct tb_err *err,
			 const char *fmt, unsigned long long a, unsigned long long b)
{
	struct tb_err why = { 0 };
	char msg[200], buf[24];

	snprintf(msg, sizeof(msg), fmt, a, b, (unsigned long long)s->file_size);
	if (feat == PD_FEAT_TRACING_DATA)
		return tb_err_set(err, TB_ERR_TRUNCATED, at, "feature section tracing_data %s: "
				  "the tracepoint events cannot be decoded", msg);
	tb_err_set(&why, TB_ERR_TRUNCATED, at, "%s %s", pd_session_feat_label(feat, buf, sizeof(buf)), msg);
	pd_session_lose_feature(s, feat, &why);
	return 0;
}

static int read_features(struct pd_session *s, struct tb_err *err)
{
	uint64_t idx_off = s->data_offset + s->data_size;
	unsigned nr = 0, k = 0, whole;
	unsigned char *idx = NULL, *payload = NULL;
	int r = 0;

	for (int w = 0; w < 4; w++)
		nr += (unsigned)__builtin_popcountll(s->features[w]);
	if (nr == 0)
		return 0;
	/* a cut index keeps its whole entries */
	whole = idx_off >= s->file_size ? 0 :
		(unsigned)((s->file_size - idx_off) / 16 < nr ? (s->file_size - idx_off) / 16 : nr);
	idx = malloc((size_t)whole * 16 + 1);
	if (!idx)
		return TB_ERR_NOMEM;
	if ((r = pd_pread_all(s->fd, idx, (size_t)whole * 16, idx_off, err)))
		goto out;
	if (s->swapped)
		pd_swap_u64s(idx, (size_t)whole * 16);
	for (int feat = 0; feat < PD_FEAT_BITS && !r; feat++) {
		uint64_t off, size, at = idx_off + (uint64_t)k * 16;
		int want;

		if (!(s->features[feat / 64] & (1ULL << (feat % 64))))
			continue;
		if (k++ >= whole) {
			r = damaged_entry(s, feat, at, err, "has no index entry: the index at "
					  "0x%llx of %llu entries runs past the end of the %llu-byte "
					  "file", idx_off, nr);
			continue;
		}
		off = pd_u64(idx + (k - 1) * 16);
		size = pd_u64(idx + (k - 1) * 16 + 8);
		want = feat == PD_FEAT_TRACING_DATA || feat == PD_FEAT_BUILD_ID ||
		       pd_feature_name(feat) != NULL;
		if (!pd_feature_known(feat))      /* perf skips them too, silently */
			s->stats.skipped_features[feat / 64] |= 1ULL << (feat % 64);
		if (want && size > (feat == PD_FEAT_TRACING_DATA ? MAX_TRACEDATA : MAX_FEATURE) &&
		    off <= s->file_size && size <= s->file_size - off) {
			r = tb_err_set(err, TB_ERR_FORMAT, idx_off + (k - 1) * 16,
				       "feature %d section of %llu bytes is over the %u MiB this "
				       "reader accepts", feat, (unsigned long long)size,
				       (feat == PD_FEAT_TRACING_DATA ? MAX_TRACEDATA : MAX_FEATURE) >> 20);
			goto out;
		}
		/* every entry must lie in the file, read or not */
		if (off > s->file_size || size > s->file_size - off) {
			r = damaged_entry(s, feat, at, err, "section [0x%llx, +0x%llx) is not "
					  "inside the %llu-byte file", off, size);
			continue;
		}
		if (want && size > (feat == PD_FEAT_TRACING_DATA ? MAX_TRACEDATA : MAX_FEATURE)) {
			r = damaged_entry(s, feat, at, err, "section [0x%llx, +0x%llx) is too "
					  "big to be real (file of %llu bytes)", off, size);
			continue;
		}
		if (!want)
			continue;
		payload = malloc(size ? size : 1);
		if (!payload) {
			r = TB_ERR_NOMEM;
			goto out;
		}
		if ((r = pd_pread_all(s->fd, payload, size, off, err)))
			goto out;
		if (s->swapped)
			pd_swap_feature(feat, payload, size, s->info.nr_cpus_avail);
		if (feat == PD_FEAT_TRACING_DATA)
			r = pd_session_set_tracing_data(s, payload, size, off, err);
		else
			r = pd_session_feature(s, feat, payload, size, off, err);
		free(payload);
		payload = NULL;
	}
out:
	free(payload);
	free(idx);
	return r;
}

/* tracebox's syscall map rides in an EVENT_UPDATE among the first records
 * of the data (pd_writer.h); read it now, so that --header and the engines
 * have it before the first sample. Stops at the first sample. */
static int read_leading_updates(struct pd_session *s, struct tb_err *err)
{
	uint64_t off = s->data_offset, end = s->data_offset + s->data_size;
	unsigned char hdr[24], *buf;
	int r;

	for (int k = 0; k < 64 && end - off >= 8; k++) {
		uint16_t size;

		if ((r = pd_pread_all(s->fd, hdr, 8, off, err)))
			return r;
		if (s->swapped)
			pd_swap_record_header(hdr);
		size = pd_u16(hdr + 6);
		if (size < 8 || size > end - off || pd_u32(hdr) == PD_REC_SAMPLE)
			return 0;         /* the record reader says what is wrong */
		if (pd_u32(hdr) == PD_REC_EVENT_UPDATE && size >= 24 && !s->info.has_syscalls) {
			if ((r = pd_pread_all(s->fd, hdr, 24, off, err)))
				return r;
			if (s->swapped)
				pd_bswap64(hdr + 8);
			if (pd_u64(hdr + 8) == PD_EVENT_UPDATE_SYSCALL_MAP) {
				buf = malloc(size);
				if (!buf)
					return TB_ERR_NOMEM;
				r = pd_pread_all(s->fd, buf, size, off, err);
				if (!r && s->swapped)
					pd_swap_record(s, buf, size, buf);
				if (!r)
					r = pd_feature_parse(PD_FEAT_SYSCALL_MAP, buf + 24, size - 24U,
							     off + 24, &s->info, err);
				free(buf);
				return r;
			}
		}
		off += size;
	}
	return 0;
}

static int open_file_mode(struct pd_session *s, struct tb_err *err)
{
	unsigned char hdr[PD_FILE_HEADER_SIZE];
	uint64_t hsize;
	int r;

	memset(hdr, 0, sizeof(hdr));
	if ((r = pd_pread_all(s->fd, hdr, 16, 0, err)))
		return r;
	hsize = s->swapped ? __builtin_bswap64(pd_u64(hdr + 8)) : pd_u64(hdr + 8);
	if (hsize != PD_FILE_HEADER_SIZE && hsize != PD_FILE_HEADER_OLD)
		return tb_err_set(err, TB_ERR_FORMAT, 8,
				  "header size %llu is neither 104, 72 (file) nor 16 (pipe)",
				  (unsigned long long)hsize);
	if ((r = pd_pread_all(s->fd, hdr, hsize, 0, err)))
		return r;
	if (s->swapped)
		pd_swap_file_header(hdr, hsize);
	if (hsize == PD_FILE_HEADER_SIZE)
		for (int w = 0; w < 4; w++)
			s->features[w] = pd_u64(hdr + 72 + 8 * w);
	s->data_offset = pd_u64(hdr + 40);
	s->data_size = pd_u64(hdr + 48);
	if (s->data_offset > s->file_size || s->data_size > s->file_size - s->data_offset)
		return tb_err_set(err, TB_ERR_TRUNCATED, 40,
				  "data section [0x%llx, +0x%llx) runs past the end of the "
				  "%llu-byte file", (unsigned long long)s->data_offset,
				  (unsigned long long)s->data_size, (unsigned long long)s->file_size);
	if (s->data_size == 0)
		return tb_err_set(err, TB_ERR_FORMAT, 48,
				  "data size is 0 (the recording was not finished)");
	if ((r = read_attrs(s, hdr, err)))
		return r;
	/* EVENT_DESC names need the attrs; tracing data needs nothing else. */
	if ((r = read_features(s, err)) || (r = read_leading_updates(s, err)))
		return r;
	pd_session_resolve_names(s);
	if ((r = pd_session_check_formats(s, 72, err)))
		return r;
	return pd_in_seek(&s->in, s->data_offset, s->data_offset + s->data_size, err);
}

/* ---- opening ---- */

static int open_session(struct pd_session **out, const char *path, int fd, pd_record_fn fn,
			void *ctx, struct tb_err *err)
{
	/* on cache lines of its own (pd_session_int.h: two threads) */
	struct pd_session *s = aligned_alloc(64, (sizeof(*s) + 63) & ~(size_t)63);
	const unsigned char *p;
	struct stat st;
	uint64_t hsize;
	size_t avail;
	int r;

	*out = NULL;
	if (!s) {
		close(fd);
		return TB_ERR_NOMEM;
	}
	memset(s, 0, sizeof(*s));
	s->fd = fd;
	s->path = path;
	s->tap = fn;
	s->tap_ctx = ctx;
	if ((r = pd_in_init(&s->in, fd, INPUT_BUFFER)) || (r = pd_threads_init(&s->threads)))
		goto fail;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		s->file_size = (uint64_t)st.st_size;
	else
		s->file_size = UINT64_MAX;
	p = pd_in_peek(&s->in, 16, &avail, err);
	if (!p) {
		r = err && err->code ? err->code :
			tb_err_set(err, TB_ERR_TRUNCATED, 0,
				   "%zu bytes: too short for a perf.data header", avail);
		goto fail;
	}
	if (pd_u64(p) == PD_MAGIC2_SWAPPED) {
		/* perf 6.1's check_magic_endian: the other byte order, read
		 * through pd_swap.h; a record is at most 64 KiB */
		s->swapped = 1;
		s->swapbuf = malloc(2 * 65536);
		if (!s->swapbuf) {
			r = TB_ERR_NOMEM;
			goto fail;
		}
		s->swapbuf2 = s->swapbuf + 65536;
	} else if (pd_u64(p) != PD_MAGIC2) {
		r = tb_err_set(err, TB_ERR_FORMAT, 0,
			       "bad magic 0x%016llx, not a perf.data (PERFILE2) file",
			       (unsigned long long)pd_u64(p));
		goto fail;
	}
	hsize = pd_u64(p + 8);
	if (s->swapped)
		hsize = __builtin_bswap64(hsize);
	if (hsize == PD_PIPE_HEADER_SIZE) {
		s->pipe = 1;
		pd_in_consume(&s->in, 16);
		r = pd_session_read_pipe_headers(s, err);
	} else if (s->file_size == UINT64_MAX) {
		r = tb_err_set(err, TB_ERR_UNSUPPORTED, 8,
			       "a file-mode header (size %llu) on a pipe: pipe input needs "
			       "'perf record -o -' data", (unsigned long long)hsize);
	} else {
		r = open_file_mode(s, err);
	}
	if (r)
		goto fail;
	*out = s;
	return 0;
fail:
	pd_session_close(s);
	return r;
}

int pd_session_open(struct pd_session **out, const char *path, int fd, struct tb_err *err)
{
	return open_session(out, path, fd, NULL, NULL, err);
}

int pd_session_open_checked(struct pd_session **out, const char *path, int fd, pd_record_fn fn,
			    void *ctx, struct tb_err *err)
{
	return open_session(out, path, fd, fn, ctx, err);
}

int pd_session_use_symbols(struct pd_session *s, const struct sym_opts *o)
{
	struct sym_opts so = *o;

	if (s->sym)
		return 0;
	/* the arch perf's native_arch compares: a pipe's is this machine's */
	so.arch = s->pipe ? NULL : s->info.arch ? s->info.arch : "";
	s->sym = sym_machine_new(&so);
	if (!s->sym)
		return TB_ERR_NOMEM;
	if (s->buildid_sec)
		return pd_session_buildids(s, s->buildid_sec, s->buildid_len);
	return 0;
}
