/* pd_records.c - read the records of a session, order them as perf script
 * does, keep thread names, and hand samples to the consumer.
 * Rules: perf-data-format.md sections 4, 6, 7 and 8. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "perfdata/pd_pipeline.h"
#include "perfdata/pd_records.h"
#include "perfdata/pd_swap.h"
#include "symbols/symbols.h"
#include "tracepoint/tp_decoder.h"

#define MAX_TRACEDATA   (256u << 20)

static int bad(struct pd_session *s, uint64_t off, const char *what, unsigned long long v)
{
	return tb_err_set(PD_ERR(s), TB_ERR_FORMAT, off, "%s (%llu)", what, v);
}

/* ---- pipe-mode HEADER_* records ---- */

static int header_attr(struct pd_session *s, const unsigned char *rec, size_t size,
		       uint64_t off)
{
	const unsigned char *attr = rec + PD_EVENT_HEADER;
	size_t avail = size - PD_EVENT_HEADER, alen, nr_ids;
	uint32_t asz;
	uint64_t *ids = NULL;
	int r;

	if (avail < PD_ATTR_SIZE_VER0)
		return bad(s, off, "HEADER_ATTR record too short for an attr", size);
	asz = pd_u32(attr + PD_ATTR_OFF_SIZE);
	asz = asz ? asz : PD_ATTR_SIZE_VER0;
	if (asz > avail)
		return bad(s, off, "HEADER_ATTR attr.size runs past the record", asz);
	nr_ids = (avail - asz) / 8;
	if (nr_ids) {
		ids = malloc(nr_ids * 8);
		if (!ids)
			return TB_ERR_NOMEM;
		memcpy(ids, attr + asz, nr_ids * 8);
	}
	r = pd_session_add_attr(s, attr, avail, off + PD_EVENT_HEADER, ids, nr_ids, &alen,
				PD_ERR(s));
	free(ids);
	if (!r)        /* the new attr alone: one per HEADER_ATTR would be quadratic */
		pd_session_resolve_names_from(s, s->nr_evsels - 1);
	return r;
}

static int header_feature(struct pd_session *s, const unsigned char *rec, size_t size,
			  uint64_t off)
{
	uint64_t feat;

	if (size < 16)
		return bad(s, off, "HEADER_FEATURE record too short", size);
	feat = pd_u64(rec + 8);
	/* perf 6.1 fails on these ("invalid record type"); skip and say so */
	if (feat != PD_FEAT_LAST_PERF && feat < PD_FEAT_BITS && !pd_feature_known((int)feat))
		s->stats.skipped_features[feat / 64] |= 1ULL << (feat % 64);
	if (feat >= PD_FEAT_BITS)
		return 0;
	s->features[feat / 64] |= 1ULL << (feat % 64);
	return pd_session_feature(s, (int)feat, rec + 16, size - 16, off + 16, PD_ERR(s));
}

static int header_tracing_data(struct pd_session *s, const unsigned char *rec, size_t size,
			       uint64_t off)
{
	uint32_t tsize;
	size_t padded;
	unsigned char *buf;
	int r;

	if (size < 16)
		return bad(s, off, "HEADER_TRACING_DATA record too short", size);
	tsize = pd_u32(rec + 8);
	if (tsize > MAX_TRACEDATA)
		return bad(s, off + 8, "tracing data size is absurd", tsize);
	padded = ((size_t)tsize + 7) & ~(size_t)7;
	pd_in_consume(&s->in, size);
	buf = malloc(padded ? padded : 1);
	if (!buf)
		return TB_ERR_NOMEM;
	r = pd_in_read(&s->in, buf, padded, PD_ERR(s));
	if (!r)
		r = pd_session_set_tracing_data(s, buf, tsize, off + size, PD_ERR(s));
	free(buf);
	return r;
}

/* ---- reading one record ---- */

/* An unfinished recording ends at @off: a record cut by SIGKILL or a full
 * disk, or (killed while finishing) the start of the feature index. */
static int cut_tail(struct pd_session *s, uint64_t off)
{
	s->stats.cut_off = off;
	s->stats.cut_bytes = s->file_size != UINT64_MAX && s->file_size > off ?
			     s->file_size - off : 0;
	return 0;
}

/* Peek the next whole record. Returns 1 with rec, size and off set, 0 at a
 * clean end, or an error. The record stays in the buffer until consumed. */
