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

size_t sym_machine_read_code(struct sym_machine *m, int32_t pid, uint16_t cpumode,
			     uint64_t addr, unsigned char *buf, size_t n, int *is64)
{
	struct sym_loc l;
	char path[4096], hex[41];
	ssize_t got;
	int open = -1;

	if ((cpumode & 7) != 2 || sym_machine_resolve(m, pid, cpumode, addr, &l) || !l.have_map)
		return 0;
	if (l.build_id && l.build_id_len && l.build_id_len <= 20) {
		struct stat st;

		buildid_hex(l.build_id, (int)l.build_id_len, hex);
		snprintf(path, sizeof(path), "%s/.build-id/%.2s/%s", m->buildid_dir, hex, hex + 2);
		if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
			size_t k = strlen(path);

			snprintf(path + k, sizeof(path) - k, "/%s",
				 strcmp(l.dso, "[vdso]") ? "elf" : "vdso");
		}
		open = code_open(m, path);
	}
	if (open && l.dso[0] == '/') {
		snprintf(path, sizeof(path), "%s%s", m->symfs ? m->symfs : "", l.dso);
		open = code_open(m, path);
	}
	if (open)
		return 0;
	got = pread(m->code_fd, buf, n, (off_t)l.map_ip);
	*is64 = m->code_is64;
	return got > 0 ? (size_t)got : 0;
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
