/* test_session.c - pd_session (common/perfdata/pd_session.h) on hand-built perf.data
 * files, file mode and pipe mode, after the writer recipe of
 * perf-data-format.md section 9; and td_parse (common/tracepoint/tracing_data.h) on
 * good and broken tracing data payloads (section 5.3). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <fcntl.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include <traceevent/trace-seq.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_session.h"
#include "tracepoint/tracing_data.h"
#include "unit.h"

/* ---- tracing data (section 5.3), from tracefs text ---- */

/* events/header_page and events/header_event, verbatim from a 6.18 tracefs */
static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n";
static const char header_event[] =
	"# compressed entry header\n"
	"\ttype_len    :    5 bits\n"
	"\ttime_delta  :   27 bits\n"
	"\tarray       :   32 bits\n"
	"\n"
	"\tpadding     : type == 29\n"
	"\ttime_extend : type == 30\n"
	"\ttime_stamp : type == 31\n"
	"\tdata max type_len  == 28\n";
/* events/raw_syscalls/sys_enter/format */
static const char sys_enter_format[] =
	"name: sys_enter\n"
	"ID: 443\n"
	"format:\n"
	TP_COMMON_FIELDS
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n"
	"\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], "
	"REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]\n";
static const char printk_formats[] = "0xffffffff828179e4 : \"thaw_processes\"\n";
static const char saved_cmdlines[] = "4242 fromcmdl\n";

/* Where build_td put the fields the error cases break. */
struct td_layout {
	size_t page_size, hp_size, fmt_size, fmt_text, saved_cmdlines;
};

struct td_opts {
	const char *version;      /* "0.6" unless set */
	int swap;                 /* write the numbers big-endian (endian byte 1) */
	int empty_header_page;
	const char *format;       /* sys_enter_format unless set */
};

static void td_u32(struct ubuf *b, uint32_t v, int swap) { ub_u32(b, swap ? __builtin_bswap32(v) : v); }
static void td_u64(struct ubuf *b, uint64_t v, int swap) { ub_u64(b, swap ? __builtin_bswap64(v) : v); }

static void build_td(struct ubuf *b, const struct td_opts *o, struct td_layout *lay)
{
	const char *version = o && o->version ? o->version : "0.6";
	const char *fmt = o && o->format ? o->format : sys_enter_format;
	int swap = o && o->swap;
	size_t hp = o && o->empty_header_page ? 0 : strlen(header_page);

	ub_bytes(b, "\027\010\104tracing", 10);             /* magic */
	ub_str(b, version);                                 /* version, NUL-terminated */
	ub_u8(b, (uint8_t)(swap ? 1 : 0));                  /* endian: 0 little, 1 big */
	ub_u8(b, 8);                                        /* sizeof(long) */
	lay->page_size = b->len;
	td_u32(b, 4096, swap);                              /* page size */
	ub_str(b, "header_page");                           /* tag */
	lay->hp_size = b->len;
	td_u64(b, hp, swap);                                /* header_page size */
	ub_bytes(b, header_page, hp);                       /* header_page text */
	ub_str(b, "header_event");                          /* tag */
	td_u64(b, strlen(header_event), swap);              /* header_event size */
	ub_bytes(b, header_event, strlen(header_event));    /* header_event text */
	td_u32(b, 0, swap);                                 /* ftrace formats: 0 */
	td_u32(b, 1, swap);                                 /* systems: 1 */
	ub_str(b, "raw_syscalls");                          /* system name */
	td_u32(b, 1, swap);                                 /* events in it: 1 */
	lay->fmt_size = b->len;
	td_u64(b, strlen(fmt), swap);                       /* format size */
	lay->fmt_text = b->len;
	ub_bytes(b, fmt, strlen(fmt));                      /* format text */
	td_u32(b, 0, swap);                                 /* kallsyms: 0 bytes */
	td_u32(b, (uint32_t)strlen(printk_formats), swap);  /* printk_formats size */
	ub_bytes(b, printk_formats, strlen(printk_formats));
	lay->saved_cmdlines = b->len;
	if (atof(version) >= 0.6) {
		td_u64(b, strlen(saved_cmdlines), swap);    /* saved_cmdlines size */
		ub_bytes(b, saved_cmdlines, strlen(saved_cmdlines));
	}
}

