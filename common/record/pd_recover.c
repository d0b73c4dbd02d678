/* pd_recover.c - turning a cut pipe stream (a killed trace-record file) into a file-mode perf.data. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "perfdata/pd_features.h"
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"
#include "perfdata/pd_session.h"
#include "record/pd_recover.h"
#include "record/pd_writer.h"
#include "util/io.h"

#define MAX_TRACEDATA (256u << 20)   /* as the reader bounds it */
#define CHUNK         (1u << 20)     /* data records go out in chunks this size */

/* The pipe-only header records, gathered into what pd_writer_start takes. */
struct meta {
	struct pd_wattr *attrs;
	size_t nr_attrs, attrs_cap;
	struct pd_wfeature *feats;
	size_t nr_feats;
};

struct recovery {
	int in, out;
	uint64_t off;              /* the next record's offset in the input */
	struct meta m;
	struct pd_writer w;
	int started;
	unsigned char *chunk;
	size_t used;
	uint64_t chunk_samples;
	struct pd_recover_stats *st;
	struct tb_err *err;
	struct pd_session *s;      /* the reader walking the input (in take_checked) */
	uint64_t nr_unknown;       /* records of unknown types it skipped so far */
};

/* pread all of @n bytes at @off: 0, 1 when the input ends first, -1 on error */
static int read_at(int fd, uint64_t off, void *buf, size_t n)
{
	ssize_t got = preadn(fd, buf, n, off);

	return got < 0 ? -1 : (size_t)got < n ? 1 : 0;
}

static void meta_free(struct meta *m)
{
	for (size_t i = 0; i < m->nr_attrs; i++)
		free((void *)m->attrs[i].ids);
	for (size_t i = 0; i < m->nr_feats; i++)
		free((void *)m->feats[i].data);
	free(m->attrs);
	free(m->feats);
}

static int too_late(struct recovery *r, const char *what)
{
	return tb_err_set(r->err, TB_ERR_FORMAT, r->off,
			  "%s after the first data record: not a stream this can recover", what);
}

/* HEADER_ATTR: the attr (its own size, cut or zero-extended to 128), then ids */
static int take_attr(struct recovery *r, const unsigned char *rec, size_t size)
{
	struct pd_wattr *a, *grown;
	uint32_t asize;
	size_t nr_ids;
	uint64_t *ids;

	if (r->started)
		return too_late(r, "an attr");
	if (size < 8 + PD_ATTR_SIZE_VER0)
		return tb_err_set(r->err, TB_ERR_FORMAT, r->off, "HEADER_ATTR of %zu bytes", size);
	asize = pd_u32(rec + 8 + PD_ATTR_OFF_SIZE);
	if (asize == 0)
		asize = PD_ATTR_SIZE_VER0;
	if (asize < PD_ATTR_SIZE_VER0 || asize > size - 8 || (size - 8 - asize) % 8)
		return tb_err_set(r->err, TB_ERR_FORMAT, r->off + 8 + PD_ATTR_OFF_SIZE,
				  "attr size %u does not fit its %zu-byte record", asize, size);
	nr_ids = (size - 8 - asize) / 8;
	grown = r->m.attrs;
	if (r->m.nr_attrs == r->m.attrs_cap) {
		size_t cap = r->m.attrs_cap ? r->m.attrs_cap * 2 : 8;

		grown = cap < SIZE_MAX / sizeof(*grown) ? realloc(r->m.attrs, cap * sizeof(*grown)) : NULL;
		if (grown) {
			r->m.attrs = grown;
			r->m.attrs_cap = cap;
		}
	}
	ids = malloc(nr_ids ? nr_ids * 8 : 1);
	if (!grown || !ids) {
		free(ids);
		return tb_err_set(r->err, TB_ERR_NOMEM, r->off, "out of memory");
	}
	a = &r->m.attrs[r->m.nr_attrs++];
	memset(a, 0, sizeof(*a));
	memcpy(a->attr, rec + 8, asize < 128 ? asize : 128);
	memcpy(ids, rec + 8 + asize, nr_ids * 8);
	a->ids = ids;
	a->nr_ids = nr_ids;
	return 0;
}