static int next_record(struct pd_session *s, const unsigned char **rec, size_t *size,
		       uint64_t *off)
{
	const unsigned char *p;
	size_t avail;
	uint32_t type;
	uint16_t sz;

	*off = s->in.pos;
	s->stats.cut_off = *off;
	p = pd_in_peek(&s->in, PD_EVENT_HEADER, &avail, PD_ERR(s));
	if (!p) {
		if (PD_ERR(s) && PD_ERR(s)->code)
			return PD_ERR(s)->code;
		if (avail == 0)
			return 0;
		if (s->stats.unfinished)
			return cut_tail(s, *off);
		return tb_err_set(PD_ERR(s), TB_ERR_TRUNCATED, *off,
				  "record header needs 8 bytes, %zu left", avail);
	}
	sz = s->swapped ? __builtin_bswap16(pd_u16(p + 6)) : pd_u16(p + 6);
	type = s->swapped ? __builtin_bswap32(pd_u32(p)) : pd_u32(p);
	if (sz < PD_EVENT_HEADER && s->stats.unfinished)
		return cut_tail(s, *off);
	if (sz < PD_EVENT_HEADER)
		return tb_err_set(PD_ERR(s), TB_ERR_FORMAT, *off,
				  "record type %u has size %u, smaller than its header",
				  type, sz);
	p = pd_in_peek(&s->in, sz, &avail, PD_ERR(s));
	if (!p) {
		if (PD_ERR(s) && PD_ERR(s)->code)
			return PD_ERR(s)->code;
		if (s->stats.unfinished)
			return cut_tail(s, *off);
		return tb_err_set(PD_ERR(s), TB_ERR_TRUNCATED, *off,
				  "record type %u of %u bytes runs past the end of the data "
				  "(%zu bytes left)", type, sz, avail);
	}
	if (s->swapped) {                 /* a native copy (pd_swap.h) */
		pd_swap_record(s, p, sz, s->swapbuf);
		p = s->swapbuf;
	}
	*rec = p;
	*size = sz;
	return 1;
}

static int user_record(struct pd_session *s, const unsigned char *rec, size_t size,
		       uint64_t off, uint32_t type, int *consumed);

int pd_session_read_pipe_headers(struct pd_session *s, struct tb_err *err)
{
	const unsigned char *rec;
	size_t size;
	uint64_t off;
	int r, consumed;

	s->err = err;
	while ((r = next_record(s, &rec, &size, &off)) == 1) {
		uint32_t type = pd_u32(rec);

		if (type == PD_REC_HEADER_ATTR)
			r = header_attr(s, rec, size, off);
		else if (type == PD_REC_HEADER_FEATURE)
			r = header_feature(s, rec, size, off);
		else if (type == PD_REC_HEADER_TRACING_DATA)
			r = header_tracing_data(s, rec, size, off);
		else if (type == PD_REC_EVENT_UPDATE)
			r = user_record(s, rec, size, off, type, &consumed);
		else
			return 0;      /* the first data record: leave it for process() */
		/* the tracing data's payload left the input, its record did not
		 * leave the buffer (pd_in_read reads past it) */
		if (!r && s->tap)
			r = s->tap(s->tap_ctx, s, rec, size, off);
		if (r)
			return r;
		s->stats.nr_total++;
		s->stats.nr_records[type]++;
		if (type != PD_REC_HEADER_TRACING_DATA)
			pd_in_consume(&s->in, size);
	}
	return r;
}

/* ---- delivery ---- */

static struct pd_evsel *evsel_of(struct pd_session *s, const unsigned char *rec, size_t size,
				 uint32_t type, uint64_t off, int *err)
{
	struct pd_evsel *e;
	uint64_t id = 0;

	*err = 0;
	if (s->nr_evsels == 0) {
		*err = tb_err_set(PD_ERR(s), TB_ERR_FORMAT, off, "record before any attr");
		return NULL;
	}
	if (s->nr_evsels == 1)
		return &s->evsels[0];
	if (type == PD_REC_SAMPLE) {
		size_t at = PD_EVENT_HEADER + (size_t)s->id_pos * 8;

		if (s->id_pos < 0) {
			*err = tb_err_set(PD_ERR(s), TB_ERR_FORMAT, off, "sample of a stream of %zu "
					  "attrs that carry no ID: its attr is unknown", s->nr_evsels);
			return NULL;
		}

		if (size < at + 8) {
			*err = tb_err_set(PD_ERR(s), TB_ERR_TRUNCATED, off,
					  "sample of %zu bytes too short for its id", size);
			return NULL;
		}
		id = pd_u64(rec + at);
	} else if (s->sample_id_all) {
		if (size < PD_EVENT_HEADER + (size_t)s->is_pos * 8) {
			*err = tb_err_set(PD_ERR(s), TB_ERR_TRUNCATED, off,
					  "record type %u of %zu bytes too short for its "
					  "sample_id", type, size);
			return NULL;
		}
		id = pd_u64(rec + size - (size_t)s->is_pos * 8);
	} else {
		return &s->evsels[0];
	}
	e = pd_session_id2evsel(s, id);
	if (!e)
		*err = tb_err_set(PD_ERR(s), TB_ERR_FORMAT, off,
				  "record type %u has id %llu, which is in no attr's id list",
				  type, (unsigned long long)id);
	return e;
}

/* Fixed body sizes (header included) of the kernel records we act on. */
static size_t body_min(uint32_t type)
{
	switch (type) {
	case PD_REC_COMM:         return 16 + 1;
	case PD_REC_FORK:
	case PD_REC_EXIT:         return 8 + 24;
	case PD_REC_LOST:         return 8 + 16;
	case PD_REC_LOST_SAMPLES: return 8 + 8;
	default:                  return 8;
	}
}

/* A cpu number no machine has: NR_CPUS is at most 8192 on every
 * architecture of Linux 6.x, the bound leaves room above that; perf 6.1
 * crashes on a sample of cpu 16056320 (here past about 1.17 million: a
 * stack of that size). (u32)-1 is "no cpu", as for perf. */
#define MAX_CPU 65536

/* a cpu a machine can have, or none (-1) */
static int cpu_possible(int32_t cpu)
{
	return cpu == -1 || (uint32_t)cpu < MAX_CPU;
}

