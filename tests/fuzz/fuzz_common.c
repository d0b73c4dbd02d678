/* fuzz_common.c - helpers the libFuzzer targets share (see fuzz.h). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "fuzz.h"
#include "perfdata/pd_session.h"
#include "tracepoint/tp_fastfmt.h"
#include "tracepoint/tp_decoder.h"

/* libtraceevent's log hook: format the message (so its format strings run
 * under the sanitizers too) and drop it. */
int tep_vprint(const char *name, enum tep_loglevel level, bool print_err,
	       const char *fmt, va_list ap)
{
	char buf[512];

	(void)name; (void)level; (void)print_err;
	return vsnprintf(buf, sizeof(buf), fmt, ap);
}

int fz_memfd(const uint8_t *data, size_t size)
{
	static int fd = -1;

	if (fd < 0)
		fd = memfd_create("fuzz-input", 0);
	if (fd < 0 || ftruncate(fd, 0) || (size && pwrite(fd, data, size, 0) != (ssize_t)size) ||
	    lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return dup(fd);
}

int fz_pipe(const uint8_t *data, size_t size)
{
	int p[2];

	if (pipe(p))
		abort();
	if ((size_t)fcntl(p[1], F_SETPIPE_SZ, 1 << 20) < size ||
	    (size && write(p[1], data, size) != (ssize_t)size)) {
		close(p[0]);
		close(p[1]);
		return -1;
	}
	close(p[1]);
	return p[0];
}

/* ---- field conversion ---- */

static struct trace_seq seq;
static int seq_ready;

/* A number tp_read_int gave must be the bytes of element @k in the
 * recording's byte order (little-endian, or big when the field says the
 * file's is not ours), sign-extended exactly when the field is signed. */
static void check_number(const struct tp_field *f, const unsigned char *raw, size_t size,
			 int k, uint64_t v)
{
	int esz = f->kind == TP_ARRAY ? f->elem_size : f->size;
	long off = (long)f->offset + (long)k * esz;
	uint64_t want = 0;

	if (off < 0 || (size_t)off + (size_t)esz > size || esz < 1 || esz > 8)
		abort();      /* read outside the record, or a size no number has */
	for (int b = esz - 1; b >= 0; b--)
		want = want << 8 | raw[off + (f->swap ? esz - 1 - b : b)];
	if (f->is_signed && esz < 8 && (want >> (esz * 8 - 1)) & 1)
		want |= ~0ULL << (esz * 8);
	if (v != want)
		abort();
}

void fz_fields(struct tep_event *ev, const unsigned char *raw, size_t size, size_t cap,
	       int checked)
{
	struct tp_decoder *d;
	struct tpf_prog *prog;
	char *out;
	int n;

	if (tp_decoder_new(&d, ev))
		return;
	for (size_t i = 0; i < d->nr; i++) {
		const struct tp_field *f = &d->fields[i];
		const unsigned char *p;
		volatile uint64_t sink = 0;
		uint64_t v;
		size_t len;

		switch (f->kind) {
		case TP_INT:
		case TP_UINT:
			if (!tp_read_int(f, raw, size, 0, &v))
				check_number(f, raw, size, 0, v);
			break;
		case TP_ARRAY:
			for (int k = 0; k < f->count; k++)
				if (!tp_read_int(f, raw, size, k, &v))
					check_number(f, raw, size, k, v);
			break;
		case TP_STRING:
		case TP_BYTES:
			if (tp_read_bytes(f, raw, size, &p, &len))
				break;
			if (p < raw || len > size || p + len > raw + size)
				abort();      /* a read outside the record */
			if (f->kind == TP_STRING && tp_printable(p, len))
				sink += strnlen((const char *)p, len);
			for (size_t k = 0; k < len; k++)
				sink += p[k];
			break;
		}
		(void)sink;
	}
	(void)tp_common_int(raw, size, d->off_flags, 1, 0, d->swap);
	(void)tp_common_int(raw, size, d->off_preempt, 1, 0, d->swap);
	(void)tp_common_int(raw, size, d->off_lock_depth, 4, 1, d->swap);
	tp_decoder_free(d);

	if (!seq_ready) {
		trace_seq_init(&seq);
		seq_ready = 1;
	}
	prog = tpf_compile(ev);
	out = malloc(cap ? cap : 1);
	n = prog && out ? tpf_render(prog, raw, (int)size, out, cap) : -1;
	if (n > (int)cap)
		abort();
	if (checked) {
		struct tep_record rec;

		memset(&rec, 0, sizeof(rec));
		rec.size = (int)size;
		rec.data = (void *)raw;
		trace_seq_reset(&seq);
		tep_print_event(ev->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		/* libtraceevent prints the event the record's common_type names */
		if (n >= 0 && tep_data_type(ev->tep, &rec) == ev->id &&
		    (seq.len != (unsigned)n || memcmp(seq.buffer, out, (size_t)n))) {
			fprintf(stderr, "tpf_render differs from tep_print_event for %s:%s\n"
				"  fast: '%.*s'\n  tep:  '%.*s'\n", ev->system, ev->name, n, out,
				(int)seq.len, seq.buffer);
			abort();
		}
	}
	free(out);
	tpf_free(prog);
}

/* ---- a consumer doing what trace-report does with every sample ---- */

static int on_sample(void *ctx, const struct pd_event *ev)
{
	const struct pd_sample *smp = ev->sample;
	volatile size_t sink = strlen(ev->comm) + strlen(ev->evsel->name);

	(void)ctx; (void)sink;
	for (uint64_t i = 0; i < smp->nr_callchain; i++)
		sink += smp->callchain[i * 8];
	/* an exact-size copy: a field read past the raw data is an ASan
	 * report, not a quiet read of the next record in the input buffer */
	if (ev->evsel->tp && smp->raw) {
		unsigned char *raw = malloc(smp->raw_size ? smp->raw_size : 1);

		if (!raw)
			return 0;
		memcpy(raw, smp->raw, smp->raw_size);
		fz_fields(ev->evsel->tp, raw, smp->raw_size, 8192, 1);
		/* what trace-report prints: the record's own event (a READ
		 * group member's delivery carries its leader's record) */
		if (ev->raw_evsel->dec) {
			char buf[256];
			const char *text;
			long n = tp_render(ev->raw_evsel->dec, raw, smp->raw_size, smp->cpu, buf,
					   sizeof(buf), &text);

			for (long k = 0; k < n; k++)
				sink += (unsigned char)text[k];
		}
		free(raw);
	}
	return 0;
}

static struct pd_consumer consumer = { .sample = on_sample };

struct pd_consumer *fz_consumer(void)
{
	return &consumer;
}
