/* pd_writer.c - write perf.data: a pipe stream (-o -), or a regular file
 * streamed in pipe format and turned into file mode at a clean end (layout
 * and why: pd_writer.h). perf-data-format.md sections 2, 3, 5, 6 and 9. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_compressed.h"
#include "record/pd_writer.h"
#include "util/io.h"

#define ATTR_SIZE 128

static int io_err(struct tb_err *err, uint64_t off, const char *what)
{
	return tb_err_set(err, TB_ERR_IO, off, "%s: %s", what, strerror(errno ? errno : EIO));
}

size_t pd_header_string_size(const char *s)
{
	return 4 + ((strlen(s) + 1 + 63) & ~(size_t)63);
}

size_t pd_header_string(unsigned char *out, const char *s)
{
	size_t n = pd_header_string_size(s) - 4, l = strlen(s);
	uint32_t len = (uint32_t)n;

	memcpy(out, &len, 4);
	memcpy(out + 4, s, l);
	memset(out + 4 + l, 0, n - l);
	return n + 4;
}

static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }
static void put_u32(unsigned char *p, uint32_t v) { memcpy(p, &v, 4); }

/* writen() of the stream's header part, counted in w->stream. */
static int put(struct pd_writer *w, const void *p, size_t len)
{
	if (writen(w->fd, p, len))
		return -1;
	w->stream += len;
	return 0;
}

static int write_record(struct pd_writer *w, uint32_t type, const void *a, size_t alen,
			const void *b, size_t blen, struct tb_err *err)
{
	unsigned char hdr[8];
	size_t size = 8 + alen + blen;
	uint16_t size16 = (uint16_t)size;
	struct iovec iov[3] = { { hdr, 8 }, { (void *)a, alen }, { (void *)b, blen } };

	if (size > 0xffff)
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "record type %u of %zu bytes is too large for perf.data", type,
				  size);
	put_u32(hdr, type);
	memset(hdr + 4, 0, 2);
	memcpy(hdr + 6, &size16, 2);    /* the writer's byte order, as type's (big-endian boards) */
	for (int i = 0; i < 3; i++) {
		if (iov[i].iov_len && put(w, iov[i].iov_base, iov[i].iov_len))
			return io_err(err, TB_NO_OFFSET, "writing the pipe header records");
	}
	return 0;
}

/* An EVENT_UPDATE of tracebox's own @type with @payload, padded to 8. */
static int write_update(struct pd_writer *w, uint64_t type, const unsigned char *payload,
			size_t len, struct tb_err *err)
{
	unsigned char upd[16], pad[8] = { 0 };
	size_t padded = (len + 7) & ~(size_t)7;
	unsigned char *buf;
	int r;

	if (!w->nr_attrs || !w->attrs[0].nr_ids)
		return 0;             /* perf needs a real sample id on it */
	buf = malloc(padded ? padded : 1);
	if (!buf)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	if (len)
		memcpy(buf, payload, len);
	memcpy(buf + len, pad, padded - len);
	put_u64(upd, type);
	put_u64(upd + 8, w->attrs[0].ids[0]);
	r = write_record(w, PD_REC_EVENT_UPDATE, upd, 16, buf, padded, err);
	free(buf);
	return r;
}

/* ---- what the reader of a pipe took ---- */

/* Into a pipe, room for a mark per sample of a pipe's worth of bytes (a
 * record is 8 bytes at least). Not a pipe (a file, a socket): no marks. */
static int marks_alloc(struct pd_writer *w)
{
	struct stat st;
	int size;

	if (fstat(w->fd, &st) || !S_ISFIFO(st.st_mode))
		return 0;
	size = fcntl(w->fd, F_GETPIPE_SZ);
	w->cap_marks = (size_t)(size > 0 ? size : 65536) / 8 + 1;
	w->marks = calloc(w->cap_marks, sizeof(*w->marks));
	return w->marks ? 0 : -1;
}

static void mark(struct pd_writer *w, uint64_t end)
{
	struct pd_wmark *m = &w->marks[w->nr_marks++ % w->cap_marks];

	m->end = end;
	m->samples = w->piped;
}

/* Byte @off of @iov's @n pieces, or -1 past their end. */
static int iov_byte(const struct iovec *iov, int n, uint64_t off)
{
	for (int i = 0; i < n; i++) {
		if (off < iov[i].iov_len)
			return ((const unsigned char *)iov[i].iov_base)[off];
		off -= iov[i].iov_len;
	}
	return -1;
}

/* Count the SAMPLE records of @iov (whole records, which a ring may split
 * across its two pieces) just written at w->stream, with a mark at the end
 * of each the pipe took whole: those in its first @took bytes. */