#define TD_BASE 0x1000   /* a pretend file offset, to see it in error offsets */

static void test_td_parse(void)
{
	struct ubuf b = { 0 };
	struct td_layout lay;
	struct td_result res;
	struct tb_err err;
	struct tep_event *ev;
	int r;

	build_td(&b, NULL, &lay);
	memset(&err, 0, sizeof(err));
	r = td_parse(b.p, b.len, TD_BASE, &res, &err);
	T(r == 0, "td_parse accepts a sys_enter payload (%s)", err.msg);
	if (r)
		goto out;
	T(!strcmp(res.version, "0.6") && res.long_size == 8 && res.page_size == 4096 &&
	  !res.file_bigendian, "version 0.6, long 8, page 4096, little-endian");
	T(res.nr_ftrace == 0 && res.nr_systems == 1 && res.nr_events == 1 && res.nr_warnings == 0,
	  "0 ftrace formats, 1 system, 1 event, no warnings");
	T_EQ(res.parsed_size, b.len, "the whole payload is used");
	ev = tep_find_event(res.tep, 443);
	T(ev && !strcmp(ev->system, "raw_syscalls") && !strcmp(ev->name, "sys_enter"),
	  "event 443 is raw_syscalls:sys_enter");
	T_STR(tep_data_comm_from_pid(res.tep, 4242), "fromcmdl",
	      "saved_cmdlines go into libtraceevent's pid table");
	td_result_free(&res);
	td_result_free(&res);
	T(res.tep == NULL && res.warnings == NULL, "td_result_free twice is harmless");

	/* bad magic */
	b.p[2] = 0x45;
	memset(&err, 0, sizeof(err));
	r = td_parse(b.p, b.len, TD_BASE, &res, &err);
	T(r == TB_ERR_FORMAT && err.has_offset && err.offset == TD_BASE,
	  "bad magic: TB_ERR_FORMAT at the payload start 0x%x (got %d at 0x%llx: %s)", TD_BASE, r,
	  (unsigned long long)err.offset, err.msg);
	b.p[2] = 0x44;

	/* page size 0 */
	put_u32(b.p, lay.page_size, 0);
	memset(&err, 0, sizeof(err));
	r = td_parse(b.p, b.len, TD_BASE, &res, &err);
	T(r && err.has_offset && err.offset == TD_BASE + lay.page_size,
	  "page size 0: error at the page size, payload offset %zu (got %d at 0x%llx: %s)",
	  lay.page_size, r, (unsigned long long)err.offset, err.msg);
	put_u32(b.p, lay.page_size, 4096);

	/* a format size past the end */
	put_u64(b.p, lay.fmt_size, b.len);
	memset(&err, 0, sizeof(err));
	r = td_parse(b.p, b.len, TD_BASE, &res, &err);
	T(r && err.has_offset && err.offset == TD_BASE + lay.fmt_size,
	  "format size past the end: error at the size field, payload offset %zu (got %d at 0x%llx: %s)",
	  lay.fmt_size, r, (unsigned long long)err.offset, err.msg);
	put_u64(b.p, lay.fmt_size, UINT64_MAX);
	r = td_parse(b.p, b.len, TD_BASE, &res, &err);
	T(r && err.offset == TD_BASE + lay.fmt_size, "format size 2^64-1: same error, no overflow");
	put_u64(b.p, lay.fmt_size, strlen(sys_enter_format));

	/* every truncation fails, with an offset inside what was given */
	{
		unsigned bad = 0;

		for (size_t cut = 0; cut < b.len; cut++) {
			memset(&err, 0, sizeof(err));
			r = td_parse(b.p, cut, TD_BASE, &res, &err);
			if (!r || !err.has_offset || err.offset > TD_BASE + cut) {
				if (bad++ < 5)
					NOTE("cut at %zu: r %d, offset 0x%llx: %s", cut, r,
					     (unsigned long long)err.offset, err.msg);
				if (!r)
					td_result_free(&res);
			}
		}
		T(!bad, "all %zu truncations fail with an offset inside the bytes given", b.len);
	}
	ub_free(&b);

	/* empty header_page */
	{
		struct td_opts o = { .empty_header_page = 1 };

		build_td(&b, &o, &lay);
		memset(&err, 0, sizeof(err));
		r = td_parse(b.p, b.len, TD_BASE, &res, &err);
		T(r && err.has_offset && err.offset == TD_BASE + lay.hp_size,
		  "empty header_page: error at its size, payload offset %zu (got %d at 0x%llx: %s)",
		  lay.hp_size, r, (unsigned long long)err.offset, err.msg);
		ub_free(&b);
	}

	/* a format without "name:" */
	{
		struct td_opts o = { .format = "ID: 443\nformat:\n" };

		build_td(&b, &o, &lay);
		memset(&err, 0, sizeof(err));
		r = td_parse(b.p, b.len, TD_BASE, &res, &err);
		T(r && err.has_offset && err.offset == TD_BASE + lay.fmt_text,
		  "a format that is no format file: error at its text, payload offset %zu (got 0x%llx: %s)",
		  lay.fmt_text, (unsigned long long)err.offset, err.msg);
		ub_free(&b);
	}

	/* version 0.5: no saved_cmdlines block */
	{
		struct td_opts o = { .version = "0.5" };

		build_td(&b, &o, &lay);
		r = td_parse(b.p, b.len, TD_BASE, &res, &err);
		T(r == 0 && res.parsed_size == b.len && res.nr_events == 1,
		  "version 0.5 without saved_cmdlines is accepted");
		if (!r)
			td_result_free(&res);
		ub_free(&b);
	}

	/* big-endian numbers (endian byte 1) */
	{
		struct td_opts o = { .swap = 1 };

		build_td(&b, &o, &lay);
		memset(&err, 0, sizeof(err));
		r = td_parse(b.p, b.len, TD_BASE, &res, &err);
		T(r == 0 && res.file_bigendian == 1 && res.page_size == 4096 && res.nr_events == 1 &&
		  res.parsed_size == b.len, "a big-endian payload reads the same (%s)", err.msg);
		if (!r)
			td_result_free(&res);
		ub_free(&b);
	}
	return;
out:
	ub_free(&b);
}