/* A feature section's bytes; a later copy of a bit replaces the earlier. */
static int take_feature(struct recovery *r, int bit, const unsigned char *data, size_t len)
{
	struct pd_wfeature *f = NULL, *grown;
	unsigned char *copy;

	if (r->started)
		return too_late(r, "a feature");
	copy = malloc(len ? len : 1);
	if (!copy)
		return tb_err_set(r->err, TB_ERR_NOMEM, r->off, "out of memory");
	memcpy(copy, data, len);
	for (size_t i = 0; i < r->m.nr_feats; i++)
		if (r->m.feats[i].bit == bit)
			f = &r->m.feats[i];
	if (!f) {
		grown = realloc(r->m.feats, (r->m.nr_feats + 1) * sizeof(*grown));
		if (!grown) {
			free(copy);
			return tb_err_set(r->err, TB_ERR_NOMEM, r->off, "out of memory");
		}
		r->m.feats = grown;
		f = &r->m.feats[r->m.nr_feats++];
	} else {
		free((void *)f->data);
	}
	f->bit = bit;
	f->data = copy;
	f->len = len;
	return 0;
}

/* Whether the reader refuses feature section @bit's @len bytes at @off. */
static int feature_damaged(int bit, const unsigned char *data, size_t len, uint64_t off)
{
	struct pd_header_info info;
	struct tb_err err = { 0 };
	int r;

	memset(&info, 0, sizeof(info));
	r = pd_feature_parse(bit, data, len, off, &info, &err);
	pd_header_info_free(&info);
	return r != 0 && r != TB_ERR_NOMEM;
}

static int by_bit(const void *a, const void *b)
{
	return ((const struct pd_wfeature *)a)->bit - ((const struct pd_wfeature *)b)->bit;
}

/* A file's attrs must agree on where the id sits (perf's "non matching
 * sample_type"): a pipe of attrs without ids (perf stat record -o -) is
 * read, but as a file it would not be. 1, @r->err set, when they differ. */
static int file_attrs_disagree(struct recovery *r)
{
	uint64_t st0 = pd_u64(r->m.attrs[0].attr + PD_ATTR_OFF_SAMPLE_TYPE);
	uint64_t f0 = pd_u64(r->m.attrs[0].attr + PD_ATTR_OFF_FLAGS);

	for (size_t i = 1; i < r->m.nr_attrs; i++) {
		uint64_t st = pd_u64(r->m.attrs[i].attr + PD_ATTR_OFF_SAMPLE_TYPE);
		uint64_t f = pd_u64(r->m.attrs[i].attr + PD_ATTR_OFF_FLAGS);

		if (((f ^ f0) & PD_ATTR_FLAG_SAMPLE_ID_ALL) || pd_id_pos(st) != pd_id_pos(st0) ||
		    pd_is_pos(st) != pd_is_pos(st0) || pd_id_pos(st0) < 0) {
			tb_err_set(r->err, TB_ERR_FORMAT, r->off, "attr %zu: non matching sample_type "
				   "0x%llx: a file of these attrs would not read (every attr of a "
				   "multi-event file needs ID or IDENTIFIER at the same place)", i,
				   (unsigned long long)st);
			return 1;
		}
	}
	return 0;
}

/* The first data record (or the end): the header records are all known. */
static int start_output(struct recovery *r)
{
	if (r->started)
		return 0;
	if (!r->m.nr_attrs)
		return tb_err_set(r->err, TB_ERR_FORMAT, r->off, "no attr before the data: "
				  "nothing to recover");
	/* the header records read so far are the output's header: what its
	 * reader checks when it opens it, checked now (a tracing data that
	 * comes later is not written: an event without its format) */
	if (r->s && pd_session_check_decodable(r->s, r->off, r->err))
		return r->err->code;
	if (file_attrs_disagree(r))
		return r->err->code;
	if (r->m.nr_feats > 1)
		qsort(r->m.feats, r->m.nr_feats, sizeof(*r->m.feats), by_bit);
	r->started = 1;
	r->st->write_failed = pd_writer_start(&r->w, r->out, 0, r->m.attrs, r->m.nr_attrs,
					      r->m.feats, r->m.nr_feats, r->err) != 0;
	return r->st->write_failed ? r->err->code : 0;
}

