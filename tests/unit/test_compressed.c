/* test_compressed.c - PERF_RECORD_COMPRESSED (common/perfdata/pd_compressed.h): the
 * writer's records read back through pd_session, a record straddling two
 * COMPRESSED records, the decompressed-size bound, damaged zstd bytes, a
 * record that decompresses to nothing (refused, as perf refuses it), barely
 * compressible bytes (each record still gives some); and,
 * as root with perf installed, perf script reading the file we wrote. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <fcntl.h>
#include <unistd.h>
#include "perfdata/pd_compressed.h"
#include "perfdata/pd_format.h"
#include "perfdata/pd_session.h"
#include "record/pd_writer.h"
#include "unit.h"

struct times { uint64_t t[1024]; size_t n; };

static int on_sample(void *ctx, const struct pd_event *ev)
{
	struct times *x = ctx;

	if (x->n < 1024)
		x->t[x->n] = ev->sample->time;
	x->n++;
	return 0;
}

/* read @path through pd_session: 0 and the sample times, or the error */
static int read_back(const char *path, struct times *x, struct tb_err *err)
{
	struct pd_consumer c = { .ctx = x, .sample = on_sample };
	struct pd_session *s;
	int fd = open(path, O_RDONLY), r;

	memset(x, 0, sizeof(*x));
	memset(err, 0, sizeof(*err));
	if ((r = pd_session_open(&s, path, fd, err)))
		return r;
	r = pd_session_process(s, &c, err);
	pd_session_close(s);
	return r;
}

static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long len;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	len = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc((size_t)len);
	if (p && fread(p, 1, (size_t)len, f) != (size_t)len) {
		free(p);
		p = NULL;
	}
	fclose(f);
	*n = (size_t)len;
	return p;
}

/* COMPRESSED records of @data in two batches: @split 0, at a record's
 * end; 1, 13 bytes into a record, which then straddles two COMPRESSED
 * records; 2, as 0, then the first COMPRESSED record's zstd bytes cut in
 * two records, the first of which decompresses to nothing. */
static void compress_data(const unsigned char *data, size_t n, int split, struct bytebuf *out)
{
	struct pd_comp c;
	struct tb_err err;
	size_t half = 0;

	while (half < n / 2)
		half += pd_u16(data + half + 6);
	if (split == 1)
		half += 13;
	T(pd_comp_init(&c, 3, &err) == 0, "pd_comp_init level 3");
	T(pd_comp_records(&c, data, half, out, &err) == 0 &&
	  pd_comp_records(&c, data + half, n - half, out, &err) == 0 && !out->oom,
	  "pd_comp_records: %zu bytes of records in two batches", n);
	if (split == 2) {
		size_t sz = pd_u16(out->p + 6), cut = (sz - 8) / 2;
		struct bytebuf b = { 0 };
		unsigned char h[8];
		uint16_t a = (uint16_t)(8 + cut), z = (uint16_t)(sz - cut);

		memcpy(h, out->p, 8);
		memcpy(h + 6, &a, 2);
		bb_put(&b, h, 8);
		bb_put(&b, out->p + 8, cut);
		memcpy(h + 6, &z, 2);
		bb_put(&b, h, 8);
		bb_put(&b, out->p + 8 + cut, out->len - 8 - cut);
		bb_free(out);
		*out = b;
	}
	pd_comp_free(&c);
}