/* ---- perf.data files ---- */

#define ATTR_ID    1000
#define PID        4242

/* The attr of section 9: sys_enter, sample_type 0x587, sample_id_all. */
static void put_attr(struct ubuf *f)
{
	size_t a = f->len;

	ub_zero(f, 128);
	put_u32(f->p, a + 0, PD_TYPE_TRACEPOINT);          /* type */
	put_u32(f->p, a + 4, 128);                         /* size */
	put_u64(f->p, a + 8, 443);                         /* config: sys_enter's ID */
	put_u64(f->p, a + 16, 1);                          /* sample_period */
	put_u64(f->p, a + 24, 0x587);                      /* sample_type */
	put_u64(f->p, a + 40, PD_ATTR_FLAG_SAMPLE_ID_ALL); /* flags */
	put_u32(f->p, a + 48, 1);                          /* wakeup_events */
}

/* One 120-byte sys_enter SAMPLE: the syscall number is @nr. */
static size_t put_sample(struct ubuf *d, uint32_t cpu, int32_t pid, int32_t tid, uint64_t time,
			 uint64_t nr)
{
	size_t at = d->len;

	ub_u32(d, PD_REC_SAMPLE); ub_u16(d, 1); ub_u16(d, 120);  /* header */
	ub_u64(d, 0xffffffff81001234ULL);                         /* IP */
	ub_u32(d, (uint32_t)pid); ub_u32(d, (uint32_t)tid);       /* TID */
	ub_u64(d, time);                                          /* TIME */
	ub_u32(d, cpu); ub_u32(d, 0);                             /* CPU, reserved */
	ub_u64(d, 1);                                             /* PERIOD */
	ub_u32(d, 68);                                            /* RAW size */
	ub_u16(d, 443); ub_u8(d, 0); ub_u8(d, 0);                 /* common_type, flags, preempt */
	ub_u32(d, (uint32_t)pid);                                 /* common_pid */
	ub_u64(d, nr);                                            /* id */
	ub_u64(d, nr); ub_zero(d, 40);                            /* args[0] = nr, args[1..5] = 0 */
	ub_zero(d, 4);                                            /* pad */
	return at;
}