static int flush_chunk(struct recovery *r)
{
	struct iovec v = { r->chunk, r->used };
	int ret;

	if (!r->used)
		return 0;
	ret = pd_writer_write_samples(&r->w, &v, 1, r->chunk_samples, r->err);
	r->st->write_failed = ret != 0;
	r->used = 0;
	r->chunk_samples = 0;
	return ret;
}

static int copy_record(struct recovery *r, const unsigned char *rec, size_t size)
{
	int ret;

	if ((ret = start_output(r)))
		return ret;
	if (r->used + size > CHUNK && (ret = flush_chunk(r)))
		return ret;
	memcpy(r->chunk + r->used, rec, size);
	r->used += size;
	r->st->records++;
	if (pd_u32(rec) == PD_REC_SAMPLE) {
		r->st->samples++;
		r->chunk_samples++;
	}
	r->st->compressed += pd_u32(rec) == PD_REC_COMPRESSED;
	return 0;
}

/* Whether perf 6.1 processes a record of @type (it fails on any other). */
static int perf_knows(uint32_t type)
{
	return (type >= 1 && type <= PD_REC_KERNEL_LAST) ||
	       (type >= PD_REC_USER_START && type <= PD_REC_FINISHED_INIT);
}

/* HEADER_TRACING_DATA: its payload follows the record, outside its size. */
static int take_tracing_data(struct recovery *r, const unsigned char *rec, size_t size,
			     uint64_t *next)
{
	uint32_t tsize;
	uint64_t padded;
	unsigned char *buf;
	int ret;

	if (size < 16)
		return tb_err_set(r->err, TB_ERR_FORMAT, r->off, "HEADER_TRACING_DATA of %zu bytes",
				  size);
	tsize = pd_u32(rec + 8);
	if (tsize > MAX_TRACEDATA)
		return tb_err_set(r->err, TB_ERR_FORMAT, r->off + 8, "tracing data of %u bytes "
				  "(the bound is %u MiB)", tsize, MAX_TRACEDATA >> 20);
	padded = ((uint64_t)tsize + 7) & ~7ULL;
	buf = malloc(padded ? padded : 1);
	if (!buf)
		return tb_err_set(r->err, TB_ERR_NOMEM, r->off, "out of memory");
	ret = read_at(r->in, r->off + size, buf, padded);
	if (ret == 0)
		ret = take_feature(r, PD_FEAT_TRACING_DATA, buf, tsize);
	else
		ret = ret > 0 ? 1 : tb_err_set(r->err, TB_ERR_IO, r->off + size,
					       "reading the tracing data: %s", strerror(errno));
	free(buf);
	*next = r->off + size + padded;
	return ret;
}

/* One whole record at r->off: gathered, copied or dropped. Returns 0, 1 at
 * a record that is cut (the end of what can be recovered), or an error. */
static int one_record(struct recovery *r, const unsigned char *rec, size_t size, uint64_t *next)
{
	uint32_t type = pd_u32(rec);

	*next = r->off + size;
	switch (type) {
	case PD_REC_HEADER_ATTR:
		return take_attr(r, rec, size);
	case PD_REC_HEADER_TRACING_DATA:
		return take_tracing_data(r, rec, size, next);
	case PD_REC_HEADER_FEATURE: {
		uint64_t bit;

		if (size < 16)
			return tb_err_set(r->err, TB_ERR_FORMAT, r->off, "HEADER_FEATURE of %zu bytes",
					  size);
		bit = pd_u64(rec + 8);
		if (bit == PD_FEAT_LAST_PERF)      /* the end-of-features mark */
			return 0;
		/* the tracing data comes in HEADER_TRACING_DATA: the reader does
		 * not take it from a HEADER_FEATURE (perf never sends one) */
		if (bit == 0 || bit >= PD_FEAT_LAST_PERF || bit == PD_FEAT_TRACING_DATA) {
			r->st->dropped_features++;
			return 0;
		}
		/* a section the reader cannot parse would reach perf as it is
		 * (perf 6.1 crashes on a damaged mem_topology): left out */
		if (feature_damaged((int)bit, rec + 16, size - 16, r->off + 16)) {
			r->st->damaged_features++;
			return 0;
		}
		return take_feature(r, (int)bit, rec + 16, size - 16);
	}
	case PD_REC_HEADER_EVENT_TYPE:             /* obsolete: perf ignores it */
		return 0;
	case PD_REC_EVENT_UPDATE:
		if (size >= 16 && pd_u64(rec + 8) == PD_EVENT_UPDATE_UNFINISHED) {
			r->st->unfinished = 1;
			return 0;
		}
		return copy_record(r, rec, size);
	default:
		if (!perf_knows(type)) {
			r->st->dropped++;
			return 0;
		}
		return copy_record(r, rec, size);
	}
}

