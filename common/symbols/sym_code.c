/* sym_code.c - the code bytes at a user address, read from its DSO's file
 * as perf's thread__memcpy reads them (dso__data_read_offset: the
 * build-id cache's copy first, then the file under --symfs; the map's
 * offset is the file offset). The last file stays open. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "symbols/elf_buildid.h"
#include "symbols/insn_x86.h"
#include "symbols/sym_machine_int.h"
#include "util/io.h"

static void code_close(struct sym_machine *m)
{
	if (m->code_path)
		close(m->code_fd);
	free(m->code_path);
	m->code_path = NULL;
}

/* Open @path (a regular file only) as the current code file. */
static int code_open(struct sym_machine *m, const char *path)
{
	struct stat st;
	unsigned char ident[5];
	int fd;

	if (m->code_path && !strcmp(m->code_path, path))
		return 0;
	/* a path from the recording: a regular file only, no device opened */
	fd = open_regular(path, 0, &st, NULL);
	if (fd < 0)
		return -1;
	code_close(m);
	m->code_path = strdup(path);
	if (!m->code_path) {
		close(fd);
		return -1;
	}
	m->code_fd = fd;
	/* dso->is_64_bit: the ELF class, else the host's word size */
	m->code_is64 = !(pread(fd, ident, 5, 0) == 5 && !memcmp(ident, "\177ELF", 4) &&
			 ident[4] == 1);
	return 0;
}

/* The file @l's code is read from: the build-id cache's copy (its elf or
 * vdso), else the DSO's own path under --symfs. 0 with @path set, or -1. */
static int code_file(struct sym_machine *m, const struct sym_loc *l, char *path, size_t n,
		     int which)
{
	char hex[41];

	if (which == 0) {
		struct stat st;
		size_t k;

		if (!l->build_id || !l->build_id_len || l->build_id_len > 20)
			return -1;
		buildid_hex(l->build_id, (int)l->build_id_len, hex);
		snprintf(path, n, "%s/.build-id/%.2s/%s", m->buildid_dir, hex, hex + 2);
		k = strlen(path);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			snprintf(path + k, n - k, "/%s", strcmp(l->dso, "[vdso]") ? "elf" : "vdso");
		return 0;
	}
	if (l->dso[0] != '/')
		return -1;
	snprintf(path, n, "%s%s", m->symfs ? m->symfs : "", l->dso);
	return 0;
}

size_t sym_machine_read_code(struct sym_machine *m, int32_t pid, uint16_t cpumode,
			     uint64_t addr, unsigned char *buf, size_t n, int *is64)
{
	struct sym_loc l;
	char path[4096];
	ssize_t got;
	int open = -1;

	if ((cpumode & 7) != 2 || sym_machine_resolve(m, pid, cpumode, addr, &l) || !l.have_map)
		return 0;
	for (int which = 0; which < 2 && open; which++)
		if (!code_file(m, &l, path, sizeof(path), which))
			open = code_open(m, path);
	if (open)
		return 0;
	got = pread(m->code_fd, buf, n, (off_t)l.map_ip);
	*is64 = m->code_is64;
	return got > 0 ? (size_t)got : 0;
}

int sym_machine_map_file(struct sym_machine *m, int32_t pid, uint64_t addr,
			 struct sym_map_file *out)
{
	struct sym_loc l;
	const void *dso;
	uint64_t map_ip, map_start;

	memset(out, 0, sizeof(*out));
	out->fd = -1;
	if (!sym_machine_map_of(m, pid, addr, &dso, &map_ip, &map_start) ||
	    sym_machine_resolve(m, pid, 2, addr, &l) || !l.have_map)
		return -1;
	out->dso = dso;
	out->start = l.map_start;
	out->end = l.map_end;
	out->pgoff = map_start + map_ip - addr;
	out->name = l.dso;
	out->short_name = l.dso_short;
	for (int which = 0; which < 2 && out->fd < 0; which++)
		if (!code_file(m, &l, out->path, sizeof(out->path), which))
			out->fd = open_regular(out->path, 0, NULL, NULL);
	return out->fd < 0 ? -1 : 0;
}

/* perf's native_arch: the recording's arch is this machine's (or i386 on
 * x86_64); NULL (a pipe) counts as native */
static int native_arch(const char *arch)
{
	struct utsname u;

	if (!arch)
		return 1;
	return !uname(&u) && (!strcmp(u.machine, arch) ||
			      (!strcmp(u.machine, "x86_64") && !strcmp(arch, "i386")));
}

size_t sym_machine_fetch_insn(struct sym_machine *m, int32_t pid, uint16_t cpumode, uint64_t ip,
			      unsigned char insn[16])
{
#if defined(__x86_64__) || defined(__i386__)
	size_t n;
	int is64 = 1;

	if (!m->code_native)         /* once: uname(2) is no per-sample call */
		m->code_native = native_arch(m->o.arch) ? 1 : 2;
	if (!ip || m->code_native != 1)
		return 0;
	n = sym_machine_read_code(m, pid, cpumode, ip, insn, 16, &is64);
	return n ? insn_x86_length(insn, n, is64) : 0;
#else
	(void)m; (void)pid; (void)cpumode; (void)ip; (void)insn;
	return 0;       /* perf's arch_fetch_insn exists for x86 only */
#endif
}