/* Write the fixture's attrs, tracing data and records, compressed, with pd_writer. */
static int write_compressed(const char *fixture, const char *path, int split)
{
	size_t n, nfeat = 0;
	unsigned char *f = slurp(fixture, &n), comp_feat[PD_COMP_FEATURE_SIZE];
	struct pd_wattr attrs[8];
	struct pd_wfeature feats[2];
	struct pd_session *s = NULL;
	struct pd_writer w;
	struct bytebuf out = { 0 };
	struct tb_err err;
	struct iovec iov;
	uint64_t doff, dsize, idx;
	struct pd_comp c = { .level = 3 };
	int fd, r = -1;

	if (!f)
		return -1;
	doff = pd_u64(f + 40);
	dsize = pd_u64(f + 48);
	idx = doff + dsize;              /* TRACING_DATA is the first index entry */
	fd = open(fixture, O_RDONLY);
	if (pd_session_open(&s, fixture, fd, &err))
		goto out;
	for (size_t i = 0; i < pd_session_nr_evsels(s) && i < 8; i++) {
		const struct pd_evsel *e = pd_session_evsel(s, i);

		memset(&attrs[i], 0, sizeof(attrs[i]));
		memcpy(attrs[i].attr, e->raw, 128);
		attrs[i].ids = e->ids;
		attrs[i].nr_ids = e->nr_ids;
		attrs[i].name = e->name;
	}
	feats[nfeat++] = (struct pd_wfeature){ PD_FEAT_TRACING_DATA, f + pd_u64(f + idx),
					       pd_u64(f + idx + 8) };
	compress_data(f + doff, dsize, split, &out);
	c.bytes_in = dsize;
	c.bytes_out = out.len;
	pd_comp_feature(comp_feat, &c, 528384);
	feats[nfeat++] = (struct pd_wfeature){ PD_FEAT_COMPRESSED, comp_feat, sizeof(comp_feat) };
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	iov = (struct iovec){ out.p, out.len };
	r = fd < 0 || pd_writer_start(&w, fd, 0, attrs, pd_session_nr_evsels(s), feats, nfeat, &err) ||
	    pd_writer_write(&w, &iov, 1, &err) || pd_writer_finish(&w, &err);
	if (fd >= 0)
		close(fd);
out:
	pd_session_close(s);
	bb_free(&out);
	free(f);
	return r ? -1 : 0;
}

static void test_round_trip(const char *top)
{
	char fixture[4096], path[] = "/tmp/tracebox-comp-XXXXXX";
	struct times plain, z;
	struct tb_err err;
	int fd = mkstemp(path), r;

	snprintf(fixture, sizeof(fixture), "%s/tests/files/small.data", top);
	close(fd);
	r = read_back(fixture, &plain, &err);
	T(r == 0 && plain.n > 100, "the fixture reads: %zu samples", plain.n);
	for (int split = 0; split < 3; split++) {
		T(write_compressed(fixture, path, split) == 0, "pd_writer wrote the records compressed%s",
		  split == 1 ? ", a record straddling two COMPRESSED records" :
		  split == 2 ? ", the first COMPRESSED record's zstd bytes cut in two" : "");
		r = read_back(path, &z, &err);
		if (split == 2) {
			/* perf 6.1: "Couldn't decompress data" */
			T(r != 0 && strstr(err.msg, "decompresses to nothing"),
			  "a COMPRESSED record that decompresses to nothing: refused (%s)", err.msg);
			continue;
		}
		T(r == 0, "the compressed file reads back (%s)", err.msg);
		T(z.n == plain.n && !memcmp(z.t, plain.t, sizeof(z.t)),
		  "%s: the same %zu samples in the same order", split ? "straddling" : "whole", z.n);
		if (getuid() == 0 && access("/usr/bin/perf", X_OK) == 0) {
			char cmd[256];
			FILE *p;
			size_t lines = 0;
			int ch;

			snprintf(cmd, sizeof(cmd), "perf script -i %s 2>/dev/null", path);
			p = popen(cmd, "r");
			while (p && (ch = fgetc(p)) != EOF)
				lines += ch == '\n';
			T(p && pclose(p) == 0 && lines == plain.n,
			  "perf script reads the file pd_comp_records wrote: %zu lines", lines);
		}
	}
	unlink(path);
}

/* bytes that barely compress (zstd blocks near 128 KiB): still every
 * COMPRESSED record the writer makes decompresses to something, as perf
 * requires of each; all of them to the bytes given */
static void test_incompressible(void)
{
	size_t n = 1 << 20, recs = 0, bad = 0;
	unsigned char *src = malloc(n);
	struct bytebuf out = { 0 };
	struct pd_decomp d;
	struct pd_comp c;
	struct tb_err err;
	uint64_t x = 88172645463325252ULL;
	int r;

	for (size_t i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;        /* xorshift64 */
		src[i] = (unsigned char)(i % 3 ? x : x & 15);
	}
	r = pd_comp_init(&c, 1, &err) || pd_comp_records(&c, src, n, &out, &err);
	T(r == 0, "1 MiB of barely compressible bytes: %zu bytes of records", out.len);
	pd_decomp_init(&d, 0);
	for (size_t o = 0; o + 8 <= out.len; o += pd_u16(out.p + o + 6), recs++)
		bad += pd_decomp_feed(&d, out.p + o + 8, pd_u16(out.p + o + 6) - 8u, o, &err) != 0;
	T(recs > 16 && !bad, "each of %zu COMPRESSED records decompresses to something (%zu not)",
	  recs, bad);
	T(d.len == n && !memcmp(d.buf, src, n), "together, the bytes given (%zu)", d.len);
	pd_decomp_free(&d);
	pd_comp_free(&c);
	bb_free(&out);
	free(src);
}