static void put_comm(struct ubuf *d, uint32_t cpu, int32_t pid, int32_t tid, uint64_t time,
		     const char *comm8)
{
	ub_u32(d, PD_REC_COMM); ub_u16(d, 0); ub_u16(d, 48);     /* header */
	ub_u32(d, (uint32_t)pid); ub_u32(d, (uint32_t)tid);       /* pid, tid */
	ub_bytes(d, comm8, 8);                                    /* comm, NUL-padded to 8 */
	ub_u32(d, (uint32_t)pid); ub_u32(d, (uint32_t)tid);       /* trailer TID */
	ub_u64(d, time);                                          /* trailer TIME */
	ub_u32(d, cpu); ub_u32(d, 0);                             /* trailer CPU */
}

static void put_round(struct ubuf *d)
{
	ub_u32(d, PD_REC_FINISHED_ROUND); ub_u16(d, 0); ub_u16(d, 8);
}

/* The data section: two CPUs, written out of order, with rounds. perf
 * script 6.1 printed both the file and the pipe variant as
 *   :4242 4242 [000] 5.000001 NR 1   :4242 4242 [001] 5.000002 NR 2
 *   mytool 4242 [000] 5.000003 NR 3  mytool 4242 [001] 5.000004 NR 4
 *   :4243 4243 [000] 5.000005 NR 5   (and "# hostname : testhost"). */
struct expect {
	size_t sample_at[5];      /* offsets inside the data, by syscall nr - 1 */
};

static void build_records(struct ubuf *d, struct expect *x)
{
	x->sample_at[0] = put_sample(d, 0, PID, PID, 5000001000ULL, 1);
	x->sample_at[2] = put_sample(d, 0, PID, PID, 5000003000ULL, 3);
	put_comm(d, 1, PID, PID, 5000002500ULL, "mytool\0\0");
	x->sample_at[1] = put_sample(d, 1, PID, PID, 5000002000ULL, 2);
	put_round(d);
	x->sample_at[3] = put_sample(d, 1, PID, PID, 5000004000ULL, 4);
	x->sample_at[4] = put_sample(d, 0, PID, PID + 1, 5000005000ULL, 5);
	put_round(d);
}

static void put_string(struct ubuf *b, const char *s)
{
	uint32_t len = (uint32_t)((strlen(s) + 1 + 63) / 64 * 64);
	size_t at;

	ub_u32(b, len);
	at = b->len;
	ub_zero(b, len);
	memcpy(b->p + at, s, strlen(s));
}

struct file_opts {
	size_t cut_data;          /* drop this many bytes at the end of the data */
	uint64_t data_size;       /* write this data size instead (0: the real one) */
};