static int check_cpu(struct pd_session *s, const struct pd_sample *smp, uint32_t type,
		     uint64_t off)
{
	if (cpu_possible(smp->cpu))
		return 0;
	return tb_err_set(PD_ERR(s), TB_ERR_FORMAT, off, "record type %u: cpu %u is past any "
			  "machine's (at most %u)", type, (uint32_t)smp->cpu, MAX_CPU - 1);
}

/* Decode @rec into @smp: the sample, or the trailer of another record. */
static int decode(struct pd_session *s, const struct pd_evsel *e, const unsigned char *rec,
		  size_t size, uint32_t type, uint64_t off, struct pd_sample *smp)
{
	int r;

	if (type == PD_REC_SAMPLE) {
		r = pd_sample_decode(&e->sattr, rec, size, off, smp, PD_ERR(s));
		return r ? r : check_cpu(s, smp, type, off);
	}
	if (size < body_min(type))
		return tb_err_set(PD_ERR(s), TB_ERR_TRUNCATED, off,
				  "record type %u of %zu bytes is shorter than its body (%zu)",
				  type, size, body_min(type));
	if (s->sample_id_all &&
	    pd_trailer_parse(e->sample_type, rec, size, body_min(type), smp))
		return tb_err_set(PD_ERR(s), TB_ERR_TRUNCATED, off,
				  "record type %u of %zu bytes has no room for its sample_id",
				  type, size);
	if (!s->sample_id_all)
		pd_sample_init(smp);
	return check_cpu(s, smp, type, off);
}

/* perf builds its kernel map, and so resolves kernel addresses, from the
 * MMAP of "[kernel.kallsyms]" that perf record writes. */
static int is_kernel_mmap(const unsigned char *rec, size_t size, uint32_t type)
{
	static const char name[] = "[kernel.kallsyms]";
	size_t at = type == PD_REC_MMAP ? 40 : 72;

	return (pd_u16(rec + 4) & 7) == 1 && size >= at + sizeof(name) - 1 &&
	       !memcmp(rec + at, name, sizeof(name) - 1);
}

/* A tracepoint sample's RAW must pass its decoder's checks: libtraceevent
 * and the engines may then read fields without further checks. */
static int check_raw(struct pd_session *s, struct pd_evsel *e, const struct pd_sample *smp,
		     uint64_t off)
{
	/* a record laid out without RAW (a READ group's member led by an
	 * event that is no tracepoint): nothing to read, perf prints the
	 * event with no fields */
	if (!smp->raw)
		return 0;
	if (!e->tp)
		return pd_session_check_formats(s, off, PD_ERR(s));
	if (e->bad_format)
		return tb_err_set(PD_ERR(s), TB_ERR_TRACEDATA, off, "%s: its format in the tracing data "
				  "does not parse (a field line libtraceevent cannot read)", e->name);
	if (!e->dec)
		return tb_err_set(PD_ERR(s), TB_ERR_NOMEM, off, "out of memory for %s's decoder",
				  e->name);
	return tp_decoder_check(e->dec, smp->raw, smp->raw_size, e->name, off, PD_ERR(s));
}

/* The attr whose record a sample delivered to @e is: @of, the sample's own
 * attr, when both are tracepoints (a READ group member's delivery carries
 * its leader's record, which perf prints as the event its raw data names),
 * else @e. */
static struct pd_evsel *record_attr(struct pd_evsel *e, struct pd_evsel *of)
{
	return e->type == PD_TYPE_TRACEPOINT && of->type == PD_TYPE_TRACEPOINT ? of : e;
}

/*
 * A sample's hint (pd_order.h) from its reading to its delivery: the index
 * + 1 of the attr its id named then, and whether its raw data passed its
 * decoder's checks then. Attrs are only added: while their count is the
 * one the data began with (hint_attrs), an id names the attr it named;
 * and a decoder once attached stays (pd_session.c).
 */
#define HINT_EVSEL  0x00ffffffu
#define HINT_RAW_OK 0x80000000u
#define HINT_SKIP   0x40000000u   /* the consumer wants none of its attr's samples */

/* Reader: the hint of a sample of @e, its raw data @raw (or NULL) */
static uint32_t sample_hint(const struct pd_session *s, const struct pd_evsel *e,
			    const unsigned char *raw, uint32_t raw_size)
{
	size_t idx = (size_t)(e - s->evsels);
	uint32_t h;

	if (s->nr_evsels != s->hint_attrs || idx >= HINT_EVSEL)
		return 0;
	h = (uint32_t)idx + 1;
	/* a failure is not said here: the delivery checks again and says it */
	if (e->type == PD_TYPE_TRACEPOINT && e->tp && e->dec && !e->bad_format && raw &&
	    !tp_decoder_check(e->dec, raw, raw_size, e->name, 0, NULL))
		h |= HINT_RAW_OK;
	/* passed over only where its delivery would have found nothing wrong */
	if (e->unwanted && (e->type != PD_TYPE_TRACEPOINT || (h & HINT_RAW_OK)))
		h |= HINT_SKIP;
	return h;
}

/* Consumer: a sample of an attr the consumer wants none of (HINT_SKIP):
 * what its delivery does besides calling the consumer, done */
