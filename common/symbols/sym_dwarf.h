/* sym_dwarf.h - a DSO's DWARF (elfutils' libdw): the source line of an address and the functions inlined there. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_DWARF_H
#define SYM_DWARF_H

#include <stddef.h>
#include <stdint.h>

struct sym_dwarf;

/** sym_dwarf_open - the DWARF of the ELF file @path (a regular file only);
 * NULL when it has none or cannot be read */
struct sym_dwarf *sym_dwarf_open(const char *path);
void sym_dwarf_close(struct sym_dwarf *dw);

/* one function of an address's inline chain */
struct sym_dwarf_frame {
	const char *name;     /* its linkage name, else its name; NULL: unknown */
	const char *file;     /* the line's file as the DWARF names it; NULL: none */
	const char *dir;      /* the compile unit's directory when @file is
				 relative, else NULL */
	unsigned line;
};

#define SYM_DWARF_MAX_NEST 64

/**
 * sym_dwarf_frames - what `addr2line -i -f` answers for file offset @off
 * (an address as perf's map_ip), from the DWARF's own tables: the
 * innermost function with the line of @off, then each function it was
 * inlined into with the line of the call, out to the real function.
 * Returns how many (at most @max), 0 when no compile unit covers @off.
 * Strings stay valid while @dw is open.
 */
size_t sym_dwarf_frames(struct sym_dwarf *dw, uint64_t off, struct sym_dwarf_frame *out,
			size_t max);

#endif