static void mark_samples(struct pd_writer *w, const struct iovec *iov, int n, uint64_t total,
			 uint64_t took)
{
	uint64_t off = 0;

	while (off + 8 <= total) {
		int type = iov_byte(iov, n, off), lo = iov_byte(iov, n, off + 6),
		    hi = iov_byte(iov, n, off + 7);
		unsigned size = (unsigned)lo | (unsigned)hi << 8;

		if (type < 0 || lo < 0 || hi < 0 || size < 8 || off + size > total)
			break;
		off += size;
		if (type != PD_REC_SAMPLE)
			continue;
		w->piped++;
		if (off <= took)
			mark(w, w->stream + off);
	}
}

/* EPIPE after the pipe took @taken bytes of the stream: the bytes still in
 * it (FIONREAD works on the write end, and the pipe keeps them until its
 * last end closes) never reached the reader; the samples that did are
 * those of the last mark at or before where it stopped. */
static void reader_gone(struct pd_writer *w, uint64_t taken)
{
	uint64_t stop = taken, samples = 0;
	int left = 0;

	if (ioctl(w->fd, FIONREAD, &left) == 0 && left > 0 && (uint64_t)left <= taken)
		stop = taken - (uint64_t)left;
	for (size_t k = 0; k < w->nr_marks && k < w->cap_marks; k++) {
		const struct pd_wmark *m = &w->marks[(w->nr_marks - 1 - k) % w->cap_marks];

		if (m->end <= stop) {
			samples = m->samples;
			break;
		}
	}
	w->reader_gone = 1;
	w->samples = samples;
	w->unread = w->piped - samples;
}

/* The pipe stream's header records (see pd_writer.h for the layout). */
static int start_stream(struct pd_writer *w, struct tb_err *err)
{
	unsigned char hdr[16], attr[ATTR_SIZE], u64b[8], pad[8] = { 0 }, td[8];
	const struct pd_wfeature *tdf = NULL;
	off_t pos;
	int r;

	put_u64(hdr, PD_MAGIC2);
	put_u64(hdr + 8, PD_PIPE_HEADER_SIZE);
	if (put(w, hdr, sizeof(hdr)))
		return io_err(err, 0, "writing the pipe header");
	for (size_t i = 0; i < w->nr_attrs; i++) {
		memcpy(attr, w->attrs[i].attr, ATTR_SIZE);
		put_u32(attr + PD_ATTR_OFF_SIZE, ATTR_SIZE);
		if ((r = write_record(w, PD_REC_HEADER_ATTR, attr, ATTR_SIZE, w->attrs[i].ids,
				      w->attrs[i].nr_ids * 8, err)))
			return r;
	}
	for (size_t i = 0; i < w->nr_feats; i++) {
		const struct pd_wfeature *f = &w->feats[i];

		if (f->bit == PD_FEAT_TRACING_DATA)
			tdf = f;
		/* perf sends neither in pipe mode (its build ids come at the end) */
		if (f->bit == PD_FEAT_TRACING_DATA || f->bit == PD_FEAT_BUILD_ID ||
		    f->bit == PD_FEAT_CACHE || f->bit >= PD_FEAT_LAST_PERF)
			continue;
		put_u64(u64b, (uint64_t)f->bit);
		if ((r = write_record(w, PD_REC_HEADER_FEATURE, u64b, 8, f->data, f->len, err)))
			return r;
	}
	put_u64(u64b, PD_FEAT_LAST_PERF);    /* perf's end-of-features mark */
	if ((r = write_record(w, PD_REC_HEADER_FEATURE, u64b, 8, NULL, 0, err)))
		return r;
	if (tdf) {
		size_t padded = (tdf->len + 7) & ~(size_t)7;

		put_u32(td, (uint32_t)padded);
		put_u32(td + 4, 0);
		if ((r = write_record(w, PD_REC_HEADER_TRACING_DATA, td, 8, NULL, 0, err)))
			return r;
		if (put(w, tdf->data, tdf->len) || put(w, pad, padded - tdf->len))
			return io_err(err, TB_NO_OFFSET, "writing the tracing data");
	}
	if (w->staged && (r = write_update(w, PD_EVENT_UPDATE_UNFINISHED, NULL, 0, err)))
		return r;
	if (w->staged) {
		pos = lseek(w->fd, 0, SEEK_CUR);
		if (pos < 0)
			return io_err(err, TB_NO_OFFSET, "finding the data offset");
		w->data_offset = (uint64_t)pos;
	}
	if (w->scmap) {
		uint64_t before = w->data_offset;

		if ((r = write_update(w, PD_EVENT_UPDATE_SYSCALL_MAP, w->scmap->data, w->scmap->len,
				      err)))
			return r;
		if (w->staged && (pos = lseek(w->fd, 0, SEEK_CUR)) >= 0)
			w->data_size = w->data_base = (uint64_t)pos - before;
	}
	return 0;
}