static int pass_over(struct pd_session *s, const struct pd_evsel *e, const unsigned char *rec)
{
	int32_t pid, tid;

	s->nr_delivered++;
	pd_sample_tid(&e->sattr, rec, &pid, &tid);
	return pd_threads_comm(&s->threads, pid, tid) ? 0 : TB_ERR_NOMEM;
}

/* Consumer: the attr @hint names while it holds, else NULL */
static struct pd_evsel *hinted(struct pd_session *s, uint32_t hint)
{
	uint32_t i = hint & HINT_EVSEL;

	return i && s->nr_evsels == s->hint_attrs && i <= s->nr_evsels ? &s->evsels[i - 1] : NULL;
}

/* A sample of @of's record to @e (@of itself but for a group member's
 * READ delivery); @raw_ok: the raw data passed its checks as it was read
 * (sample_hint) */
static int deliver_sample(struct pd_session *s, struct pd_evsel *e, struct pd_evsel *of,
			  const struct pd_sample *smp, const unsigned char *rec, size_t size,
			  uint64_t off, int raw_ok)
{
	struct pd_evsel *rec_of = record_attr(e, of);
	struct pd_event ev = { .evsel = e, .raw_evsel = rec_of, .sample = smp, .file_offset = off,
			       .rec = rec, .rec_size = size,
			       .index = s->nr_delivered++, .misc = pd_u16(rec + 4) };
	struct pd_sample whole;
	int r;

	/* checked as what is rendered: a member's fields read from its
	 * leader's record stay inside it by their own bounds (tp_fields.c,
	 * ec_field), and perf 6.1 refuses no such group */
	if (e->type == PD_TYPE_TRACEPOINT && !raw_ok && (r = check_raw(s, rec_of, smp, off)))
		return r;
	if ((r = pd_session_unwound(s, smp, &whole)) < 0)
		return r;
	if (r)
		ev.sample = &whole;
	ev.comm = pd_threads_comm(&s->threads, smp->pid, smp->tid);
	if (!ev.comm)
		return TB_ERR_NOMEM;
	ev.names_gen = s->threads.gen + s->names_gen;
	if (s->consumer && s->consumer->sample)
		return s->consumer->sample(s->consumer->ctx, &ev);
	return 0;
}

/* A sample with READ goes out once per value read, as perf's
 * deliver_sample_value does: to the attr of the value's id, with the
 * period the value grew by since that id's last sample; an id no attr
 * lists is counted, a value that did not grow is not delivered. */
static int deliver_read(struct pd_session *s, struct pd_evsel *e, struct pd_sample *smp,
			const unsigned char *rec, size_t size, uint64_t off)
{
	int group = !!(e->sattr.read_format & PD_FMT_GROUP);
	uint64_t nr = group ? smp->read_nr : 1;
	int r;

	for (uint64_t i = 0; i < nr; i++) {
		const unsigned char *v = group ? smp->read_values + i * smp->read_value_size : NULL;
		uint64_t value = v ? pd_u64(v) : smp->read_value;
		uint64_t id = v ? (e->sattr.read_format & PD_FMT_ID ? pd_u64(v + 8) : 0)
				: smp->read_id;
		struct pd_idslot *slot = pd_session_id2slot(s, id);

		if (!slot) {
			s->stats.nr_unknown_id++;
			continue;
		}
		smp->id = id;
		smp->period = value - slot->period;
		slot->period = value;
		if (smp->period &&
		    (r = deliver_sample(s, &s->evsels[slot->idx], e, smp, rec, size, off, 0)))
			return r;
	}
	return 0;
}

/* the end of a side-band record's body: where its sample_id begins, if it
 * has one (past @size when the record is too short for it) */
static size_t body_end(const struct pd_session *s, const struct pd_evsel *e, size_t size)
{
	return size - (s->sample_id_all ? pd_trailer_size(e->sample_type) : 0);
}

/* the name at @p, ended by its NUL or after @room bytes, into @dst (@cap
 * bytes; a longer one cut), NUL-terminated */
static void copy_name(char *dst, size_t cap, const unsigned char *p, size_t room)
{
	size_t n = strnlen((const char *)p, room);

	if (n >= cap)
		n = cap - 1;
	memcpy(dst, p, n);
	dst[n] = 0;
}

/* An MMAP or MMAP2 record, for the symbols machine. Records too short
 * for their fixed part are passed over, as is a name without its NUL
 * (cut at the record's end). */
static int sym_mmap(struct pd_session *s, const struct pd_evsel *e, const unsigned char *rec,
		    size_t size, uint32_t type)
{
	size_t at = type == PD_REC_MMAP ? 40 : 72, end = body_end(s, e, size);
	struct sym_mmap mm = { 0 };
	char name[4096];

	if (end > size || end <= at)
		return 0;
	copy_name(name, sizeof(name), rec + at, end - at);
	mm.pid = (int32_t)pd_u32(rec + 8);
	mm.tid = (int32_t)pd_u32(rec + 12);
	mm.misc = pd_u16(rec + 4);
	mm.start = pd_u64(rec + 16);
	mm.len = pd_u64(rec + 24);
	mm.pgoff = pd_u64(rec + 32);
	mm.filename = name;
	if (type == PD_REC_MMAP2) {
		mm.prot = pd_u32(rec + 64);
		mm.flags = pd_u32(rec + 68);
		if (mm.misc & PD_MISC_MMAP_BUILD_ID) {
			mm.build_id = rec + 44;
			mm.build_id_len = rec[40] > 20 ? 20 : rec[40];
		}
	}
	return sym_machine_mmap(s->sym, &mm);
}

