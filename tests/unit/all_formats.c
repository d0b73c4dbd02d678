/* all_formats.c - every event format a tracefs offers, through td_parse
 * (common/tracepoint/tracing_data.h) into libtraceevent, then one zero-filled record
 * of each event through tep_print_event.
 *
 *   all_formats TRACEFS_DIR   build the whole tracing-data payload of
 *                             perf-data-format.md section 5.3 from the
 *                             directory, parse it, render, report
 *   all_formats               "ok 1 - # SKIP no tracefs given" (tests/run.sh
 *                             runs every unit binary without arguments)
 *
 * Prints "formats parsed: N", "format files: N" and one "# warning: SYS:NAME:
 * REASON" line per format libtraceevent could not fully parse. Exits 0
 * when td_parse accepted the payload, parsed every format file, reported
 * every format libtraceevent flagged TEP_EVENT_FL_FAILED, and no render
 * crashed. tests/formats.test runs it on the host's tracefs. It only
 * reads the tracefs files. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sanitizer/common_interface_defs.h>
#include <traceevent/event-parse.h>
#include <traceevent/event-utils.h>
#include <traceevent/trace-seq.h>
#include "tracepoint/tracing_data.h"
#include "unit.h"

/* Where each format file sits in the payload, to name it in messages. */
struct fmt_span {
	char sys[256], name[256];
	size_t start, end;
};

static struct fmt_span *spans;
static size_t nr_spans, cap_spans;
static const char *rendering;     /* "sys:name" while tep_print_event runs */

/* read_all - a whole tracefs file (stat sizes are 0 there); NULL on error */
static char *read_all(const char *path, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;

	if (fd < 0 || !buf) {
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	while ((got = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)got;
		if (n == cap) {
			char *nb = realloc(buf, cap *= 2);

			if (!nb) {
				got = -1;
				break;
			}
			buf = nb;
		}
	}
	close(fd);
	if (got < 0) {
		free(buf);
		return NULL;
	}
	*len = n;
	return buf;
}

/* path_of - snprintf that fails the run on truncation (paths are short) */
__attribute__((format(printf, 3, 4)))
static void path_of(char *out, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, size, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size) {
		fprintf(stderr, "all_formats: path too long: %s...\n", out);
		exit(2);
	}
}

