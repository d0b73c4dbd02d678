/* syscall_map.c - build, encode, decode and look up the syscall map. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_format.h"
#include "util/bytebuf.h"
#include "tracepoint/syscall_map.h"
#include "tracepoint/tracefs.h"

#define SCMAP_MAX 4096

static int cmp_nr(const void *a, const void *b)
{
	const struct sc_entry *x = a, *y = b;

	return x->nr < y->nr ? -1 : x->nr > y->nr;
}

static int add(struct syscall_map *m, uint32_t nr, const char *name, size_t len)
{
	struct sc_entry *n;

	if (m->nr >= SCMAP_MAX)
		return TB_ERR_FORMAT;
	n = realloc(m->ents, (m->nr + 1) * sizeof(*n));
	if (!n)
		return TB_ERR_NOMEM;
	m->ents = n;
	n[m->nr].nr = nr;
	n[m->nr].name = strndup(name, len);
	if (!n[m->nr].name)
		return TB_ERR_NOMEM;
	m->nr++;
	return 0;
}

static int set_names(struct syscall_map *m, const char *arch, const char *source)
{
	m->arch = strdup(arch);
	m->source = strdup(source);
	return m->arch && m->source ? 0 : TB_ERR_NOMEM;
}

/* By number; qsort's array must not be NULL, even for none. */
static void sort_entries(struct syscall_map *m)
{
	if (m->nr)
		qsort(m->ents, m->nr, sizeof(*m->ents), cmp_nr);
}

int scmap_from_text(struct syscall_map *m, const char *text, size_t len, const char *arch,
		    const char *source)
{
	const char *p = text, *end = text + len;
	int r;

	memset(m, 0, sizeof(*m));
	if ((r = set_names(m, arch, source)))
		return r;
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *le = nl ? nl : end, *name;
		char *num_end;
		unsigned long nr = strtoul(p, &num_end, 10);

		if (num_end > p && num_end < le && *num_end == ' ') {
			name = num_end + 1;
			if ((r = add(m, (uint32_t)nr, name, (size_t)(le - name))))
				return r;
		}
		p = le + 1;
	}
	sort_entries(m);
	return 0;
}

const struct sc_builtin_table *scmap_builtin_find(const char *arch)
{
	if (!strcmp(arch, "arm64"))    /* the kernel's name for it; uname says aarch64 */
		arch = "aarch64";
	else if (!strncmp(arch, "armv", 4))    /* uname's armv7l (armv6l, armv8l): the EABI table */
		arch = "arm";
	for (const struct sc_builtin_table *t = scmap_builtin_tables; t->arch; t++)
		if (!strcmp(arch, t->arch))
			return t;
	return NULL;
}

int scmap_from_builtin(struct syscall_map *m, const char *arch, struct tb_err *err)
{
	const struct sc_builtin_table *t = scmap_builtin_find(arch);
	char have[64] = "";
	int r;

	memset(m, 0, sizeof(*m));
	if (!t || t->nr == 0) {
		for (t = scmap_builtin_tables; t->arch; t++)    /* this build's tables */
			snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s%s",
				 *have ? ", " : "there are tables for ", t->arch);
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "no built-in syscall table for %s (%s)", arch,
				  *have ? have : "built without linux-source-6.1");
	}
	if ((r = scmap_from_text(m, t->text, strlen(t->text), t->arch, t->source))) {
		scmap_free(m);
		return r;
	}
	return 0;
}

int scmap_load(struct syscall_map *m, const char *tracefs, const char *arch, struct tb_err *err)
{
	char *path = NULL, *text;
	size_t len;
	int r, found;

	if (tracefs && asprintf(&path, "%s/syscall_map", tracefs) < 0)
		path = NULL;
	found = path && tracefs_read(path, &text, &len, NULL) == 0;
	free(path);
	if (found) {
		r = scmap_from_text(m, text, len, arch, "kernel (tracefs syscall_map)");
		free(text);
		if (r == 0 && m->nr > 0)
			return 0;
		scmap_free(m);
	}
	return scmap_from_builtin(m, arch, err);
}

static void wstr(struct bytebuf *b, const char *s)
{
	uint32_t n = (uint32_t)strlen(s) + 1;

	bb_put(b, &n, 4);
	bb_put(b, s, n);
}

int scmap_encode(const struct syscall_map *m, unsigned char **out, size_t *len)
{
	struct bytebuf b = { 0 };
	uint32_t v = 1;

	bb_put(&b, &v, 4);
	wstr(&b, m->arch);
	wstr(&b, m->source);
	bb_put(&b, &m->nr, 4);
	for (uint32_t i = 0; i < m->nr; i++) {
		bb_put(&b, &m->ents[i].nr, 4);
		wstr(&b, m->ents[i].name);
	}
	if (b.oom) {
		free(b.p);
		return TB_ERR_NOMEM;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}

static int rstr(const unsigned char *buf, size_t len, size_t *off, const char **s)
{
	uint32_t n;

	if (len - *off < 4)
		return -1;
	n = pd_u32(buf + *off);
	*off += 4;
	if (n == 0 || n > len - *off || buf[*off + n - 1] != 0)
		return -1;
	*s = (const char *)buf + *off;
	*off += n;
	return 0;
}

int scmap_decode(struct syscall_map *m, const unsigned char *buf, size_t len, uint64_t base,
		 struct tb_err *err)
{
	const char *arch, *source, *name;
	size_t off = 4;
	uint32_t nr;
	int r;

	memset(m, 0, sizeof(*m));
	if (len < 4 || pd_u32(buf) != 1)
		return tb_err_set(err, TB_ERR_FORMAT, base,
				  "syscall map: version %u is not 1", len < 4 ? 0 : pd_u32(buf));
	if (rstr(buf, len, &off, &arch) || rstr(buf, len, &off, &source) || len - off < 4)
		return tb_err_set(err, TB_ERR_FORMAT, base + off,
				  "syscall map: bad arch or source string");
	nr = pd_u32(buf + off);
	off += 4;
	if (nr > SCMAP_MAX || nr > (len - off) / 6)
		return tb_err_set(err, TB_ERR_FORMAT, base + off - 4,
				  "syscall map: %u entries do not fit in %zu bytes", nr, len - off);
	if ((r = set_names(m, arch, source)))
		return r;
	for (uint32_t i = 0; i < nr; i++) {
		uint32_t num;

		if (len - off < 4) {
			scmap_free(m);
			return tb_err_set(err, TB_ERR_TRUNCATED, base + off,
					  "syscall map: entry %u runs past the section", i);
		}
		num = pd_u32(buf + off);
		off += 4;
		if (rstr(buf, len, &off, &name)) {
			scmap_free(m);
			return tb_err_set(err, TB_ERR_FORMAT, base + off,
					  "syscall map: entry %u has a bad name", i);
		}
		if ((r = add(m, num, name, strlen(name)))) {
			scmap_free(m);
			return r;
		}
	}
	sort_entries(m);
	return 0;
}

const char *scmap_name(const struct syscall_map *m, uint32_t nr)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->ents[mid].nr == nr)
			return m->ents[mid].name;
		if (m->ents[mid].nr < nr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}

void scmap_free(struct syscall_map *m)
{
	for (uint32_t i = 0; m->ents && i < m->nr; i++)
		free(m->ents[i].name);
	free(m->ents);
	free(m->arch);
	free(m->source);
	memset(m, 0, sizeof(*m));
}