/* A KSYMBOL record {header, addr, len (u32), ksym_type (u16), flags
 * (u16), name}, for the symbols machine. One with no room for a name byte
 * before its sample_id is passed over; a name without its NUL ends where
 * the sample_id begins. */
static int sym_ksymbol(struct pd_session *s, const struct pd_evsel *e, const unsigned char *rec,
		       size_t size)
{
	size_t end = body_end(s, e, size);
	char name[512];

	if (end > size || end <= 24)
		return 0;
	copy_name(name, sizeof(name), rec + 24, end - 24);
	return sym_machine_ksymbol(s->sym, pd_u64(rec + 8), pd_u32(rec + 16),
				   pd_u16(rec + 22) & 1, name);
}

/* HEADER_BUILD_ID records, from the feature section or a pipe: each
 * {header, pid, build_id[20], size, pad[3], filename}. */
int pd_session_buildids(struct pd_session *s, const unsigned char *buf, size_t size)
{
	size_t off = 0;

	while (size - off >= 36) {
		uint16_t misc = pd_u16(buf + off + 4), rsz = pd_u16(buf + off + 6);
		size_t idlen = 20;
		char name[4096];
		int r;

		if (rsz < 36 || rsz > size - off)
			break;
		if (misc & PD_MISC_BUILD_ID_SIZE)
			idlen = buf[off + 32] > 20 ? 20 : buf[off + 32];
		copy_name(name, sizeof(name), buf + off + 36, rsz - 36u);
		if ((r = sym_machine_buildid(s->sym, (int32_t)pd_u32(buf + off + 8), misc & 7,
					     name, buf + off + 12, idlen)))
			return r;
		off += rsz;
	}
	return 0;
}

static int take(void *ctx, const unsigned char *rec, size_t size, uint64_t off, uint32_t hint)
{
	struct pd_session *s = ctx;
	uint32_t type = pd_u32(rec);
	struct pd_sample smp;
	struct pd_evsel *e = hinted(s, hint);
	int r;

	/* a hint (samples alone have one): pd_sample_when took the sample
	 * as it was read */
	if (e && (hint & HINT_SKIP))
		return pass_over(s, e, rec);
	if (e) {
		pd_sample_decode_taken(&e->sattr, rec, &smp);
	} else {
		hint = 0;
		if (!(e = evsel_of(s, rec, size, type, off, &r)) ||
		    (r = decode(s, e, rec, size, type, off, &smp)))
			return r;
	}
	switch (type) {
	case PD_REC_SAMPLE:
		if (e->sample_type & PD_S_READ)
			return deliver_read(s, e, &smp, rec, size, off);
		return deliver_sample(s, e, e, &smp, rec, size, off, !!(hint & HINT_RAW_OK));
	case PD_REC_COMM: {
		size_t end = body_end(s, e, size);
		const char *comm = (const char *)rec + 16;

		return pd_threads_set_comm(&s->threads, (int32_t)pd_u32(rec + 8),
					   (int32_t)pd_u32(rec + 12), comm,
					   strnlen(comm, end - 16));
	}
	case PD_REC_FORK:
		if (s->sym && (r = sym_machine_fork(s->sym, (int32_t)pd_u32(rec + 8),
						    (int32_t)pd_u32(rec + 12),
						    (int32_t)pd_u32(rec + 16),
						    (int32_t)pd_u32(rec + 20),
						    !(pd_u16(rec + 4) & PD_MISC_FORK_EXEC))))
			return r;
		return pd_threads_fork(&s->threads, (int32_t)pd_u32(rec + 8),
				       (int32_t)pd_u32(rec + 16), (int32_t)pd_u32(rec + 12),
				       (int32_t)pd_u32(rec + 20));
	case PD_REC_LOST:
		s->stats.nr_lost_events += pd_u64(rec + 16);
		return 0;
	case PD_REC_LOST_SAMPLES:
		s->stats.nr_lost_samples += pd_u64(rec + 8);
		return 0;
	case PD_REC_MMAP:
	case PD_REC_MMAP2:
		if (is_kernel_mmap(rec, size, type))
			s->stats.nr_kernel_mmaps++;
		return s->sym ? sym_mmap(s, e, rec, size, type) : 0;
	case PD_REC_KSYMBOL:
		return s->sym ? sym_ksymbol(s, e, rec, size) : 0;
	case PD_REC_EXIT:
		return s->sym ? sym_machine_exit(s->sym, (int32_t)pd_u32(rec + 8),
						 (int32_t)pd_u32(rec + 16)) : 0;
	default:
		return 0;
	}
}

/* A record with its attr and decoded sample_id (or sample) to @cb. */
static int to_consumer(struct pd_session *s, const unsigned char *rec, size_t size,
		       uint64_t off, int (*cb)(void *, const struct pd_record *))
{
	struct pd_record pr = { .rec = rec, .size = size, .file_offset = off };
	struct pd_sample smp;
	int r;

	if (!(pr.evsel = evsel_of(s, rec, size, pd_u32(rec), off, &r)))
		return r;
	if ((r = decode(s, pr.evsel, rec, size, pd_u32(rec), off, &smp)))
		return r;
	pr.sample = &smp;
	return cb(s->consumer->ctx, &pr);
}