/* File mode, section 9: header, id, attr, data, feature index, payloads. */
static void build_file(struct ubuf *f, const struct file_opts *o, struct expect *x,
		       size_t *data_off)
{
	struct ubuf d = { 0 }, td = { 0 }, host = { 0 };
	struct td_layout lay;
	size_t idx, dlen;

	build_records(&d, x);
	dlen = d.len - (o ? o->cut_data : 0);
	build_td(&td, NULL, &lay);
	put_string(&host, "testhost");

	ub_bytes(f, "PERFILE2", 8);                   /* magic */
	ub_u64(f, 104);                               /* header size */
	ub_u64(f, 144);                               /* attr_size */
	ub_u64(f, 112); ub_u64(f, 144);               /* attrs {offset, size} */
	ub_u64(f, 256);                               /* data offset */
	ub_u64(f, o && o->data_size ? o->data_size : dlen);  /* data size */
	ub_u64(f, 0); ub_u64(f, 0);                   /* event_types */
	ub_u64(f, (1ULL << PD_FEAT_TRACING_DATA) | (1ULL << PD_FEAT_HOSTNAME));  /* features */
	ub_u64(f, 0); ub_u64(f, 0); ub_u64(f, 0);
	ub_u64(f, ATTR_ID);                           /* 104: the ids of attr 0 */
	put_attr(f);                                  /* 112: attr */
	ub_u64(f, 104); ub_u64(f, 8);                 /* its ids {offset, size} */
	*data_off = f->len;                           /* 256 */
	ub_bytes(f, d.p, dlen);                       /* data */
	idx = f->len;                                 /* the index, at data end */
	ub_zero(f, 32);
	put_u64(f->p, idx, f->len);                   /* TRACING_DATA {offset, size} */
	put_u64(f->p, idx + 8, td.len);
	ub_bytes(f, td.p, td.len);
	put_u64(f->p, idx + 16, f->len);              /* HOSTNAME {offset, size} */
	put_u64(f->p, idx + 24, host.len);
	ub_bytes(f, host.p, host.len);
	ub_free(&d);
	ub_free(&td);
	ub_free(&host);
}

/* Pipe mode, section 6: header, HEADER_ATTR, HEADER_FEATURE, HEADER_TRACING_DATA, records. */
static void build_pipe(struct ubuf *f, struct expect *x, size_t *data_off)
{
	struct ubuf d = { 0 }, td = { 0 };
	struct td_layout lay;

	build_records(&d, x);
	build_td(&td, NULL, &lay);
	ub_bytes(f, "PERFILE2", 8);                   /* magic */
	ub_u64(f, 16);                                /* pipe header size */
	ub_u32(f, PD_REC_HEADER_ATTR); ub_u16(f, 0); ub_u16(f, 8 + 128 + 8);
	put_attr(f);                                  /* attr */
	ub_u64(f, ATTR_ID);                           /* its one id */
	ub_u32(f, PD_REC_HEADER_FEATURE); ub_u16(f, 0); ub_u16(f, 16 + 4 + 64);
	ub_u64(f, PD_FEAT_HOSTNAME);                  /* feat_id */
	put_string(f, "testhost");                    /* the HOSTNAME payload */
	ub_u32(f, PD_REC_HEADER_FEATURE); ub_u16(f, 0); ub_u16(f, 16);
	ub_u64(f, PD_FEAT_LAST_PERF);                 /* the list's terminator */
	ub_u32(f, PD_REC_HEADER_TRACING_DATA); ub_u16(f, 0); ub_u16(f, 16);
	ub_u32(f, (uint32_t)((td.len + 7) & ~(size_t)7));  /* size: padded to 8 */
	ub_u32(f, 0);                                 /* pad */
	ub_bytes(f, td.p, td.len);                    /* payload outside header.size */
	ub_zero(f, (8 - td.len % 8) % 8);             /* ...zero-padded to 8 */
	*data_off = f->len;
	ub_bytes(f, d.p, d.len);
	ub_free(&d);
	ub_free(&td);
}

