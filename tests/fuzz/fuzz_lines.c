/* fuzz_lines.c - libFuzzer target: the DWARF line and inline lookups (common/symbols/sym_dwarf.c).
 * Input: an ELF file with DWARF (seeds: the source-level test program and
 * its library, built -O2 -g). Opened as a DSO's debug file is, then looked
 * up at addresses spread over its loaded segments and at some the input's
 * last bytes name. Checks each answer stays within the bound asked for and
 * its strings are readable. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz.h"
#include "symbols/sym_dwarf.h"

static volatile size_t sink;

static void lookup(struct sym_dwarf *dw, uint64_t off)
{
	struct sym_dwarf_frame f[SYM_DWARF_MAX_NEST];
	size_t n = sym_dwarf_frames(dw, off, f, SYM_DWARF_MAX_NEST);

	if (n > SYM_DWARF_MAX_NEST)
		abort();
	for (size_t i = 0; i < n; i++)
		sink += (f[i].name ? strlen(f[i].name) : 0) + (f[i].file ? strlen(f[i].file) : 0) +
			(f[i].dir ? strlen(f[i].dir) : 0) + f[i].line;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = fz_memfd(data, size);
	struct sym_dwarf *dw;
	char path[64];

	if (fd < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if ((dw = sym_dwarf_open(path))) {
		for (uint64_t off = 0; off < 0x4000; off += 0x10)
			lookup(dw, off);
		for (size_t i = 8; i <= size && i <= 64; i += 8) {
			uint64_t off;

			memcpy(&off, data + size - i, 8);
			lookup(dw, off);
			lookup(dw, off & 0xffffff);
		}
		sym_dwarf_close(dw);
	}
	close(fd);
	return 0;
}