static int deliver(void *ctx, const unsigned char *rec, size_t size, uint64_t off, uint32_t hint)
{
	struct pd_session *s = ctx;
	const struct pd_consumer *c = s->consumer;
	int r = c && c->dump ? to_consumer(s, rec, size, off, c->dump) : 0;

	if (!r)
		r = take(ctx, rec, size, off, hint);
	if (!r && pd_u32(rec) != PD_REC_SAMPLE && c && c->record)
		r = to_consumer(s, rec, size, off, c->record);
	return r;
}

/* What delivering sample @smp of @e will check (deliver_sample,
 * deliver_read), checked now: a reader that copies records (s->tap) learns
 * at once whether the reader takes it. A READ sample's raw data is checked
 * against the attr of every value whose id is known. */
static int check_sample_now(struct pd_session *s, struct pd_evsel *e, const struct pd_sample *smp,
			    uint64_t off)
{
	int group = !!(e->sattr.read_format & PD_FMT_GROUP);
	uint64_t nr = group ? smp->read_nr : 1;
	int r;

	if (!(e->sample_type & PD_S_READ))
		return e->type == PD_TYPE_TRACEPOINT ? check_raw(s, e, smp, off) : 0;
	for (uint64_t i = 0; i < nr; i++) {
		const unsigned char *v = group ? smp->read_values + i * smp->read_value_size : NULL;
		uint64_t id = v ? (e->sattr.read_format & PD_FMT_ID ? pd_u64(v + 8) : 0)
				: smp->read_id;
		struct pd_idslot *slot = pd_session_id2slot(s, id);
		struct pd_evsel *to = slot ? &s->evsels[slot->idx] : NULL;

		if (to && to->type == PD_TYPE_TRACEPOINT &&
		    (r = check_raw(s, record_attr(to, e), smp, off)))
			return r;
	}
	return 0;
}

/* A record of @time into the ordering queue, or at once when it has no time. */
static int queue_by_time(struct pd_session *s, const struct pd_evsel *e,
			 const unsigned char *rec, size_t size, uint32_t type, uint64_t off,
			 uint64_t time, uint32_t hint)
{
	if (time == 0 || time == UINT64_MAX || (type != PD_REC_SAMPLE && !s->sample_id_all) ||
	    !(e->sample_type & PD_S_TIME))
		return s->emit(s->emit_ctx, rec, size, off, hint);
	return pd_order_push(&s->order, rec, size, time, off, hint);
}

/* A kernel record: its time decides whether it is queued or goes at once. */
static int kernel_record(struct pd_session *s, const unsigned char *rec, size_t size,
			 uint64_t off, uint32_t type)
{
	struct pd_sample smp;
	struct pd_evsel *e;
	int ordered = s->pipe || s->sample_id_all;
	int r;

	if (type == PD_REC_LOST)
		s->stats.nr_lost_records++;
	if (!ordered && !s->tap)
		return s->emit(s->emit_ctx, rec, size, off, 0);
	e = evsel_of(s, rec, size, type, off, &r);
	if (!e)
		return r;
	/* most samples: the time alone, their delivery decodes them */
	if (type == PD_REC_SAMPLE && !s->tap && !s->unordered &&
	    !pd_sample_when(&e->sattr, rec, size, &smp.time, &smp.cpu, &smp.raw, &smp.raw_size) &&
	    cpu_possible(smp.cpu))
		return queue_by_time(s, e, rec, size, type, off, smp.time,
				     sample_hint(s, e, smp.raw, smp.raw_size));
	if ((r = decode(s, e, rec, size, type, off, &smp)))
		return r;
	if (s->tap && type == PD_REC_SAMPLE && (r = check_sample_now(s, e, &smp, off)))
		return r;
	if (!ordered || s->unordered)
		return s->emit(s->emit_ctx, rec, size, off, 0);
	return queue_by_time(s, e, rec, size, type, off, smp.time, 0);
}

/* A record of a type neither perf 6.1 nor tracebox knows: skipped by its
 * size and counted (perf fails on it: "failed to process type"). */
static int unknown_record(struct pd_session *s, uint32_t type)
{
	struct pd_stats *st = &s->stats;
	unsigned i;

	st->nr_unknown_records++;
	for (i = 0; i < st->nr_unknown_types; i++)
		if (st->unknown_types[i] == type)
			return 0;
	if (st->nr_unknown_types < sizeof(st->unknown_types) / sizeof(st->unknown_types[0]))
		st->unknown_types[st->nr_unknown_types++] = type;
	return 0;
}

static int compressed(struct pd_session *s, const unsigned char *rec, size_t size,
		      uint64_t off);

/* EVENT_UPDATE of type NAME (perf record -o - writes one per attr): the
 * event's name, as perf script then prints it */
static int update_name(struct pd_session *s, const unsigned char *rec, size_t size)
{
	struct pd_evsel *e = pd_session_id2evsel(s, pd_u64(rec + 16));
	char *name;

	if (!e)
		return 0;
	name = strndup((const char *)rec + 24, size - 24);
	if (!name)
		return TB_ERR_NOMEM;
	free(e->name);
	e->name = name;
	s->names_gen++;
	return 0;
}

