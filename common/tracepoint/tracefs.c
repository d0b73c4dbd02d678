/* tracefs.c - find tracefs, read its files, list its events. Read-only:
 * tracebox never writes a tracing control file. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "tracepoint/tracefs.h"
#include "util/io.h"

int tracefs_find(char *buf, size_t len, struct tb_err *err)
{
	FILE *f = fopen("/proc/mounts", "re");
	char dev[256], dir[512], type[64];
	char debugfs[600] = "";
	struct stat st;

	if (!f)
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "cannot read /proc/mounts: %s", strerror(errno));
	while (fscanf(f, "%255s %511s %63s %*s %*d %*d\n", dev, dir, type) == 3) {
		if (!strcmp(type, "tracefs")) {
			snprintf(buf, len, "%s", dir);
			fclose(f);
			return 0;
		}
		if (!strcmp(type, "debugfs") && !debugfs[0])
			snprintf(debugfs, sizeof(debugfs), "%s/tracing", dir);
	}
	fclose(f);
	if (debugfs[0] && stat(debugfs, &st) == 0 && S_ISDIR(st.st_mode)) {
		snprintf(buf, len, "%s", debugfs);
		return 0;
	}
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
			  "tracefs is not mounted (mount -t tracefs nodev /sys/kernel/tracing)");
}

int tracefs_read(const char *path, char **out, size_t *len, struct tb_err *err)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), e;

	if (fd < 0) {
		e = errno;
		tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot read %s: %s", path, strerror(e));
		errno = e;
		return TB_ERR_IO;
	}
	if (read_all(fd, 0, out, len) == 0) {
		close(fd);
		return 0;
	}
	e = errno;
	close(fd);
	if (e == ENOMEM)
		return TB_ERR_NOMEM;
	return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "reading %s: %s", path, strerror(e));
}

long tracefs_event_id(const char *tracefs, const char *sys, const char *event,
		      struct tb_err *err)
{
	char path[1024], *text;
	size_t len;
	long id;
	int r;

	if (strchr(sys, '/') || strchr(event, '/') || !sys[0] || !event[0] ||
	    !strcmp(sys, "..") || !strcmp(event, ".."))
		return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
				  "'%s:%s' is not a tracepoint name", sys, event);
	snprintf(path, sizeof(path), "%s/events/%s/%s/id", tracefs, sys, event);
	r = tracefs_read(path, &text, &len, NULL);
	if (r && (errno == EACCES || errno == EPERM))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "not permitted to read %s: run as root", path);
	if (r)
		return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
				  "unknown tracepoint '%s:%s' (see trace-list --events)",
				  sys, event);
	id = strtol(text, NULL, 10);
	free(text);
	return id;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

long tracefs_list_events(const char *tracefs, const char *glob,
			 void (*fn)(void *ctx, const char *name), void *ctx,
			 struct tb_err *err)
{
	char path[1024];
	DIR *top, *sub;
	struct dirent *s, *e;
	char **names = NULL;
	size_t nr = 0, cap = 0;
	long r;

	snprintf(path, sizeof(path), "%s/events", tracefs);
	top = opendir(path);
	if (!top)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot list %s: %s", path,
				  strerror(errno));
	while ((s = readdir(top))) {
		if (s->d_name[0] == '.' || s->d_type != DT_DIR)
			continue;
		snprintf(path, sizeof(path), "%s/events/%s", tracefs, s->d_name);
		sub = opendir(path);
		if (!sub)
			continue;
		while ((e = readdir(sub))) {
			char name[600], idpath[1400];

			if (e->d_name[0] == '.' || e->d_type != DT_DIR)
				continue;
			snprintf(name, sizeof(name), "%s:%s", s->d_name, e->d_name);
			if (glob && fnmatch(glob, name, 0))
				continue;
			/* only what perf_event_open records: a tracepoint has an id
			 * and an enable file; ftrace's own formats (ftrace:*) have
			 * no enable file, some no id, and perf_event_open refuses them */
			snprintf(idpath, sizeof(idpath), "%s/%s/id", path, e->d_name);
			if (access(idpath, F_OK))
				continue;
			snprintf(idpath, sizeof(idpath), "%s/%s/enable", path, e->d_name);
			if (access(idpath, F_OK))
				continue;
			if (nr == cap) {
				char **n = realloc(names, (cap = cap ? cap * 2 : 256) * sizeof(*n));

				if (!n)
					break;
				names = n;
			}
			names[nr] = strdup(name);
			if (names[nr])
				nr++;
		}
		closedir(sub);
	}
	closedir(top);
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_str);
	for (size_t i = 0; i < nr; i++) {
		fn(ctx, names[i]);
		free(names[i]);
	}
	free(names);
	r = (long)nr;
	return r;
}

int file_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	int ok;

	if (!f)
		return -1;
	ok = fgets(buf, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -1;
	buf[strcspn(buf, "\n")] = 0;
	return 0;
}