int pd_writer_start(struct pd_writer *w, int fd, int pipe, const struct pd_wattr *attrs,
		    size_t nr_attrs, const struct pd_wfeature *feats, size_t nr_feats,
		    struct tb_err *err)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->pipe = pipe;
	w->attrs = attrs;
	w->nr_attrs = nr_attrs;
	w->feats = feats;
	w->nr_feats = nr_feats;
	w->staged = !pipe;
	for (size_t i = 0; i < nr_feats; i++)
		if (feats[i].bit == PD_FEAT_SYSCALL_MAP)
			w->scmap = &feats[i];
	if (pipe && marks_alloc(w))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	return start_stream(w, err);
}

void pd_writer_free(struct pd_writer *w)
{
	free(w->marks);
	w->marks = NULL;
	w->cap_marks = 0;
}

/* Whether feature @f goes in the file-mode feature sections. */
static int is_file_feature(const struct pd_wfeature *f)
{
	return f->bit < PD_FEAT_LAST_PERF;
}

/* Bytes written at a clean end: index, features, ids, attrs. */
static uint64_t trailer_size(const struct pd_writer *w)
{
	uint64_t n = w->nr_attrs * (ATTR_SIZE + 16);

	for (size_t i = 0; i < w->nr_feats; i++)
		if (is_file_feature(&w->feats[i]))
			n += 16 + w->feats[i].len;
	for (size_t i = 0; i < w->nr_attrs; i++)
		n += w->attrs[i].nr_ids * 8;
	return n;
}

/* A write failed after @partial bytes of the chunk: cut the data back to a
 * whole chunk that frees room for the index and features, and stop. */
static void cut_back(struct pd_writer *w, uint64_t partial)
{
	uint64_t end = w->data_size + partial, keep = w->data_base, samples = 0;
	uint64_t room = trailer_size(w) + 16384;

	for (size_t k = 0; k < w->nr_history && k < PD_WRITER_HISTORY; k++) {
		size_t at = (w->nr_history - 1 - k) % PD_WRITER_HISTORY;

		if (end - w->history[at].end >= room) {
			keep = w->history[at].end;
			samples = w->history[at].samples;
			break;
		}
	}
	w->samples = samples;
	if (ftruncate(w->fd, (off_t)(w->data_offset + keep)) == 0)
		lseek(w->fd, (off_t)(w->data_offset + keep), SEEK_SET);
	w->dropped = end - keep;
	w->data_size = keep;
}

/* @iov's records at the stream's end; @nr_samples SAMPLEs among them. In
 * a pipe, @scan: find them (uncompressed records), else one mark after all
 * (compressed: a cut record gives the reader none of its samples). */
static int write_records(struct pd_writer *w, const struct iovec *iov, int iovcnt,
			 uint64_t nr_samples, int scan, struct tb_err *err)
{
	struct iovec v[8];
	uint64_t total = 0;
	size_t done = 0;
	int n = iovcnt < 8 ? iovcnt : 8, rc, e;

	memcpy(v, iov, (size_t)n * sizeof(*v));
	for (int i = 0; i < n; i++)
		total += v[i].iov_len;
	rc = writevn(w->fd, v, n, &done);
	e = errno;
	if (w->marks && scan) {
		mark_samples(w, iov, n, total, done);
	} else if (w->marks && nr_samples) {
		w->piped += nr_samples;
		if (done == total)
			mark(w, w->stream + total);
	}
	if (rc) {
		if (w->staged)
			cut_back(w, done);
		else if (w->marks && e == EPIPE)
			reader_gone(w, w->stream + done);
		errno = e;
		return io_err(err, w->data_offset + w->data_size + done, "writing data");
	}
	w->stream += total;
	w->data_size += total;
	w->samples += nr_samples;
	w->history[w->nr_history % PD_WRITER_HISTORY].end = w->data_size;
	w->history[w->nr_history % PD_WRITER_HISTORY].samples = w->samples;
	w->nr_history++;
	return 0;
}

/* File mode at a clean end: the trailer after the data, then the header
 * that turns the pipe stream into a file-mode file (one 104-byte pwrite). */
