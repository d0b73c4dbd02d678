/* sym_srccode.c - a line of a source file the DWARF names, read from a bounded cache of files (perf's srccode.c find_sourceline). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbols/sym_machine_int.h"
#include "util/io.h"

#define SRC_FILE_MAX (64u << 20)   /* a larger "source file" is not read */

/* the file @path mapped, from the cache or mapped now (the least recently
 * used slot given up); NULL when it is no regular file of a sane size */
static struct sym_srcfile *file_of(struct sym_machine *m, const char *path)
{
	struct sym_srcfile *f = NULL;
	struct stat st;
	int fd;

	for (size_t i = 0; i < SYM_SRCFILES; i++) {
		struct sym_srcfile *s = &m->srcfiles[i];

		if (s->path && !strcmp(s->path, path)) {
			s->used = ++m->srcfile_clock;
			return s->map ? s : NULL;     /* a failure is kept too */
		}
		if (!f || s->used < f->used)
			f = s;
	}
	if (f->path) {
		if (f->map)
			munmap(f->map, f->size);
		free(f->path);
	}
	memset(f, 0, sizeof(*f));
	if (!(f->path = strdup(path)))
		return NULL;
	f->used = ++m->srcfile_clock;
	fd = open_regular(path, SRC_FILE_MAX, &st, NULL);
	if (fd < 0)
		return NULL;
	if (st.st_size > 0) {
		f->map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (f->map == MAP_FAILED)
			f->map = NULL;
		else
			f->size = (size_t)st.st_size;
	}
	close(fd);
	return f->map ? f : NULL;
}

const char *sym_machine_source_line(struct sym_machine *m, const char *path, unsigned line,
				    size_t *len)
{
	struct sym_srcfile *f;
	const char *p, *end;

	if (!line || !(f = file_of(m, path)))
		return NULL;
	p = f->map;
	end = p + f->size;
	for (unsigned n = 1; n < line; n++) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (!nl)
			return NULL;
		p = nl + 1;
	}
	if (p >= end)
		return NULL;
	end = memchr(p, '\n', (size_t)(end - p)) ?: end;
	*len = (size_t)(end - p);
	return p;
}

void sym_machine_srcfiles_free(struct sym_machine *m)
{
	for (size_t i = 0; i < SYM_SRCFILES; i++) {
		if (m->srcfiles[i].map)
			munmap(m->srcfiles[i].map, m->srcfiles[i].size);
		free(m->srcfiles[i].path);
	}
	memset(m->srcfiles, 0, sizeof(m->srcfiles));
}
