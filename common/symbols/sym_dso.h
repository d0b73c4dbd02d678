/* sym_dso.h - a DSO of the symbols machine: its name, build-id and symbols, loaded once. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_DSO_H
#define SYM_DSO_H

#include <stddef.h>
#include <stdint.h>
#include "symbols/sym_elf.h"
#include "symbols/sym_table.h"

enum sym_dso_kind {
	SYM_DSO_FILE,       /* a mapped file: its ELF symbols */
	SYM_DSO_VDSO,       /* [vdso]: the build-id cache, else our own vdso */
	SYM_DSO_JIT,        /* /tmp/perf-PID.map */
	SYM_DSO_NONE,       /* //anon, [heap], [stack]...: no symbols */
};

struct sym_dso {
	char *name;               /* perf's dso->name, as printed */
	const char *short_name;   /* its basename */
	enum sym_dso_kind kind;
	unsigned char bid[20];    /* the recording's build-id, if has_bid */
	size_t bid_len;
	int has_bid;
	int loaded;               /* symbols looked for (found or not) */
	char *symsrc;             /* the file its .symtab came from (perf's
				   symsrc_filename), NULL: none */
	struct sym_dwarf *dw;     /* its DWARF (sym_srcline.c), once looked for */
	int dw_tried;
	struct sym_srcent *src;   /* what sym_srcline.c answered, by address */
	size_t src_cap, src_n;
	struct sym_table tab;
	struct sym_dso *hnext;    /* the machine's name hash chain */
	unsigned seq;             /* the order the machine made it in */
	unsigned pre;             /* its place + 1 in the read-ahead (sym_dsopre.h), 0: none */
};

/** sym_dso_load - find and read @d's symbols (once; sets d->loaded). 0 or TB_ERR_NOMEM. */
int sym_dso_load(struct sym_dso *d, struct sym_load_ctx *c);

#endif