static int is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int only_dirs(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Append u64 size + text of @path; 0, or -1 when it cannot be read. */
static int put_file64(struct ubuf *b, const char *path)
{
	size_t len;
	char *text = read_all(path, &len);

	if (!text)
		return -1;
	ub_u64(b, len);
	ub_bytes(b, text, len);
	free(text);
	return 0;
}

/* One system: name, u32 count, then u64 size + text per event format. */
static unsigned put_system(struct ubuf *b, const char *events, const char *sys)
{
	struct dirent **ev = NULL;
	char path[4096];
	size_t count_at;
	unsigned nr = 0;
	int n;

	path_of(path, sizeof(path), "%s/%s", events, sys);
	n = scandir(path, &ev, only_dirs, alphasort);
	ub_str(b, sys);
	count_at = b->len;
	ub_u32(b, 0);
	for (int i = 0; i < n; i++) {
		size_t start = b->len;

		path_of(path, sizeof(path), "%s/%s/%s/format", events, sys, ev[i]->d_name);
		if (access(path, R_OK) == 0 && put_file64(b, path) == 0) {
			if (nr_spans == cap_spans) {
				cap_spans = cap_spans ? 2 * cap_spans : 1024;
				spans = realloc(spans, cap_spans * sizeof(*spans));
			}
			path_of(spans[nr_spans].sys, sizeof(spans[nr_spans].sys), "%s", sys);
			path_of(spans[nr_spans].name, sizeof(spans[nr_spans].name), "%s", ev[i]->d_name);
			spans[nr_spans].start = start;
			spans[nr_spans].end = b->len;
			nr_spans++;
			nr++;
		}
		free(ev[i]);
	}
	free(ev);
	put_u32(b->p, count_at, nr);
	return nr;
}

/* The payload of section 5.3 from @dir: returns 0, or -1 with a message. */
static int build_payload(const char *dir, struct ubuf *b, unsigned *nr_sys, unsigned *nr_fmt)
{
	struct dirent **sys = NULL;
	char events[4096], path[4200];
	size_t nsys_at, len;
	char *text;
	int n;

	path_of(events, sizeof(events), "%s/events", dir);
	ub_bytes(b, "\027\010\104tracing", 10);                    /* magic */
	ub_str(b, "0.6");                                          /* version */
	ub_u8(b, __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__);          /* endian */
	ub_u8(b, sizeof(long));                                    /* long size */
	ub_u32(b, (uint32_t)sysconf(_SC_PAGESIZE));                /* page size */
	ub_str(b, "header_page");
	path_of(path, sizeof(path), "%s/header_page", events);
	if (put_file64(b, path))
		return fprintf(stderr, "all_formats: cannot read %s\n", path), -1;
	ub_str(b, "header_event");
	path_of(path, sizeof(path), "%s/header_event", events);
	if (put_file64(b, path))
		return fprintf(stderr, "all_formats: cannot read %s\n", path), -1;
	ub_u32(b, 0);                                              /* ftrace formats: 0 */
	nsys_at = b->len;
	ub_u32(b, 0);                                              /* systems, patched */
	n = scandir(events, &sys, only_dirs, alphasort);
	if (n < 0)
		return fprintf(stderr, "all_formats: cannot list %s\n", events), -1;
	*nr_sys = *nr_fmt = 0;
	for (int i = 0; i < n; i++) {
		path_of(path, sizeof(path), "%s/%s", events, sys[i]->d_name);
		if (is_dir(path)) {
			*nr_fmt += put_system(b, events, sys[i]->d_name);
			++*nr_sys;
		}
		free(sys[i]);
	}
	free(sys);
	put_u32(b->p, nsys_at, *nr_sys);
	ub_u32(b, 0);                                              /* kallsyms: 0 */
	path_of(path, sizeof(path), "%s/printk_formats", dir);
	text = read_all(path, &len);
	ub_u32(b, text ? (uint32_t)len : 0);                       /* printk_formats */
	ub_bytes(b, text, text ? len : 0);
	free(text);
	ub_u64(b, 0);                                              /* saved_cmdlines: 0 */
	return 0;
}

static const struct fmt_span *span_at(size_t off)
{
	for (size_t i = 0; i < nr_spans; i++)
		if (off >= spans[i].start && off < spans[i].end)
			return &spans[i];
	return NULL;
}

/* A sanitizer report inside tep_print_event ends the process: say which event. */
static void on_death(void)
{
	if (!rendering)
		return;
	fprintf(stderr, "all_formats: died rendering %s\n", rendering);
	printf("not ok %d - rendering %s crashed (see the sanitizer report)\n", unit_nr + 1,
	       rendering);
	fflush(stdout);
}

/* The record size of @ev: the end of its last field. */
static size_t event_size(const struct tep_event *ev)
{
	size_t end = 8;

	for (const struct tep_format_field *f = ev->format.common_fields; f; f = f->next)
		if ((size_t)f->offset + (size_t)f->size > end)
			end = (size_t)f->offset + (size_t)f->size;
	for (const struct tep_format_field *f = ev->format.fields; f; f = f->next)
		if ((size_t)f->offset + (size_t)f->size > end)
			end = (size_t)f->offset + (size_t)f->size;
	return end;
}

/* Render a zero-filled record (common_type set) of every event. */
static unsigned render_all(struct tep_handle *tep, unsigned *nr_failed_marker)
{
	struct tep_event **list = tep_list_events_copy(tep, TEP_EVENT_SORT_SYSTEM);
	unsigned n = 0;
	char name[256];

	*nr_failed_marker = 0;
	for (size_t i = 0; list && list[i]; i++) {
		struct tep_event *ev = list[i];
		struct tep_format_field *ct = tep_find_common_field(ev, "common_type");
		size_t size = event_size(ev);
		unsigned char *data = calloc(1, size);
		struct tep_record rec = { .data = data, .size = (int)size, .cpu = 0 };
		struct trace_seq seq;

		if (ct && ct->size == 2 && (size_t)ct->offset + 2 <= size)
			put_u16(data, (size_t)ct->offset, (uint16_t)ev->id);
		else if (ct && ct->size == 4 && (size_t)ct->offset + 4 <= size)
			put_u32(data, (size_t)ct->offset, (uint32_t)ev->id);
		snprintf(name, sizeof(name), "%s:%s", ev->system, ev->name);
		rendering = name;
		trace_seq_init(&seq);
		tep_print_event(tep, &seq, &rec, "%s", TEP_PRINT_INFO);
		trace_seq_terminate(&seq);
		if (strstr(seq.buffer, "[FAILED TO PARSE]"))
			++*nr_failed_marker;
		trace_seq_destroy(&seq);
		rendering = NULL;
		free(data);
		n++;
	}
	free(list);
	return n;
}

/* libtraceevent 1.7.1 leaks a 2-byte token while parsing
 * kvm:kvm_inj_exception's "__print_symbolic(REC->error_code, { })"
 * (strdup in __read_token under process_entry). That is its bug, not
 * tracebox's: keep LeakSanitizer from failing the run on it. */
__attribute__((used)) const char *__lsan_default_suppressions(void)
{
	return "leak:process_entry\n";
}

/* libtraceevent's messages, caught while one format is re-parsed (its
 * tep_vprint is weak so that programs can take its output). */
static int capturing;
static char captured[256];

int tep_vprint(const char *name, enum tep_loglevel level, bool print_err, const char *fmt,
	       va_list ap)
{
	char *p;

	if (!capturing)
		return __tep_vprint(name, level, print_err, fmt, ap);
	if (captured[0])
		return 0;              /* the first message is the cause */
	vsnprintf(captured, sizeof(captured), fmt, ap);
	for (p = captured; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
	return 0;
}

static const struct fmt_span *span_of(const char *sys, const char *name)
{
	for (size_t i = 0; i < nr_spans; i++)
		if (!strcmp(spans[i].sys, sys) && !strcmp(spans[i].name, name))
			return &spans[i];
	return NULL;
}

/* Why libtraceevent failed @ev: parse its format text again on its own and
 * keep the first message it prints. */
static void failure_reason(const struct ubuf *b, const struct tep_event *ev, char *out,
			   size_t size)
{
	const struct fmt_span *sp = span_of(ev->system, ev->name);
	struct tep_handle *tep;
	struct tep_event *again = NULL;
	char reason[128];
	char *text;
	size_t len;

	if (!sp) {
		snprintf(out, size, "(its format file was not found again)");
		return;
	}
	len = sp->end - sp->start - 8;
	text = malloc(len + 1);
	memcpy(text, b->p + sp->start + 8, len);
	text[len] = 0;
	tep = tep_alloc();
	tep_set_long_size(tep, sizeof(long));
	tep_set_page_size(tep, (int)sysconf(_SC_PAGESIZE));
	captured[0] = 0;
	capturing = 1;
	tep_set_loglevel(TEP_LOG_WARNING);
	tep_parse_format(tep, &again, text, len, ev->system);
	tep_set_loglevel(TEP_LOG_CRITICAL);
	capturing = 0;
	tep_strerror(tep, TEP_ERRNO__READ_PRINT_FAILED, reason, sizeof(reason));
	snprintf(out, size, "%s (libtraceevent: %s)", reason,
		 captured[0] ? captured : "no message");
	tep_free(tep);
	free(text);
}

int main(int argc, char **argv)
{
	struct ubuf b = { 0 };
	struct td_result res;
	struct tb_err err;
	unsigned nr_sys = 0, nr_fmt = 0, nr_flagged = 0, rendered, failed_marker;
	int r;

	if (argc < 2) {
		printf("ok 1 - # SKIP no tracefs given\n");
		return 0;
	}
	__sanitizer_set_death_callback(on_death);
	NOTE("tracefs: %s", argv[1]);
	if (build_payload(argv[1], &b, &nr_sys, &nr_fmt)) {
		T(0, "read the format files under %s/events", argv[1]);
		return done();
	}
	NOTE("payload: %zu bytes, %u systems, %u format files", b.len, nr_sys, nr_fmt);
	T(nr_fmt > 0, "format files found: %u", nr_fmt);

	memset(&err, 0, sizeof(err));
	r = td_parse(b.p, b.len, 0, &res, &err);
	if (r) {
		const struct fmt_span *sp = err.has_offset ? span_at((size_t)err.offset) : NULL;

		T(0, "td_parse accepted the payload: %s at payload offset %llu%s%s%s%s", err.msg,
		  (unsigned long long)err.offset, sp ? " (in " : "", sp ? sp->sys : "",
		  sp ? ":" : "", sp ? sp->name : "");
		printf("formats parsed: 0\nformat files: %u\n", nr_fmt);
		ub_free(&b);
		free(spans);
		return done();
	}
	T(1, "td_parse accepted the payload (%zu bytes)", b.len);
	T_EQ(res.parsed_size, b.len, "td_parse used the whole payload");
	T_EQ(res.nr_events, nr_fmt, "formats parsed: %u of %u format files", res.nr_events, nr_fmt);
	T_EQ(res.nr_systems, nr_sys, "systems parsed: %u", res.nr_systems);
	T_EQ(tep_get_events_count(res.tep), nr_fmt, "libtraceevent holds every event");
	/* One line per format libtraceevent could not fully parse: the
	 * warnings td_parse kept (reason: tep_strerror), then any event
	 * libtraceevent flagged TEP_EVENT_FL_FAILED that td_parse did not
	 * report (reason: libtraceevent's own message). */
	for (unsigned i = 0; i < res.nr_warnings; i++) {
		char reason[256];

		tep_strerror(res.tep, (enum tep_errno)res.warnings[i].tep_errno, reason, sizeof(reason));
		NOTE("warning: %s:%s: %s", res.warnings[i].system, res.warnings[i].name, reason);
	}
	{
		struct tep_event **list = tep_list_events_copy(res.tep, TEP_EVENT_SORT_SYSTEM);

		for (size_t i = 0; list && list[i]; i++) {
			char reason[600];
			int reported = 0;

			if (!(list[i]->flags & TEP_EVENT_FL_FAILED))
				continue;
			nr_flagged++;
			for (unsigned w = 0; w < res.nr_warnings && !reported; w++)
				reported = !strcmp(res.warnings[w].system, list[i]->system) &&
					   !strcmp(res.warnings[w].name, list[i]->name);
			if (reported)
				continue;
			failure_reason(&b, list[i], reason, sizeof(reason));
			NOTE("warning: %s:%s: %s (not in td_parse's warnings)", list[i]->system,
			     list[i]->name, reason);
		}
		free(list);
	}
	T(1, "%u formats libtraceevent could not fully parse (listed above as warnings)", nr_flagged);
	T_EQ(res.nr_warnings, nr_flagged,
	     "td_parse reports every format libtraceevent flagged as failed (%u of %u)",
	     res.nr_warnings, nr_flagged);

	rendered = render_all(res.tep, &failed_marker);
	T_EQ(rendered, nr_fmt, "rendered a zero-filled record of each of the %u events without a crash",
	     rendered);
	T_EQ(failed_marker, nr_flagged,
	     "the renders that print \"[FAILED TO PARSE]\" are the %u flagged formats", nr_flagged);

	printf("formats parsed: %u\nformat files: %u\nwarnings: %u\n", res.nr_events, nr_fmt,
	       nr_flagged);
	td_result_free(&res);
	ub_free(&b);
	free(spans);
	return done();
}
