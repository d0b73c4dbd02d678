/* td_write.c - build the tracing data payload from tracefs (perf's
 * util/trace-event-info.c layout; perf-data-format.md section 5.3). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "bytebuf.h"
#include "td_write.h"
#include "tracefs.h"

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

/* One system: count of recorded events that have a format, then each. */
static int put_system(struct bytebuf *b, const char *dir, const struct td_event_name *evs,
		      size_t nr, struct tb_err *err)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint32_t count = 0;
	char path[1024];
	struct stat st;
	int r = 0;

	if (!d)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot list %s", dir);
	while ((e = readdir(d)))
		if (is_subdir(e) && recorded_name(e->d_name, evs, nr)) {
			snprintf(path, sizeof(path), "%s/%s/format", dir, e->d_name);
			count += stat(path, &st) == 0;
		}
	bb_put(b, &count, 4);
	rewinddir(d);
	while (!r && (e = readdir(d)))
		if (is_subdir(e) && recorded_name(e->d_name, evs, nr)) {
			snprintf(path, sizeof(path), "%s/%s/format", dir, e->d_name);
			if (stat(path, &st) == 0)
				r = put_file(b, path, 8, err);
		}
	closedir(d);
	return r;
}

int td_build(const char *tracefs, const struct td_event_name *evs, size_t nr,
	     unsigned char **out, size_t *len, struct tb_err *err)
{
	struct bytebuf b = { 0 };
	char path[1024];
	uint32_t count = 0, page = (uint32_t)sysconf(_SC_PAGESIZE);
	unsigned char endian_long[2] = { __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__,
					 (unsigned char)sizeof(long) };
	struct dirent *e;
	DIR *d;
	int r;

	bb_put(&b, "\027\010\104tracing", 10);
	bb_put(&b, "0.6", 4);
	bb_put(&b, endian_long, 2);
	bb_put(&b, &page, 4);
	bb_put(&b, "header_page", 12);
	snprintf(path, sizeof(path), "%s/events/header_page", tracefs);
	if ((r = put_file(&b, path, 8, err)))
		goto fail;
	bb_put(&b, "header_event", 13);
	snprintf(path, sizeof(path), "%s/events/header_event", tracefs);
	if ((r = put_file(&b, path, 8, err)))
		goto fail;
	snprintf(path, sizeof(path), "%s/events/ftrace", tracefs);
	if ((r = put_system(&b, path, evs, nr, err)))
		goto fail;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	d = opendir(path);
	if (!d) {
		r = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot list %s", path);
		goto fail;
	}
	while ((e = readdir(d)))
		count += is_subdir(e) && strcmp(e->d_name, "ftrace") &&
			 recorded_system(e->d_name, evs, nr);
	bb_put(&b, &count, 4);
	rewinddir(d);
	r = 0;
	while (!r && (e = readdir(d))) {
		struct stat st;
		char sys[1024];

		if (!is_subdir(e) || !strcmp(e->d_name, "ftrace") ||
		    !recorded_system(e->d_name, evs, nr))
			continue;
		snprintf(sys, sizeof(sys), "%s/events/%s", tracefs, e->d_name);
		if (stat(sys, &st) < 0)
			continue;
		bb_put(&b, e->d_name, strlen(e->d_name) + 1);
		r = put_system(&b, sys, evs, nr, err);
	}
	closedir(d);
	if (r)
		goto fail;
	bb_put(&b, "\0\0\0\0", 4);                   /* kallsyms: perf writes none */
	/* both optional: perf writes a zero size when the file is absent */
	snprintf(path, sizeof(path), "%s/printk_formats", tracefs);
	if (access(path, F_OK))
		bb_put(&b, "\0\0\0\0", 4);
	else if ((r = put_file(&b, path, 4, err)))
		goto fail;
	snprintf(path, sizeof(path), "%s/saved_cmdlines", tracefs);
	if (access(path, F_OK))
		bb_put(&b, "\0\0\0\0\0\0\0\0", 8);
	else if ((r = put_file(&b, path, 8, err)))
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
