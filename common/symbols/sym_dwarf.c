/* sym_dwarf.c - a DSO's DWARF through libdw: the line table and the inlined-subroutine tree at an address, as `eu-addr2line -i -f` reads them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#include <stdlib.h>
#include <unistd.h>
#include "symbols/sym_dwarf.h"
#include "symbols/sym_elf.h"
#include "util/io.h"

#define MAX_LOADS 16

struct sym_dwarf {
	int fd;
	Elf *elf;
	Dwarf *dbg;
	size_t nr_loads;
	struct { uint64_t vaddr, off, filesz; } loads[MAX_LOADS];
};

struct sym_dwarf *sym_dwarf_open(const char *path)
{
	struct sym_dwarf *dw = calloc(1, sizeof(*dw));
	size_t nph = 0;

	if (!dw || sym_elf_init()) {
		free(dw);
		return NULL;
	}
	dw->fd = open_regular(path, 0, NULL, NULL);
	if (dw->fd < 0 || !(dw->elf = elf_begin(dw->fd, ELF_C_READ_MMAP, NULL)) ||
	    elf_kind(dw->elf) != ELF_K_ELF || !(dw->dbg = dwarf_begin_elf(dw->elf, DWARF_C_READ, NULL))) {
		sym_dwarf_close(dw);
		return NULL;
	}
	/* the file offsets of the loaded segments, to turn an offset (perf's
	 * map_ip) into the address the DWARF speaks of */
	if (elf_getphdrnum(dw->elf, &nph))
		nph = 0;
	for (size_t i = 0; i < nph && dw->nr_loads < MAX_LOADS; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(dw->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		dw->loads[dw->nr_loads].vaddr = ph.p_vaddr;
		dw->loads[dw->nr_loads].off = ph.p_offset;
		dw->loads[dw->nr_loads].filesz = ph.p_filesz;
		dw->nr_loads++;
	}
	return dw;
}

void sym_dwarf_close(struct sym_dwarf *dw)
{
	if (!dw)
		return;
	if (dw->dbg)
		dwarf_end(dw->dbg);
	if (dw->elf)
		elf_end(dw->elf);
	if (dw->fd >= 0)
		close(dw->fd);
	free(dw);
}

static uint64_t vaddr_of(const struct sym_dwarf *dw, uint64_t off)
{
	for (size_t i = 0; i < dw->nr_loads; i++)
		if (off >= dw->loads[i].off && off - dw->loads[i].off < dw->loads[i].filesz)
			return off - dw->loads[i].off + dw->loads[i].vaddr;
	return off;
}

/* a function's name: its linkage name (C++), else its name, through
 * abstract origins and specifications */
static const char *die_name(Dwarf_Die *die)
{
	static const unsigned names[] = { DW_AT_linkage_name, DW_AT_MIPS_linkage_name, DW_AT_name };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		Dwarf_Attribute a;
		const char *s;

		if (dwarf_attr_integrate(die, names[i], &a) && (s = dwarf_formstring(&a)))
			return s;
	}
	return NULL;
}

/* where an inlined subroutine was called from: its call file and line */
static void call_site(Dwarf_Die *cu, Dwarf_Die *inl, const char **file, unsigned *line)
{
	Dwarf_Attribute a;
	Dwarf_Word idx = 0, ln = 0;
	Dwarf_Files *files;
	size_t nfiles;

	*file = NULL;
	*line = 0;
	if (dwarf_attr(inl, DW_AT_call_line, &a) && !dwarf_formudata(&a, &ln))
		*line = (unsigned)ln;
	if (dwarf_attr(inl, DW_AT_call_file, &a) && !dwarf_formudata(&a, &idx) &&
	    !dwarf_getsrcfiles(cu, &files, &nfiles) && idx < nfiles)
		*file = dwarf_filesrc(files, idx, NULL, NULL);
}

size_t sym_dwarf_frames(struct sym_dwarf *dw, uint64_t off, struct sym_dwarf_frame *out,
			size_t max)
{
	Dwarf_Addr pc = vaddr_of(dw, off);
	Dwarf_Die cu, *scopes = NULL;
	Dwarf_Line *ln;
	const char *file = NULL;
	unsigned line = 0;
	size_t k = 0;
	int n, l = 0;

	if (!max || !dwarf_addrdie(dw->dbg, pc, &cu))
		return 0;
	if ((ln = dwarf_getsrc_die(&cu, pc))) {
		file = dwarf_linesrc(ln, NULL, NULL);
		if (!dwarf_lineno(ln, &l) && l > 0)
			line = (unsigned)l;
	}
	/* the innermost scope at pc, then its physical parents: each inlined
	 * subroutine inside the function it was inlined into (dwarf_getscopes
	 * itself goes on into the abstract origins) */
	n = dwarf_getscopes(&cu, pc, &scopes);
	if (n > 0) {
		Dwarf_Die inner;

		n = dwarf_offdie(dw->dbg, dwarf_dieoffset(&scopes[0]), &inner) ?
			    (free(scopes), scopes = NULL, dwarf_getscopes_die(&inner, &scopes)) : 0;
	}
	for (int i = 0; i < n && k < max && k < SYM_DWARF_MAX_NEST; i++) {
		int tag = dwarf_tag(&scopes[i]);

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine &&
		    tag != DW_TAG_entry_point)
			continue;
		out[k].name = die_name(&scopes[i]);
		out[k].file = file;
		out[k].line = line;
		k++;
		if (tag != DW_TAG_inlined_subroutine)
			break;
		call_site(&cu, &scopes[i], &file, &line);
	}
	free(scopes);
	if (!k) {          /* a line, but no function around it */
		out[0].name = NULL;
		out[0].file = file;
		out[0].line = line;
		k = 1;
	}
	for (size_t i = 0; i < k; i++) {
		Dwarf_Attribute a;

		out[i].dir = out[i].file && out[i].file[0] != '/' ?
				     dwarf_formstring(dwarf_attr(&cu, DW_AT_comp_dir, &a)) : NULL;
	}
	return k;
}