/* A STAT record: the reading of the attr its id names. */
static int stat_reading(struct pd_session *s, const unsigned char *rec, size_t size,
			uint64_t off)
{
	struct pd_evsel *e;

	if (size < 48)
		return bad(s, off, "STAT record too short", size);
	e = pd_session_id2evsel(s, pd_u64(rec + 8));
	if (!e)     /* perf: "Failed to resolve counter for stat event." */
		return bad(s, off, "STAT record of an id no attr has", pd_u64(rec + 8));
	return pd_stat_reading(&s->stat, (size_t)(e - s->evsels), rec, size, off, PD_ERR(s));
}

/* Records perf makes itself (type >= 64): handled as they are read. */
static int user_record(struct pd_session *s, const unsigned char *rec, size_t size,
		       uint64_t off, uint32_t type, int *consumed)
{
	*consumed = 0;
	switch (type) {
	case PD_REC_HEADER_ATTR:
		return header_attr(s, rec, size, off);
	case PD_REC_HEADER_FEATURE:
		return header_feature(s, rec, size, off);
	case PD_REC_HEADER_TRACING_DATA:
		*consumed = 1;
		return header_tracing_data(s, rec, size, off);
	case PD_REC_FINISHED_ROUND:
		if (s->unordered) {
			struct pd_record r = { .rec = rec, .size = size, .file_offset = off };

			return s->consumer && s->consumer->round ?
			       s->consumer->round(s->consumer->ctx, &r) : 0;
		}
		return pd_order_round(&s->order);
	case PD_REC_ID_INDEX:
		if (size < 16 || (pd_u64(rec + 8) > (size - 16) / 32))
			return bad(s, off, "ID_INDEX count does not fit its record",
				   size < 16 ? 0 : pd_u64(rec + 8));
		for (uint64_t i = 0; i < pd_u64(rec + 8); i++)
			if (!pd_session_id_known(s, pd_u64(rec + 16 + i * 32)))
				return bad(s, off + 16 + i * 32,
					   "ID_INDEX names an id that is in no attr's id list",
					   pd_u64(rec + 16 + i * 32));
		return 0;
	case PD_REC_THREAD_MAP:
		return pd_stat_thread_map(&s->stat, rec, size, off, s->nr_evsels, PD_ERR(s));
	case PD_REC_CPU_MAP:
		return pd_stat_cpu_map(&s->stat, rec, size, off, s->nr_evsels, PD_ERR(s));
	case 75:                          /* STAT_CONFIG */
		return pd_stat_config(&s->stat, rec, size, off, PD_ERR(s));
	case 76:                          /* STAT */
		return stat_reading(s, rec, size, off);
	case 77:                          /* STAT_ROUND */
		return pd_stat_round(&s->stat, rec, size, off, s->evsels, s->nr_evsels,
				     s->consumer ? s->consumer->stat_round : NULL,
				     s->consumer ? s->consumer->ctx : NULL, PD_ERR(s));
	case PD_REC_TIME_CONV:
		if (size < 8 + 40)
			return bad(s, off, "TIME_CONV record too short", size);
		return 0;
	case PD_REC_COMPRESSED:
		return compressed(s, rec, size, off);
	case PD_REC_HEADER_BUILD_ID:
		return s->sym ? pd_session_buildids(s, rec, size) : 0;
	case PD_REC_HEADER_EVENT_TYPE:
	case PD_REC_FINISHED_INIT:
	case 70: case 71: case 72:        /* AUXTRACE_INFO, AUXTRACE, AUXTRACE_ERROR */
		return 0;                 /* nothing a report needs */
	case PD_REC_EVENT_UPDATE:
		if (size >= 24 && pd_u64(rec + 8) == PD_EVENT_UPDATE_UNFINISHED && s->pipe)
			s->stats.unfinished = 1;
		if (size >= 24 && pd_u64(rec + 8) == PD_EVENT_UPDATE_SYSCALL_MAP)
			return pd_feature_parse(PD_FEAT_SYSCALL_MAP, rec + 24, size - 24, off + 24,
						&s->info, PD_ERR(s));
		if (size > 24 && pd_u64(rec + 8) == PD_EVENT_UPDATE_NAME)
			return update_name(s, rec, size);
		return 0;
	default:
		return unknown_record(s, type);
	}
}

/* A record perf makes itself, to the consumer's dump() and then acted on. */
static int user_dispatch(struct pd_session *s, const unsigned char *rec, size_t size,
			 uint64_t off, uint32_t type, int *consumed)
{
	struct pd_record pr = { .rec = rec, .size = size, .file_offset = off };
	int r;

	if (type != PD_REC_COMPRESSED && s->consumer && s->consumer->dump &&
	    (r = s->consumer->dump(s->consumer->ctx, &pr)))
		return r;
	return user_record(s, rec, size, off, type, consumed);
}

struct user_call {
	struct pd_session *s;
	const unsigned char *rec;
	size_t size;
	uint64_t off;
	uint32_t type;
	int *consumed;
};

static int user_call(void *ctx)
{
	struct user_call *u = ctx;

	return user_dispatch(u->s, u->rec, u->size, u->off, u->type, u->consumed);
}

