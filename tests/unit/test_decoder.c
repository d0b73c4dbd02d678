/* test_decoder.c - tp_decoder and its field views (common/tracepoint/tp_decoder.h,
 * common/tracepoint/tp_fields.h): the fields of a format as typed views, the one
 * __data_loc helper (4-byte, 2-byte and __rel_loc forms, at and past the
 * edges of the record), the per-record checks, and one render call. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <traceevent/event-parse.h>
#include "tracepoint/tp_decoder.h"
#include "unit.h"

/* a format with every kind the views tell apart */
static const char kinds_format[] =
	"name: kinds\n"
	"ID: 77\n"
	"format:\n"
	TP_COMMON_FIELDS
	"\tfield:int ret;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned short port;\toffset:12;\tsize:2;\tsigned:0;\n"
	"\tfield:short arr[3];\toffset:14;\tsize:6;\tsigned:1;\n"
	"\tfield:char comm[8];\toffset:20;\tsize:8;\tsigned:0;\n"
	"\tfield:__data_loc char[] name;\toffset:28;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc int[] blob;\toffset:32;\tsize:4;\tsigned:0;\n"
	"\tfield:__rel_loc char[] rel;\toffset:36;\tsize:4;\tsigned:0;\n"
	"\n"
	"print fmt: \"ret=%d port=%u comm=%s name=%s\", REC->ret, REC->port, REC->comm, "
	"__get_str(name)\n";

static const unsigned char kinds_rec[] = {
	U16(77), 0, 0, U32(99),                    /* common_type, flags, preempt, pid */
	U32(-5),                                   /* ret */
	U16(8080),                                 /* port */
	U16(-1), U16(2), U16(-300),                /* arr */
	'c', 'a', 't', 0, 0, 0, 0, 0,              /* comm */
	U16(40), U16(4),                           /* name: at 40, 4 bytes */
	U16(44), U16(3),                           /* blob: at 44, 3 bytes */
	U16(7), U16(2),                            /* rel: 7 bytes past its end (40 + 7 = 47) */
	'a', 'b', 'c', 0,                          /* 40: name */
	1, 2, 3,                                   /* 44: blob */
	'z', 0,                                    /* 47: rel */
	0,                                         /* pad to 50 */
};

static struct tep_event *parse(struct tep_handle *tep, const char *format)
{
	struct tep_event *ev = NULL;

	if (tep_parse_format(tep, &ev, format, strlen(format), "test") || !ev)
		return NULL;
	return ev;
}

static const struct tp_field *field(const struct tp_decoder *d, const char *name)
{
	for (size_t i = 0; i < d->nr; i++)
		if (!strcmp(d->fields[i].name, name))
			return &d->fields[i];
	return NULL;
}

static void views(const struct tp_decoder *d)
{
	const unsigned char *r = kinds_rec, *p;
	size_t n = sizeof(kinds_rec), len;
	uint64_t v;
	uint32_t off, l;

	T_EQ(d->nr, 7, "seven non-common fields, in format order");
	T_STR(d->fields[0].name, "ret", "the first is ret");
	T_EQ(d->id, 77, "the decoder's id");
	T_EQ(d->off_pid, 4, "common_pid's offset");
	T_EQ(field(d, "ret")->kind, TP_INT, "int: TP_INT");
	T(!tp_read_int(field(d, "ret"), r, n, 0, &v) && (int64_t)v == -5, "int -5 sign-extended");
	T(!tp_read_int(field(d, "port"), r, n, 0, &v) && v == 8080, "unsigned short 8080");
	T_EQ(field(d, "arr")->kind, TP_ARRAY, "short[3]: TP_ARRAY");
	T(!tp_read_int(field(d, "arr"), r, n, 2, &v) && (int64_t)v == -300, "arr[2] = -300");
	T(tp_read_int(field(d, "arr"), r, 19, 2, &v) == -1, "arr[2] past a 19-byte record: -1");
	T_EQ(field(d, "comm")->kind, TP_STRING, "char[8]: TP_STRING");
	T(!tp_read_bytes(field(d, "comm"), r, n, &p, &len) && len == 8 && !strcmp((const char *)p, "cat"),
	  "comm: its 8 bytes");
	T(!tp_read_bytes(field(d, "name"), r, n, &p, &len) && len == 4 && !strcmp((const char *)p, "abc"),
	  "__data_loc name: [40, +4)");
	T_EQ(field(d, "blob")->kind, TP_BYTES, "__data_loc int[]: TP_BYTES");
	T(!tp_read_bytes(field(d, "blob"), r, n, &p, &len) && len == 3 && p[2] == 3,
	  "__data_loc blob: [44, +3)");
	T(!tp_dataloc(field(d, "rel"), r, n, &off, &l) && off == 47 && l == 2,
	  "__rel_loc: the offset counts from the field's end");
	T(tp_dataloc(field(d, "rel"), r, 48, &off, &l) == -1, "__rel_loc past a 48-byte record: -1");
	T(tp_dataloc(field(d, "name"), r, 43, &off, &l) == -1, "__data_loc one byte past: -1");
	T(!tp_dataloc(field(d, "name"), r, 44, &off, &l), "__data_loc ending at the record's end: fine");
	T(tp_dataloc(field(d, "name"), r, 30, &off, &l) == -1, "the __data_loc word itself cut: -1");
	T_EQ(tp_common_int(r, n, d->off_pid, 4, 1, d->swap), 99, "common_pid");
}