/* ---- reading it back ---- */

struct got {
	unsigned n;
	uint64_t time[8], nr[8], off[8], index[8];
	int32_t pid[8], tid[8], cpu[8];
	uint32_t raw_size[8];
	char comm[8][16];
	char text[8][64];
	struct tep_handle *tep;
};

static int on_sample(void *ctx, const struct pd_event *ev)
{
	struct got *g = ctx;
	unsigned i = g->n++;

	if (i >= 8)
		return 0;
	g->time[i] = ev->sample->time;
	g->pid[i] = ev->sample->pid;
	g->tid[i] = ev->sample->tid;
	g->cpu[i] = ev->sample->cpu;
	g->raw_size[i] = ev->sample->raw_size;
	g->nr[i] = ev->sample->raw_size >= 16 ? pd_u64(ev->sample->raw + 8) : 0;
	g->off[i] = ev->file_offset;
	g->index[i] = ev->index;
	snprintf(g->comm[i], sizeof(g->comm[i]), "%s", ev->comm);
	if (g->tep && ev->sample->raw) {
		struct tep_record rec = { .data = (void *)ev->sample->raw,
					  .size = (int)ev->sample->raw_size,
					  .cpu = ev->sample->cpu };
		struct trace_seq seq;

		trace_seq_init(&seq);
		tep_print_event(g->tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		snprintf(g->text[i], sizeof(g->text[i]), "%s", seq.buffer);
		trace_seq_destroy(&seq);
	}
	return 0;
}

static int write_temp(const struct ubuf *f, char *path)
{
	int fd = mkstemp(path);

	if (fd < 0 || write(fd, f->p, f->len) != (ssize_t)f->len) {
		if (fd >= 0)
			close(fd);
		return -1;
	}
	lseek(fd, 0, SEEK_SET);
	return fd;
}

/* Open @fd as a session and check everything the recording holds. */
static void check_session(const char *mode, int fd, const struct expect *x, size_t data_off,
			  int pipe_mode)
{
	struct pd_session *s = NULL;
	struct pd_consumer c = { 0 };
	const struct pd_evsel *e;
	const struct pd_header_info *info;
	const struct pd_stats *st;
	struct got g;
	struct tb_err err;
	static const uint64_t want_nr[5] = { 1, 2, 3, 4, 5 };
	static const char *const want_comm[5] = { ":4242", ":4242", "mytool", "mytool", ":4243" };
	static const int32_t want_cpu[5] = { 0, 1, 0, 1, 0 };
	unsigned bad = 0;
	int r;

	memset(&err, 0, sizeof(err));
	r = pd_session_open(&s, mode, fd, &err);
	T(r == 0, "%s: pd_session_open (%s)", mode, err.msg);
	if (r)
		return;
	T_EQ(pd_session_is_pipe(s), pipe_mode, "%s: pipe mode is %d", mode, pipe_mode);
	T_EQ(pd_session_nr_evsels(s), 1, "%s: one evsel", mode);
	e = pd_session_evsel(s, 0);
	T(e && e->name && !strcmp(e->name, "raw_syscalls:sys_enter"),
	  "%s: evsel name \"raw_syscalls:sys_enter\" (got %s)", mode, e && e->name ? e->name : "NULL");
	T(e && e->type == PD_TYPE_TRACEPOINT && e->config == 443 && e->sample_type == 0x587 &&
	  e->nr_ids == 1 && e->ids[0] == ATTR_ID && e->tp && e->tp->id == 443,
	  "%s: attr type 2, config 443, sample_type 0x587, id 1000, format found", mode);
	T(pd_session_evsel(s, 1) == NULL, "%s: pd_session_evsel past the end is NULL", mode);
	info = pd_session_info(s);
	T_STR(info->hostname, "testhost", "%s: HOSTNAME feature", mode);
	T(pd_session_has_feature(s, PD_FEAT_HOSTNAME) &&
	  (pipe_mode || pd_session_has_feature(s, PD_FEAT_TRACING_DATA)) &&
	  !pd_session_has_feature(s, PD_FEAT_ARCH) && !pd_session_has_feature(s, -1) &&
	  !pd_session_has_feature(s, PD_FEAT_BITS), "%s: feature bits", mode);
	T(pd_session_tep(s) != NULL, "%s: tracing data parsed", mode);
	if (!pipe_mode) {
		uint64_t doff, dsize, foff;

		pd_session_layout(s, &doff, &dsize, &foff);
		T(doff == 256 && dsize == 5 * 120 + 48 + 2 * 8 && foff == doff + dsize,
		  "%s: layout: data at 256, %llu bytes, index right after", mode,
		  (unsigned long long)dsize);
	}

	memset(&g, 0, sizeof(g));
	g.tep = pd_session_tep(s);
	c.ctx = &g;
	c.sample = on_sample;
	memset(&err, 0, sizeof(err));
	r = pd_session_process(s, &c, &err);
	T(r == 0, "%s: pd_session_process (%s)", mode, err.msg);
	T_EQ(g.n, 5, "%s: 5 samples delivered", mode);
	for (unsigned i = 0; i < 5 && i < g.n; i++) {
		if (g.nr[i] != want_nr[i] || g.time[i] != 5000001000ULL + 1000 * i ||
		    strcmp(g.comm[i], want_comm[i]) || g.cpu[i] != want_cpu[i] ||
		    g.pid[i] != PID || g.tid[i] != (i == 4 ? PID + 1 : PID) ||
		    g.raw_size[i] != 68 || g.index[i] != i ||
		    g.off[i] != data_off + x->sample_at[want_nr[i] - 1]) {
			NOTE("%s: sample %u: nr %llu time %llu comm %s cpu %d pid %d tid %d raw %u "
			     "index %llu offset %llu", mode, i, (unsigned long long)g.nr[i],
			     (unsigned long long)g.time[i], g.comm[i], g.cpu[i], g.pid[i], g.tid[i],
			     g.raw_size[i], (unsigned long long)g.index[i],
			     (unsigned long long)g.off[i]);
			bad++;
		}
	}
	T(!bad && g.n == 5, "%s: in time order across CPUs 0/1, with comm, pid/tid, cpu, raw size 68, "
	  "file offset", mode);
	T(!strcmp(g.comm[1], ":4242") && !strcmp(g.comm[2], "mytool"),
	  "%s: the COMM at 5.0000025 renames only the samples after it", mode);
	T_STR(g.text[0], "NR 1 (1, 0, 0, 0, 0, 0)", "%s: libtraceevent renders the first sample", mode);
	st = pd_session_stats(s);
	T(st->nr_records[PD_REC_SAMPLE] == 5 && st->nr_records[PD_REC_COMM] == 1 &&
	  st->nr_records[PD_REC_FINISHED_ROUND] == 2 && st->nr_unordered == 0,
	  "%s: stats: 5 samples, 1 COMM, 2 rounds, none out of order", mode);
	pd_session_close(s);
}

static void test_file_mode(void)
{
	char path[] = "/tmp/tracebox-session.XXXXXX";
	struct ubuf f = { 0 };
	struct expect x;
	size_t data_off;
	int fd;

	build_file(&f, NULL, &x, &data_off);
	fd = write_temp(&f, path);
	T(fd >= 0, "file: written to %s (%zu bytes)", path, f.len);
	if (fd >= 0) {
		check_session("file", fd, &x, data_off, 0);
		unlink(path);
	}
	ub_free(&f);
}

static void test_pipe_mode(void)
{
	char path[] = "/tmp/tracebox-pipe.XXXXXX";
	struct ubuf f = { 0 };
	struct expect x;
	size_t data_off;
	int fds[2], fd;

	build_pipe(&f, &x, &data_off);
	/* through a real pipe: the whole stream fits the pipe buffer */
	if (pipe(fds) == 0 && f.len < 65536 && write(fds[1], f.p, f.len) == (ssize_t)f.len) {
		close(fds[1]);
		check_session("pipe", fds[0], &x, data_off, 1);
	} else {
		T(0, "pipe: could not fill a pipe with %zu bytes", f.len);
	}
	/* a regular file holding a pipe stream reads as a pipe */
	fd = write_temp(&f, path);
	if (fd >= 0) {
		check_session("file holding a pipe stream", fd, &x, data_off, 1);
		unlink(path);
	}
	ub_free(&f);
}

/* Broken files: open or process fails with the code and offset expected. */
static void test_bad_files(void)
{
	char path[] = "/tmp/tracebox-bad.XXXXXX";
	struct pd_session *s = NULL;
	struct pd_consumer c = { 0 };
	struct ubuf f = { 0 };
	struct tb_err err;
	struct expect x;
	size_t data_off;
	int fd, r;

	/* a data section running past the end of the file */
	{
		struct file_opts o = { .data_size = 1 << 20 };

		build_file(&f, &o, &x, &data_off);
		strcpy(path, "/tmp/tracebox-bad.XXXXXX");
		fd = write_temp(&f, path);
		unlink(path);
		memset(&err, 0, sizeof(err));
		r = pd_session_open(&s, "bad", fd, &err);
		T(r == TB_ERR_TRUNCATED && err.has_offset && err.offset == 40,
		  "data size past the end: TB_ERR_TRUNCATED at offset 40 (got %d at %llu: %s)", r,
		  (unsigned long long)err.offset, err.msg);
		ub_free(&f);
	}

	/* the data ends inside the last sample */
	{
		struct file_opts o = { .cut_data = 8 + 60 };

		build_file(&f, &o, &x, &data_off);
		strcpy(path, "/tmp/tracebox-bad.XXXXXX");
		fd = write_temp(&f, path);
		unlink(path);
		memset(&err, 0, sizeof(err));
		r = pd_session_open(&s, "cut", fd, &err);
		T(r == 0, "data cut inside the last sample: opens (%s)", err.msg);
		if (!r) {
			memset(&err, 0, sizeof(err));
			r = pd_session_process(s, &c, &err);
			T(r == TB_ERR_TRUNCATED && err.has_offset &&
			  err.offset == data_off + x.sample_at[4],
			  "...processing fails with TB_ERR_TRUNCATED at that sample, %zu (got %d at %llu: %s)",
			  data_off + x.sample_at[4], r, (unsigned long long)err.offset, err.msg);
			pd_session_close(s);
		}
		ub_free(&f);
	}

	/* not a perf.data file */
	{
		ub_bytes(&f, "PERFFILE\0\0\0\0\0\0\0\0", 16);
		strcpy(path, "/tmp/tracebox-bad.XXXXXX");
		fd = write_temp(&f, path);
		unlink(path);
		memset(&err, 0, sizeof(err));
		r = pd_session_open(&s, "magic", fd, &err);
		T(r == TB_ERR_FORMAT && err.offset == 0 && s == NULL,
		  "bad magic: TB_ERR_FORMAT at offset 0, no session (%s)", err.msg);
		ub_free(&f);
	}

	/* an empty file */
	{
		strcpy(path, "/tmp/tracebox-bad.XXXXXX");
		fd = mkstemp(path);
		unlink(path);
		memset(&err, 0, sizeof(err));
		r = pd_session_open(&s, "empty", fd, &err);
		T(r == TB_ERR_TRUNCATED && s == NULL, "an empty file: TB_ERR_TRUNCATED (%s)", err.msg);
	}
}

int main(void)
{
	test_td_parse();
	test_file_mode();
	test_pipe_mode();
	test_bad_files();
	return done();
}