/* One record, whatever its type; *consumed says it already left the input. */
static int dispatch(struct pd_session *s, const unsigned char *rec, size_t size, uint64_t off,
		    int *consumed)
{
	uint32_t type = pd_u32(rec);

	s->stats.nr_total++;
	s->stats.nr_records[type < PD_REC_MAX ? type : 0]++;
	*consumed = 0;
	if (type >= PD_REC_USER_START) {
		struct user_call u = { s, rec, size, off, type, consumed };

		/* attrs, features, tracing data, build ids, stat rounds: on the
		 * consumer's thread, once it delivered what came before
		 * (pd_pipeline.c); the ordering and decompression stay here */
		if (s->pl && type != PD_REC_FINISHED_ROUND && type != PD_REC_COMPRESSED)
			return pd_pipeline_call(s->pl, user_call, &u);
		return user_dispatch(s, rec, size, off, type, consumed);
	}
	if (type == 0 || type > PD_REC_KERNEL_LAST)
		return unknown_record(s, type);
	return kernel_record(s, rec, size, off, type);
}

/* PERF_RECORD_COMPRESSED: decompress behind the tail the previous one left
 * and handle every whole record in it; the records carry the COMPRESSED
 * record's offset in messages, as perf's do. */
static int compressed(struct pd_session *s, const unsigned char *rec, size_t size,
		      uint64_t off)
{
	const unsigned char *r;
	size_t n;
	int ret, consumed;

	if (s->info.has_compressed && s->info.comp_type != PD_COMP_ZSTD)
		return tb_err_set(PD_ERR(s), TB_ERR_UNSUPPORTED, off,
				  "COMPRESSED record: the recording's compression type is %u, "
				  "not zstd (1)", s->info.comp_type);
	if (!s->decomp.limit) {
		pd_decomp_init(&s->decomp, s->info.has_compressed ? s->info.comp_mmap_len : 0);
		s->decomp.swapped = s->swapped;
	}
	if ((ret = pd_decomp_feed(&s->decomp, rec + PD_EVENT_HEADER, size - PD_EVENT_HEADER,
				  off, PD_ERR(s))))
		return ret;
	while ((ret = pd_decomp_next(&s->decomp, &r, &n, off, PD_ERR(s))) == 1) {
		uint32_t type;

		if (s->swapped) {
			pd_swap_record(s, r, n, s->swapbuf2);
			r = s->swapbuf2;
		}
		type = pd_u32(r);

		if (type == PD_REC_COMPRESSED || type == PD_REC_HEADER_TRACING_DATA)
			return bad(s, off, "COMPRESSED record holds a record that cannot be "
				   "inside one, type", type);
		s->stats.nr_decompressed++;
		if ((ret = dispatch(s, r, n, off, &consumed)))
			return ret;
	}
	return ret;
}

/* A pipe stream: the next record is not all in the buffer yet, so the
 * reader may wait for it; what is queued goes to the consumer first. */
static int may_wait(const struct pd_session *s)
{
	size_t have = s->in.tail - s->in.head;
	uint16_t sz;

	if (have < PD_EVENT_HEADER)
		return 1;
	sz = pd_u16(s->in.buf + s->in.head + 6);
	return have < (s->swapped ? __builtin_bswap16(sz) : sz);
}

int pd_session_read_all(struct pd_session *s)
{
	const unsigned char *rec;
	size_t size;
	uint64_t off;
	int r, consumed;

	s->hint_attrs = s->nr_evsels;     /* sample_hint */
	while ((r = next_record(s, &rec, &size, &off)) == 1) {
		if ((r = dispatch(s, rec, size, off, &consumed)))
			break;
		if (s->tap && (r = s->tap(s->tap_ctx, s, rec, size, off)))
			break;
		if (!consumed)
			pd_in_consume(&s->in, size);
		if (s->pl && s->pipe && may_wait(s) && (r = pd_pipeline_flush(s->pl)))
			break;
	}
	return pd_session_drain(s, r);
}

void pd_session_set_threads(struct pd_session *s, int n)
{
	s->nr_threads = n;
}

int pd_session_process(struct pd_session *s, const struct pd_consumer *c, struct tb_err *err)
{
	int r;

	s->consumer = c;
	s->err = err;
	s->emit = deliver;
	s->emit_ctx = s;
	/* what a consumer that sees every record (dump) or a reader that
	 * copies them (tap) is given stays as it is */
	for (size_t i = 0; i < s->nr_evsels; i++)
		s->evsels[i].unwanted = c && c->wants && !c->dump && !s->tap &&
					!c->wants(c->ctx, &s->evsels[i]);
	/* a second thread for what only reads: not for a reader that copies
	 * records (tap), nor for consumers called as records are read */
	if (c && !s->tap && !s->unordered && !c->dump &&
	    pd_pipeline_threads(s->nr_threads) > 1) {
		r = pd_pipeline_run(s, pd_session_read_all, deliver, err);
	} else {
		pd_order_init(&s->order, pd_order_default_cap(), deliver, s);
		r = pd_session_read_all(s);
	}
	s->stats.nr_unordered = s->order.nr_unordered;
	if (!s->counters_kept)
		s->stats.decomp_tail = pd_decomp_pending(&s->decomp);
	pd_order_free(&s->order);
	pd_decomp_free(&s->decomp);
	return r;
}
