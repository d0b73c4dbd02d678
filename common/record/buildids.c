/* buildids.c - the build ids of the files a recording sampled, written as
 * perf 6.1 writes them: the HEADER_BUILD_ID feature (perf-data-format.md
 * 5.1: struct perf_record_header_build_id, misc BUILD_ID_SIZE) and the
 * build-id cache that perf record fills at the end of a recording. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "record/buildids.h"
#include "util/io.h"
#include "util/tb_err.h"

/* The [vdso] mapping of this process, from /proc/self/maps. */
static int own_vdso(const unsigned char **p, size_t *len)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	unsigned long long s, e;
	int found = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &s, &e) == 2 && e > s) {
			*p = (const unsigned char *)(uintptr_t)s;
			*len = (size_t)(e - s);
			found = 0;
			break;
		}
	fclose(f);
	return found;
}

static int kernel_buildid(uint8_t id[BUILDID_MAX])
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? buildid_notes(buf, (size_t)n, id) : -1;
}

int bid_collect(const struct dso_hits *h, struct bid_list *l)
{
	memset(l, 0, sizeof(*l));
	l->e = calloc(h->nr_dsos ? h->nr_dsos : 1, sizeof(*l->e));
	if (!l->e)
		return TB_ERR_NOMEM;
	for (size_t i = 0; i < h->nr_dsos; i++) {
		const struct dh_dso *d = &h->dsos[i];
		struct bid_entry *e = &l->e[l->nr];
		const unsigned char *vp;
		size_t vlen;

		/* perf lists the vdso hit or not (dsos__write_buildid_table), and
		 * caches the kernel hit or not (its build id is read up front) */
		e->vdso = !strcmp(d->name, "[vdso]");
		e->kernel = d->kernel;
		e->listed = d->hit || e->vdso;
		if (!e->listed && !(d->kernel && !strcmp(d->name, "[kernel.kallsyms]")))
			continue;
		e->name = d->name;
		if (d->kernel && !strcmp(d->name, "[kernel.kallsyms]"))
			e->len = kernel_buildid(e->id);
		else if (e->vdso)
			e->len = own_vdso(&vp, &vlen) ? -1 : buildid_elf_mem(vp, vlen, e->id);
		else if (d->name[0] == '/')
			e->len = buildid_elf_file(d->name, e->id);
		else
			e->len = -1;
		if (e->len > 0)
			l->nr++;
	}
	return 0;
}

int bid_feature(const struct bid_list *l, unsigned char **out, size_t *len)
{
	size_t total = 0, at = 0;
	unsigned char *b;

	for (size_t i = 0; i < l->nr; i++)
		if (l->e[i].listed)
			total += 36 + ((strlen(l->e[i].name) + 1 + 63) & ~(size_t)63);
	b = calloc(1, total ? total : 1);
	if (!b)
		return TB_ERR_NOMEM;
	for (size_t i = 0; i < l->nr; i++) {
		const struct bid_entry *e = &l->e[i];
		uint16_t size = (uint16_t)(36 + ((strlen(e->name) + 1 + 63) & ~(size_t)63));
		uint16_t misc = (uint16_t)((1u << 15) /* PERF_RECORD_MISC_BUILD_ID_SIZE */ |
					   (e->kernel ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER));
		int32_t pid = -1;                 /* perf's HOST_KERNEL_ID */

		if (!e->listed)
			continue;

		memcpy(b + at + 4, &misc, 2);
		memcpy(b + at + 6, &size, 2);
		memcpy(b + at + 8, &pid, 4);
		memcpy(b + at + 12, e->id, (size_t)e->len);
		b[at + 12 + 20] = (uint8_t)e->len;
		memcpy(b + at + 36, e->name, strlen(e->name));
		at += size;
	}
	*out = b;
	*len = total;
	return 0;
}

/* Copy @from (or the bytes @mem) to @to with @mode. */
static int copy_to(const char *from, const unsigned char *mem, size_t len, const char *to, mode_t mode)
{
	char buf[65536];
	int in = -1, out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode), r = 0;
	ssize_t n;

	if (out < 0)
		return errno == EEXIST ? 0 : -1;
	if (mem) {
		r = writen(out, mem, len);
	} else if ((in = open_regular(from, 0, NULL, NULL)) < 0) {   /* a DSO: as big as it is */
		r = -1;
	} else {
		while ((n = read_some(in, buf, sizeof(buf))) > 0 && !r)
			r = writen(out, buf, (size_t)n);
		if (n < 0)
			r = -1;
		close(in);
	}
	fchmod(out, mode);
	close(out);
	if (r)
		unlink(to);
	return r;
}

static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int cache_one(const struct bid_entry *e, const char *dir)
{
	char hex[2 * BUILDID_MAX + 1], *d = NULL, *file = NULL, *lnk = NULL, *target = NULL;
	const char *sub = e->kernel ? "[kernel.kallsyms]" : e->name + (e->name[0] == '/');
	const unsigned char *vp = NULL;
	size_t vlen = 0;
	int r = -1;

	buildid_hex(e->id, e->len, hex);
	if (asprintf(&d, "%s/%s/%s", dir, sub, hex) < 0)
		d = NULL;
	if (!d || mkdir_p(d, 0755))
		goto out;
	if (e->kernel) {
		if (asprintf(&file, "%s/kallsyms", d) < 0 || copy_to("/proc/kallsyms", NULL, 0, file, 0755))
			goto out;
	} else if (e->vdso) {
		if (own_vdso(&vp, &vlen) || asprintf(&file, "%s/vdso", d) < 0 ||
		    copy_to(NULL, vp, vlen, file, 0600))
			goto out;
	} else {
		if (asprintf(&file, "%s/elf", d) < 0)
			goto out;
		if (link(e->name, file) && errno != EEXIST && copy_to(e->name, NULL, 0, file, 0755))
			goto out;
		/* and its separate debug info, where the distribution installed it */
		free(file);
		file = NULL;
		if (asprintf(&lnk, "/usr/lib/debug/.build-id/%.2s/%s.debug", hex, hex + 2) < 0 ||
		    asprintf(&file, "%s/debug", d) < 0)
			goto out;
		if (access(lnk, R_OK) == 0 && link(lnk, file) && errno != EEXIST)
			copy_to(lnk, NULL, 0, file, 0644);
		free(lnk);
		lnk = NULL;
	}
	free(file);
	file = NULL;
	if (!e->kernel && (asprintf(&file, "%s/probes", d) < 0 || touch(file)))
		goto out;
	{
		/* DIR/.build-id/ab/cdef... -> ../../SUB/abcdef... */
		if (asprintf(&lnk, "%s/.build-id/%.2s", dir, hex) < 0 || mkdir_p(lnk, 0755))
			goto out;
		free(lnk);
		lnk = NULL;
		if (asprintf(&lnk, "%s/.build-id/%.2s/%s", dir, hex, hex + 2) < 0 ||
		    asprintf(&target, "../../%s/%s", sub, hex) < 0)
			goto out;
		if (symlink(target, lnk) && errno != EEXIST)
			goto out;
	}
	r = 0;
out:
	free(d);
	free(file);
	free(lnk);
	free(target);
	return r;
}

int bid_cache(const struct bid_list *l, const char *dir)
{
	int failed = 0;

	for (size_t i = 0; i < l->nr; i++)
		failed += cache_one(&l->e[i], dir) ? 1 : 0;
	return failed;
}

void bid_list_free(struct bid_list *l)
{
	free(l->e);
	memset(l, 0, sizeof(*l));
}
