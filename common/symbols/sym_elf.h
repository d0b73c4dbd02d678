/* sym_elf.h - reading an ELF file's symbols (libelf) the way perf 6.1's symbol-elf.c does. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_ELF_H
#define SYM_ELF_H

#include <stddef.h>
#include <stdint.h>
#include <gelf.h>
#include "symbols/sym_table.h"

/* where a dso's files are looked for, and what went wrong loading one */
struct sym_debuginfod;

struct sym_load_ctx {
	const char *symfs;        /* "" when none */
	struct sym_debuginfod *di;    /* servers to ask for what is not here, or NULL */
	const char *buildid_dir;  /* perf's ~/.debug */
	int demangle;             /* SYM_DEMANGLE_* */
	/* a one-line warning about the dso (hostile or unreadable ELF), or "" */
	char warning[320];
};

/* An ELF image in memory: a file is mapped private (as perf maps it; a
 * file truncated while it is read would fault, as under perf). */
struct sym_elf {
	Elf *elf;
	unsigned char *buf;       /* the file's mapping (or a buffer we own), or NULL */
	size_t len;
	int mapped;               /* buf is an mmap of len bytes */
	int fd;                   /* the mapped file, open (-1: none) */
	int fd_given;             /* a symbol table reads its names from fd now */
	GElf_Ehdr ehdr;
	Elf_Scn *symtab, *dynsym;
	GElf_Shdr symshdr, dynshdr;
	size_t dynsym_idx;
};

/* the largest ELF file looked at (open_regular's cap): a vmlinux with its
 * DWARF is under 1 GB, a debug file of a big C++ library a few hundred MB;
 * the file is mapped, not read, so the cap bounds address space, not
 * memory, and keeps a sparse file of terabytes out */
#define SYM_ELF_MAX_FILE (1ULL << 31)

/**
 * sym_elf_open_mem - parse the ELF image @buf (@len bytes, kept by the caller)
 * Returns 0, or -1 with @why (@n bytes) saying what is wrong.
 */
int sym_elf_open_mem(struct sym_elf *e, const void *buf, size_t len, char *why, size_t n);
/**
 * sym_elf_open_file - read @path and parse it
 * Returns 0; 1 if the file is missing or cannot be opened (no @why); -2
 * with @why if it is not a regular file (a FIFO, a device, a directory) or
 * larger than SYM_ELF_MAX_FILE; -1 with @why if it cannot be mapped or is
 * no valid ELF; TB_ERR_NOMEM.
 */
int sym_elf_open_file(struct sym_elf *e, const char *path, char *why, size_t n);
void sym_elf_close(struct sym_elf *e);

/** sym_elf_init - set libelf's version, once for every thread; 0, or -1
 * when libelf is out of date */
int sym_elf_init(void);
/** sym_elf_build_id - the GNU build-id note (perf's elf_read_build_id); its length or 0 */
size_t sym_elf_build_id(struct sym_elf *e, unsigned char out[20]);
/** sym_elf_debuglink - the .gnu_debuglink file name, and the CRC-32 of the
 * debug file it names in *@crc: 0; 1 with the name but no CRC; -1 if none */
int sym_elf_debuglink(struct sym_elf *e, char *out, size_t n, uint32_t *crc);

/* the largest MiniDebugInfo image decoded (a symbol table and little else) */
#define SYM_DEBUGDATA_MAX (64u << 20)

/**
 * sym_elf_debugdata - the MiniDebugInfo of @e: its .gnu_debugdata section
 * (an xz-compressed ELF image holding the symbols stripped from the file)
 * decoded into a malloc'd buffer of *@len bytes; NULL when it has none, or
 * it does not decode within SYM_DEBUGDATA_MAX.
 */
unsigned char *sym_elf_debugdata(struct sym_elf *e, size_t *len);

/**
 * sym_elf_load_syms - perf's dso__load_sym for a user DSO: .symtab then
 * .dynsym of @syms (each pass followed by the end and duplicate fixups),
 * addresses made file offsets with @run's program headers
 * Returns the symbols added, -1 on ENOMEM, or SYM_PASS_FAILED: as perf's
 * pass fails (a symbol of a section that is not there, no symbol data or
 * names), the symbols so far stay unfixed and no more are read.
 */
#define SYM_PASS_FAILED (-2)
int sym_elf_load_syms(struct sym_table *t, struct sym_elf *syms, struct sym_elf *run, int demangle);
/** sym_elf_plt - perf's dso__synthesize_plt_symbols: "name@plt" for each .rela.plt entry */
int sym_elf_plt(struct sym_table *t, struct sym_elf *run, int demangle);
/* how names are demangled: perf 6.1's demangle_sym with verbose 0 or > 0 */
#define SYM_DEMANGLE_NONE 0       /* --no-demangle */
#define SYM_DEMANGLE_SHORT 1      /* the name only: "ns::K::call" */
#define SYM_DEMANGLE_FULL 2       /* -v: with parameters, "ns::K::call(int) const" */
/** sym_elf_demangle - perf's demangle_sym: a malloc'd demangled name, or NULL */
char *sym_elf_demangle(const char *name);
/** sym_elf_demangle_full - the same with parameter lists, as perf -v shows them */
char *sym_elf_demangle_full(const char *name);
/* what the machine gives and learns about a vmlinux */
struct sym_vmlinux {
	const unsigned char *bid; size_t bid_len;  /* the recording's kernel build-id, if any */
	const char *ref;          /* the recording's reference symbol ("_text") */
	uint64_t ref_value;       /* its value in the vmlinux, if has_ref */
	int has_ref;
	uint64_t text_addr, text_size;   /* .text, if has_text */
	int has_text;
};
/**
 * sym_elf_load_kernel - a vmlinux's .text symbols from .symtab (-k)
 * Returns the symbols added, 0 none, -1 refused (other build-id) or
 * unreadable, with the warning in @c.
 */
int sym_elf_load_kernel(const char *path, struct sym_table *t, struct sym_load_ctx *c,
			struct sym_vmlinux *v);

#endif