/* The pipe header; a file-mode header means there is nothing to recover. */
static int check_header(struct recovery *r)
{
	unsigned char h[16];
	int ret = read_at(r->in, 0, h, sizeof(h));

	if (ret < 0)
		return tb_err_set(r->err, TB_ERR_IO, 0, "reading the header: %s", strerror(errno));
	if (ret > 0 || pd_u64(h) != PD_MAGIC2)
		return tb_err_set(r->err, TB_ERR_FORMAT, 0, "not a perf.data stream (bad magic 0x%016llx)",
				  ret > 0 ? 0ULL : (unsigned long long)pd_u64(h));
	if (pd_u64(h + 8) == PD_FILE_HEADER_SIZE)
		return tb_err_set(r->err, TB_ERR_UNSUPPORTED, 0, "a finished file-mode recording: "
				  "nothing to recover");
	if (pd_u64(h + 8) != PD_PIPE_HEADER_SIZE)
		return tb_err_set(r->err, TB_ERR_FORMAT, 8, "header size %llu is neither a pipe's nor "
				  "a file's", (unsigned long long)pd_u64(h + 8));
	r->off = PD_PIPE_HEADER_SIZE;
	return 0;
}

/* Whether @code is damage in the input (the reader refuses a record), not
 * a failure of this machine (memory, reading, writing). */
static int is_damage(int code)
{
	return code == TB_ERR_TRUNCATED || code == TB_ERR_FORMAT ||
	       code == TB_ERR_UNSUPPORTED || code == TB_ERR_TRACEDATA;
}

/* The reader's tap (pd_session_open_checked): a record it took. */
static int take_checked(void *ctx, struct pd_session *s, const unsigned char *rec, size_t size,
			uint64_t off)
{
	struct recovery *r = ctx;
	uint64_t next;
	int ret;

	r->s = s;
	r->off = off;
	/* the reader skips a record of a type nobody knows, perf fails on it:
	 * one inside a COMPRESSED record cannot be left out alone */
	if (pd_u32(rec) == PD_REC_COMPRESSED &&
	    pd_session_stats(s)->nr_unknown_records != r->nr_unknown)
		return tb_err_set(r->err, TB_ERR_FORMAT, off, "COMPRESSED record holding a "
				  "record of a type perf 6.1 refuses");
	r->nr_unknown = pd_session_stats(s)->nr_unknown_records;
	ret = one_record(r, rec, size, &next);
	if (ret > 0)               /* the tracing data's payload ran out */
		ret = tb_err_set(r->err, TB_ERR_TRUNCATED, off, "the tracing data runs past the end");
	if (!ret)
		r->off = next;
	return ret;
}

/* Every record the reader takes, in order, until the input ends, a record
 * is cut, or the reader refuses one (st->damage says which: the records
 * from there on are left out). The reader's checks are the reader's own:
 * pd_session_open_checked runs all of them as each record is read. */