static void test_bounds(void)
{
	struct pd_decomp d;
	struct pd_comp c;
	struct bytebuf out = { 0 };
	struct tb_err err;
	const unsigned char *rec;
	size_t n, big = PD_DECOMP_MAX + 8;
	unsigned char *zeros = calloc(1, big), junk[64];
	int r;

	/* 64 MiB + 8 zero bytes compress to a few KiB: a hostile record's worth */
	r = pd_comp_init(&c, 1, &err) || pd_comp_records(&c, zeros, big, &out, &err);
	T(r == 0, "64 MiB + 8 zero bytes compress to %zu bytes", out.len);
	/* all the payloads in one feed: one record's worth of hostile bytes */
	{
		struct bytebuf all = { 0 };

		for (size_t o = 0; o < out.len; o += pd_u16(out.p + o + 6))
			bb_put(&all, out.p + o + 8, pd_u16(out.p + o + 6) - 8u);
		pd_decomp_init(&d, 0);
		r = pd_decomp_feed(&d, all.p, all.len, 0, &err);
		bb_free(&all);
	}
	T(r == TB_ERR_FORMAT && strstr(err.msg, "more than 67108864 bytes"),
	  "no mmap_len: a record giving more than 64 MiB is refused (%s)", err.msg);
	T(d.cap <= PD_DECOMP_MAX + 1, "the buffer never grew past the bound (%zu)", d.cap);
	pd_decomp_free(&d);

	pd_decomp_init(&d, 4096);
	T(d.limit == 4096, "mmap_len 4096 is the bound");
	r = pd_decomp_feed(&d, out.p + 8, pd_u16(out.p + 6) - 8u, 0, &err);
	T(r == TB_ERR_FORMAT && d.cap <= 4097, "mmap_len 4096: more is refused (%s)", err.msg);
	pd_decomp_free(&d);
	pd_comp_free(&c);

	/* records: a size below 8 is refused; a cut record waits for more */
	bb_free(&out);
	T(pd_comp_init(&c, 1, &err) == 0, "a second stream");
	{
		unsigned char recs[24] = { U32(68), U16(0), U16(8), U32(68), U16(0), U16(16) };

		pd_comp_records(&c, recs, 16, &out, &err);
		pd_decomp_init(&d, 0);
		T(pd_decomp_feed(&d, out.p + 8, out.len - 8, 0, &err) == 0, "16 bytes decompress");
		T(pd_decomp_next(&d, &rec, &n, 0, &err) == 1 && n == 8, "the 8-byte record");
		T(pd_decomp_next(&d, &rec, &n, 0, &err) == 0 && pd_decomp_pending(&d) == 8,
		  "the 16-byte record has 8 bytes: kept for the next feed");
		pd_decomp_free(&d);
	}
	pd_comp_free(&c);
	bb_free(&out);
	{
		unsigned char recs[8] = { U32(68), U16(0), U16(4) };

		T(pd_comp_init(&c, 1, &err) == 0 && pd_comp_records(&c, recs, 8, &out, &err) == 0,
		  "a record of size 4 compresses");
		pd_decomp_init(&d, 0);
		T(pd_decomp_feed(&d, out.p + 8, out.len - 8, 0x40, &err) == 0 &&
		  pd_decomp_next(&d, &rec, &n, 0x40, &err) == TB_ERR_FORMAT &&
		  strstr(err.msg, "has size 4"), "header.size 4 inside: refused (%s)", err.msg);
		pd_decomp_free(&d);
		pd_comp_free(&c);
		bb_free(&out);
	}

	for (size_t i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)(i * 37 + 11);
	pd_decomp_init(&d, 0);
	T(pd_decomp_feed(&d, junk, sizeof(junk), 0x80, &err) == TB_ERR_FORMAT &&
	  strstr(err.msg, "zstd: "), "bytes that are not zstd: refused (%s)", err.msg);
	pd_decomp_free(&d);
	free(zeros);
}

int main(void)
{
	const char *top = getenv("TOP");

	test_round_trip(top ? top : ".");
	test_bounds();
	test_incompressible();
	return done();
}
