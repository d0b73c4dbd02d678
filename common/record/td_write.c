/* td_write.c - build the tracing data payload from tracefs (perf's
 * util/trace-event-info.c layout; perf-data-format.md section 5.3). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/bytebuf.h"
#include "record/td_write.h"
#include "tracepoint/tracefs.h"

/* A file's bytes preceded by their count in @size_bytes (4 or 8). */
static int put_file(struct bytebuf *b, const char *path, int size_bytes, struct tb_err *err)
{
	char *text;
	size_t len;
	int r = tracefs_read(path, &text, &len, err);

	if (r)
		return r;
	if (size_bytes == 4) {
		uint32_t n = (uint32_t)len;

		bb_put(b, &n, 4);
	} else {
		uint64_t n = len;

		bb_put(b, &n, 8);
	}
	bb_put(b, text, len);
	free(text);
	return 0;
}

static int recorded_name(const char *name, const struct td_event_name *evs, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(evs[i].name, name))
			return 1;
	return 0;
}

static int recorded_system(const char *sys, const struct td_event_name *evs, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		if (!strcmp(evs[i].system, sys))
			return 1;
	return 0;
}

static int is_subdir(const struct dirent *d)
{
	return d->d_type == DT_DIR && strcmp(d->d_name, ".") && strcmp(d->d_name, "..");
}

/* A path made to its size; NULL with *@r = TB_ERR_NOMEM (and @err set). */
__attribute__((format(printf, 3, 4)))
static char *pathf(struct tb_err *err, int *r, const char *fmt, ...)
{
	char *p;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n >= 0)
		return p;
	*r = tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	return NULL;
}

/* tracefs's @name (events/header_page ...) into @b behind a @w-byte size. */
static int put_tracefs_file(struct bytebuf *b, const char *tracefs, const char *name, int w,
			    struct tb_err *err)
{
	int r = 0;
	char *path = pathf(err, &r, "%s/%s", tracefs, name);

	if (path)
		r = put_file(b, path, w, err);
	free(path);
	return r;
}

/* One system: count of recorded events that have a format, then each. */
static int put_system(struct bytebuf *b, const char *dir, const struct td_event_name *evs,
		      size_t nr, struct tb_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint32_t count = 0;
	char *path;
	struct stat st;
	int r = 0;

	if (!d)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot list %s", dir);
	while (!r && (e = readdir(d)))
		if (is_subdir(e) && recorded_name(e->d_name, evs, nr)) {
			if (!(path = pathf(err, &r, "%s/%s/format", dir, e->d_name)))
				break;
			count += stat(path, &st) == 0;
			free(path);
		}
	bb_put(b, &count, 4);
	rewinddir(d);
	while (!r && (e = readdir(d)))
		if (is_subdir(e) && recorded_name(e->d_name, evs, nr)) {
			if (!(path = pathf(err, &r, "%s/%s/format", dir, e->d_name)))
				break;
			if (stat(path, &st) == 0)
				r = put_file(b, path, 8, err);
			free(path);
		}
	closedir(d);
	return r;
}

/* events/ftrace, then the count of the other systems with a recorded
 * event, then each such system's name and formats. */
static int put_systems(struct bytebuf *b, const char *tracefs, const struct td_event_name *evs,
		       size_t nr, struct tb_err *err)
{
	char *path = pathf(err, &(int){ 0 }, "%s/events", tracefs), *sys;
	uint32_t count = 0;
	struct dirent *e;
	struct stat st;
	DIR *d;
	int r;

	if (!path)
		return TB_ERR_NOMEM;
	sys = pathf(err, &r, "%s/ftrace", path);
	r = sys ? put_system(b, sys, evs, nr, err) : TB_ERR_NOMEM;
	free(sys);
	d = r ? NULL : opendir(path);
	if (!r && !d)
		r = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot list %s", path);
	while (d && (e = readdir(d)))
		count += is_subdir(e) && strcmp(e->d_name, "ftrace") &&
			 recorded_system(e->d_name, evs, nr);
	if (d) {
		bb_put(b, &count, 4);
		rewinddir(d);
	}
	while (d && !r && (e = readdir(d))) {
		if (!is_subdir(e) || !strcmp(e->d_name, "ftrace") ||
		    !recorded_system(e->d_name, evs, nr))
			continue;
		if (!(sys = pathf(err, &r, "%s/%s", path, e->d_name)))
			break;
		if (stat(sys, &st) == 0) {
			bb_put(b, e->d_name, strlen(e->d_name) + 1);
			r = put_system(b, sys, evs, nr, err);
		}
		free(sys);
	}
	if (d)
		closedir(d);
	free(path);
	return r;
}

/* An optional tracefs file, or a zero size of @w bytes when it is absent. */
static int put_optional(struct bytebuf *b, const char *tracefs, const char *name, int w,
			struct tb_err *err)
{
	int r = 0;
	char *path = pathf(err, &r, "%s/%s", tracefs, name);
	static const unsigned char zero[8];

	if (path && access(path, F_OK))
		bb_put(b, zero, (size_t)w);
	else if (path)
		r = put_file(b, path, w, err);
	free(path);
	return r;
}

int td_build(const char *tracefs, const struct td_event_name *evs, size_t nr,
	     unsigned char **out, size_t *len, struct tb_err *err)
{
	struct bytebuf b = { 0 };
	uint32_t page = (uint32_t)sysconf(_SC_PAGESIZE);
	unsigned char endian_long[2] = { __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__,
					 (unsigned char)sizeof(long) };
	int r;

	bb_put(&b, "\027\010\104tracing", 10);
	bb_put(&b, "0.6", 4);
	bb_put(&b, endian_long, 2);
	bb_put(&b, &page, 4);
	bb_put(&b, "header_page", 12);
	if ((r = put_tracefs_file(&b, tracefs, "events/header_page", 8, err)))
		goto fail;
	bb_put(&b, "header_event", 13);
	if ((r = put_tracefs_file(&b, tracefs, "events/header_event", 8, err)) ||
	    (r = put_systems(&b, tracefs, evs, nr, err)))
		goto fail;
	bb_put(&b, "\0\0\0\0", 4);                   /* kallsyms: perf writes none */
	/* both optional: perf writes a zero size when the file is absent */
	if ((r = put_optional(&b, tracefs, "printk_formats", 4, err)) ||
	    (r = put_optional(&b, tracefs, "saved_cmdlines", 8, err)))
		goto fail;
	if (b.oom) {
		r = TB_ERR_NOMEM;
		goto fail;
	}
	*out = b.p;
	*len = b.len;
	return 0;
fail:
	free(b.p);
	return r;
}