static int walk(struct recovery *r)
{
	struct tb_err rerr = { 0 };
	struct pd_session *s;
	int fd = dup(r->in), ret;

	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		if (fd >= 0)
			close(fd);
		return tb_err_set(r->err, TB_ERR_IO, TB_NO_OFFSET, "reading: %s", strerror(errno));
	}
	/* damage among the header records is fatal: what they describe is
	 * what every record is read with */
	ret = pd_session_open_checked(&s, "input", fd, take_checked, r, &rerr);
	r->s = NULL;               /* the tap's, valid while the session is */
	if (ret) {
		if (!r->err->code)
			*r->err = rerr;
		return ret;
	}
	ret = pd_session_process(s, NULL, &rerr);
	r->st->unfinished |= pd_session_stats(s)->unfinished;
	/* no data record, or the first could not start the output: the same
	 * check on the header records alone, fatal now */
	if (!r->started && (!ret || is_damage(ret))) {
		struct tb_err why = { 0 };
		int bad = pd_session_check_decodable(s, r->off, &why);

		if (bad) {
			pd_session_close(s);
			r->s = NULL;
			*r->err = why;
			return bad;
		}
	}
	pd_session_close(s);
	r->s = NULL;
	if (!ret)
		return 0;
	if (!r->err->code)                /* the reader refused it, not take_checked */
		*r->err = rerr;
	if (!is_damage(ret) || r->st->write_failed)
		return ret;
	/* the records before it are written, the rest is left out */
	r->st->damage = *r->err;
	memset(r->err, 0, sizeof(*r->err));
	return 0;
}

/* The written file, read as trace-report reads it: what recovery writes,
 * the reader takes (else the output is refused, naming the reader's error).
 * A device (/dev/null) gives nothing back to read. */
static int read_back(int out_fd, struct pd_recover_stats *st, struct tb_err *err)
{
	struct tb_err rerr = { 0 };
	struct pd_session *s;
	struct stat sb;
	int fd, ret;

	if (fstat(out_fd, &sb) == 0 && !S_ISREG(sb.st_mode))
		return 0;
	fd = dup(out_fd);
	if (fd < 0 || lseek(fd, 0, SEEK_SET) != 0) {
		if (fd >= 0)
			close(fd);
		st->write_failed = 1;
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "reading it back: %s",
				  strerror(errno));
	}
	ret = pd_session_open(&s, "recovered", fd, &rerr);
	if (!ret) {
		ret = pd_session_process(s, NULL, &rerr);
		pd_session_close(s);
	}
	if (ret && ret != TB_ERR_NOMEM) {
		st->readback_failed = 1;
		return tb_err_set(err, ret, rerr.has_offset ? rerr.offset : TB_NO_OFFSET,
				  "the recovered file does not read back (a bug of --recover): %s",
				  rerr.msg);
	}
	if (ret)
		*err = rerr;
	return ret;
}

int pd_recover(int in_fd, int out_fd, struct pd_recover_stats *st, struct tb_err *err)
{
	struct recovery r = { .in = in_fd, .out = out_fd, .st = st, .err = err };
	off_t total;
	int ret;

	memset(st, 0, sizeof(*st));
	r.chunk = malloc(CHUNK);
	if (!r.chunk) {
		ret = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		goto out;
	}
	if ((ret = check_header(&r)))
		goto out;
	if ((ret = walk(&r)))
		goto out;
	st->end = r.off;
	total = lseek(in_fd, 0, SEEK_END);
	st->cut_bytes = total > 0 && (uint64_t)total > r.off ? (uint64_t)total - r.off : 0;
	if ((ret = start_output(&r)))
		goto out;
	/* a data section of size 0 means "not finished" to perf and the
	 * reader: a recording with no record gets one FINISHED_ROUND */
	if (!st->records && !r.used) {
		/* perf_event_header in this machine's byte order */
		static const struct { uint32_t type; uint16_t misc, size; } round = { PD_REC_FINISHED_ROUND, 0, 8 };

		memcpy(r.chunk, &round, sizeof(round));
		r.used = sizeof(round);
	}
	if ((ret = flush_chunk(&r)))
		goto out;
	ret = pd_writer_finish(&r.w, err);
	st->write_failed = ret != 0;
	if (!ret)
		ret = read_back(out_fd, st, err);
out:
	meta_free(&r.m);
	free(r.chunk);
	return ret;
}