int pd_writer_finish(struct pd_writer *w, struct tb_err *err)
{
	unsigned char hdr[PD_FILE_HEADER_SIZE], entry[ATTR_SIZE + 16], e[16];
	uint64_t index_off, off, ids_off, attrs_off, bitmap[4] = { 0 };
	size_t nr = 0, k = 0;

	pd_writer_free(w);
	if (!w->staged)
		return 0;
	index_off = w->data_offset + w->data_size;
	for (size_t i = 0; i < w->nr_feats; i++)
		nr += is_file_feature(&w->feats[i]);
	off = index_off + nr * 16;
	for (size_t i = 0; i < w->nr_feats; i++) {
		const struct pd_wfeature *f = &w->feats[i];

		if (!is_file_feature(f))
			continue;
		put_u64(e, off);
		put_u64(e + 8, f->len);
		if (pwriten(w->fd, e, 16, index_off + k++ * 16) ||
		    pwriten(w->fd, f->data, f->len, off))
			return io_err(err, off, "writing the features");
		off += f->len;
		bitmap[f->bit / 64] |= 1ULL << (f->bit % 64);
	}
	ids_off = off;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		if (pwriten(w->fd, w->attrs[i].ids, w->attrs[i].nr_ids * 8, off))
			return io_err(err, off, "writing the ids");
		off += w->attrs[i].nr_ids * 8;
	}
	attrs_off = off;
	for (size_t i = 0; i < w->nr_attrs; i++) {
		memcpy(entry, w->attrs[i].attr, ATTR_SIZE);
		put_u32(entry + PD_ATTR_OFF_SIZE, ATTR_SIZE);
		put_u64(entry + ATTR_SIZE, ids_off);
		put_u64(entry + ATTR_SIZE + 8, w->attrs[i].nr_ids * 8);
		ids_off += w->attrs[i].nr_ids * 8;
		if (pwriten(w->fd, entry, sizeof(entry), off))
			return io_err(err, off, "writing the attrs");
		off += sizeof(entry);
	}
	/* a cut-back file may still hold bytes past the trailer */
	if (ftruncate(w->fd, (off_t)off) && errno != EINVAL)
		return io_err(err, off, "truncating the file");
	memset(hdr, 0, sizeof(hdr));
	put_u64(hdr, PD_MAGIC2);
	put_u64(hdr + 8, PD_FILE_HEADER_SIZE);
	put_u64(hdr + 16, ATTR_SIZE + 16);
	put_u64(hdr + 24, attrs_off);
	put_u64(hdr + 32, w->nr_attrs * (ATTR_SIZE + 16));
	put_u64(hdr + 40, w->data_offset);
	put_u64(hdr + 48, w->data_size);
	for (int i = 0; i < 4; i++)
		put_u64(hdr + 72 + 8 * i, bitmap[i]);
	if (pwriten(w->fd, hdr, sizeof(hdr), 0))
		return io_err(err, 0, "writing the file header");
	return 0;
}

/* Records that are not samples (COMMs, FINISHED_ROUND) go out as they are,
 * compressed or not, as perf record writes them. */
int pd_writer_write(struct pd_writer *w, const struct iovec *iov, int iovcnt,
		    struct tb_err *err)
{
	return write_records(w, iov, iovcnt, 0, 1, err);
}

void pd_writer_compress(struct pd_writer *w, struct pd_comp *c)
{
	w->comp = c;
}

/* The records of @iov (a ring's two pieces: a record may span both) as
 * COMPRESSED records. */
static int write_compressed(struct pd_writer *w, const struct iovec *iov, int iovcnt,
			    uint64_t nr_samples, struct tb_err *err)
{
	struct bytebuf joined = { 0 }, out = { 0 };
	const void *src = iov[0].iov_base;
	size_t len = iov[0].iov_len;
	int rc;

	if (iovcnt > 1) {
		for (int i = 0; i < iovcnt; i++)
			bb_put(&joined, iov[i].iov_base, iov[i].iov_len);
		src = joined.p;
		len = joined.len;
	}
	if (joined.oom)
		rc = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	else
		rc = pd_comp_records(w->comp, src, len, &out, err);
	if (!rc) {
		struct iovec v = { out.p, out.len };

		rc = write_records(w, &v, 1, nr_samples, 0, err);
	}
	bb_free(&joined);
	bb_free(&out);
	return rc;
}

int pd_writer_write_samples(struct pd_writer *w, const struct iovec *iov, int iovcnt,
			    uint64_t nr_samples, struct tb_err *err)
{
	if (w->comp && iovcnt > 0)
		return write_compressed(w, iov, iovcnt, nr_samples, err);
	return write_records(w, iov, iovcnt, nr_samples, 1, err);
}