/* the 2-byte __data_loc of old kernels: the bytes run to the record's end */
static void short_dataloc(void)
{
	static const unsigned char rec[] = { U16(4), 0, 0, 'h', 'i', 0 };
	struct tp_field t = { .name = "s", .kind = TP_STRING, .offset = 0, .size = 2, .dynamic = 1 };
	uint32_t off, l;

	T(!tp_dataloc(&t, rec, sizeof(rec), &off, &l) && off == 4 && l == 3,
	  "2-byte __data_loc: from its offset to the end");
	T(tp_dataloc(&t, rec, 3, &off, &l) == -1, "2-byte __data_loc past the record: -1");
}

static void checks(struct tp_decoder *d)
{
	unsigned char r[sizeof(kinds_rec)];
	struct tb_err err = { 0 };
	char buf[128];
	const char *text;
	long n;

	memcpy(r, kinds_rec, sizeof(r));
	T(!tp_decoder_check(d, r, sizeof(r), "test:kinds", 0x100, &err), "the record passes");
	n = tp_render(d, r, sizeof(r), 0, buf, sizeof(buf), &text);
	T(n > 0 && (size_t)n == strlen("ret=-5 port=8080 comm=cat name=abc") &&
	  !memcmp(text, "ret=-5 port=8080 comm=cat name=abc", (size_t)n), "tp_render: %.*s",
	  (int)(n > 0 ? n : 0), n > 0 ? text : "");
	n = tp_render(d, r, sizeof(r), 0, buf, 4, &text);
	T(n > 0 && text != buf && !memcmp(text, "ret=-5", 6),
	  "tp_render with no room: libtraceevent's text instead");
	T(tp_decoder_check(d, r, 39, "test:kinds", 0x100, &err) == TB_ERR_FORMAT &&
	  err.has_offset && err.offset == 0x100, "a record shorter than its fields: refused, at its offset");
	r[0] = 78;
	T(tp_decoder_check(d, r, sizeof(r), "test:kinds", 0, &err) == TB_ERR_FORMAT &&
	  strstr(err.msg, "common_type 78"), "another event's common_type: refused (%s)", err.msg);
	r[0] = 77;
	r[43] = 'x';                               /* name loses its NUL */
	T(tp_decoder_check(d, r, sizeof(r), "test:kinds", 0, &err) == TB_ERR_FORMAT &&
	  strstr(err.msg, "'name'"), "a __data_loc string without its NUL: refused (%s)", err.msg);
	r[43] = 0;
	r[28] = 60;                                /* name at 60: outside */
	T(tp_decoder_check(d, r, sizeof(r), "test:kinds", 0, &err) == TB_ERR_FORMAT &&
	  strstr(err.msg, "0x4003c"), "a __data_loc outside: refused, naming its value (%s)", err.msg);
}

int main(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_event *ev = tep ? parse(tep, kinds_format) : NULL;
	struct tp_decoder *d = NULL;

	T(ev != NULL, "the format parses");
	if (!ev || tp_decoder_new(&d, ev)) {
		T(0, "tp_decoder_new");
		return done();
	}
	views(d);
	short_dataloc();
	checks(d);
	tp_decoder_free(d);
	tep_free(tep);
	return done();
}
