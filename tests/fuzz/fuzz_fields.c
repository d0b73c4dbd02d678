/* fuzz_fields.c - libFuzzer target: one tracepoint format file and one raw
 * record, as the engines and the printer convert them (tp_fields.c,
 * tp_fastfmt.c, tep_print_event). Input: u8 flags (bit 0: long size 4,
 * bit 1: big-endian file), u8 output capacity / 8, the format text, a NUL,
 * the raw record. The format goes through td_parse (wrapped in a tracing
 * data payload); the record is printed by libtraceevent only when it
 * passes the checks pd_records.c check_raw makes; the fast renderer must
 * agree with libtraceevent whenever it renders. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <traceevent/event-parse.h>
#include "fuzz.h"
#include "perfdata/pd_format.h"
#include "tracepoint/tp_printreads.h"
#include "tracepoint/tracing_data.h"

/* What check_raw() in pd_records.c requires of a sample's raw data. */
static int raw_ok(struct tep_event *ev, const unsigned char *raw, size_t size)
{
	struct tep_format_field *lists[2] = { ev->format.common_fields, ev->format.fields };

	for (int k = 0; k < 2; k++)
		for (struct tep_format_field *f = lists[k]; f; f = f->next) {
			uint32_t o, l;

			if (f->offset < 0 || f->size < 0 ||
			    (uint64_t)f->offset + (uint64_t)f->size > size)
				return 0;
			/* a char[N]: a NUL at or after it, where "%s" stops */
			if ((f->flags & TEP_FIELD_IS_STRING) && !(f->flags & TEP_FIELD_IS_DYNAMIC) &&
			    !memchr(raw + f->offset, 0, size - (size_t)f->offset))
				return 0;
			if (!(f->flags & TEP_FIELD_IS_DYNAMIC))
				continue;
			if (f->size == 2) {
				o = pd_u16(raw + f->offset);
				l = o <= size ? (uint32_t)size - o : 0;
			} else if (f->size == 4) {
				o = pd_u32(raw + f->offset) & 0xffff;
				l = pd_u32(raw + f->offset) >> 16;
			} else {
				return 0;
			}
			if (f->flags & TEP_FIELD_IS_RELATIVE)
				o += (uint32_t)(f->offset + f->size);
			if (o > size || l > size - o ||
			    ((f->flags & TEP_FIELD_IS_STRING) && !memchr(raw + o, 0, l ? l : size - o)))
				return 0;
		}
	/* __print_hex/__print_array lengths, as check_raw() checks them */
	const struct tep_print_arg **a;
	uint64_t start, len;
	int n = tpr_collect(ev, &a), ok = n >= 0;

	for (int i = 0; i < n && ok; i++)
		ok = !tpr_check(ev, a[i], raw, (uint32_t)size, &start, &len);
	free(a);
	if (!ok)
		return 0;
	return 1;
}

/* A tracing data payload holding one format, as perf writes it. */
static unsigned char *wrap(const uint8_t *fmt, size_t flen, int flags, size_t *size)
{
	static const char hp[] = "\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n";
	size_t cap = 64 + sizeof(hp) + flen + 64, n = 0;
	unsigned char *b = malloc(cap);
	uint64_t v;
	uint32_t w;

#define PUT(p, len) (memcpy(b + n, (p), (len)), n += (len))
	PUT("\027\010\104tracing0.6", 14);     /* magic, version and its NUL */
	b[n++] = flags & 2 ? 1 : 0;            /* big-endian file */
	b[n++] = flags & 1 ? 4 : 8;            /* long size */
	w = 4096; PUT(&w, 4);
	PUT("header_page", 12);
	v = sizeof(hp) - 1; PUT(&v, 8); PUT(hp, sizeof(hp) - 1);
	PUT("header_event", 13);
	v = 0; PUT(&v, 8);
	w = 0; PUT(&w, 4);                     /* ftrace formats */
	w = 1; PUT(&w, 4);                     /* systems */
	PUT("fuzz", 5);
	w = 1; PUT(&w, 4);                     /* events */
	v = flen; PUT(&v, 8); PUT(fmt, flen);
	w = 0; PUT(&w, 4); PUT(&w, 4);         /* kallsyms, printk formats */
	v = 0; PUT(&v, 8);                     /* saved cmdlines */
#undef PUT
	*size = n;
	return b;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul;
	struct td_result res;
	struct tb_err err = { 0 };
	struct tep_event *ev;
	struct tep_format_field *f;
	size_t flen, rsize, tdsize;
	unsigned char *raw, *td;

	if (size < 3 || !(nul = memchr(data + 2, 0, size - 2)))
		return 0;
	flen = (size_t)(nul - (data + 2));
	rsize = size - 2 - flen - 1;
	/* through td_parse, as a recording's formats go: its checks apply */
	td = wrap(data + 2, flen, data[0], &tdsize);
	if (td_parse(td, tdsize, 0, &res, &err)) {
		free(td);
		return 0;
	}
	/* the byte-swapped case wants no differential check: leave it to tep */
	ev = tep_get_events_count(res.tep) ? tep_get_event(res.tep, 0) : NULL;
	raw = malloc(rsize ? rsize : 1);       /* exact size: ASan sees a read past it */
	memcpy(raw, nul + 1, rsize);
	/* make the record's common_type name this event, as a sample's does */
	if (ev && (f = tep_find_common_field(ev, "common_type")) && f->size == 2 &&
	    f->offset >= 0 && (size_t)f->offset + 2 <= rsize && !(data[0] & 2))
		memcpy(raw + f->offset, &(uint16_t){ (uint16_t)ev->id }, 2);
	if (ev)
		fz_fields(ev, raw, rsize, (size_t)data[1] * 8, raw_ok(ev, raw, rsize));
	free(raw);
	td_result_free(&res);
	free(td);
	return 0;
}
