/* sym_table.h - one DSO's symbols: sorted, ends and duplicates fixed as perf 6.1 does. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_TABLE_H
#define SYM_TABLE_H

#include <stddef.h>
#include <stdint.h>

struct sym_entry {
	uint64_t start, end;      /* [start, end); end == start: zero size */
	uint32_t name;            /* offset in the table's string arena */
	uint32_t seq;             /* insertion order, the tie-break of equal starts */
	uint8_t bind;             /* STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2; SYM_FINAL_NAME */
};

#define SYM_FINAL_NAME 0x80       /* in bind: the name is never demangled (name@plt) */

/* names shown demangled, each demangled once, on first use */
struct sym_dm {
	uint32_t name;            /* the entry's name offset, +1 (0: free slot) */
	const char *shown;        /* the demangled name (owned), or NULL: shown as it is */
};

struct sym_table {
	struct sym_entry *syms;
	size_t nr, cap;
	char *strs;               /* arena of NUL-terminated names */
	size_t strs_len, strs_cap;
	size_t sorted;            /* syms[0..sorted) went through sym_table_finish */
	uint32_t next_seq;
	/* a malloc'd demangled name or NULL (then the name is shown as it is) */
	char *(*demangle)(const char *name);
	struct sym_dm *dm;
	size_t dm_slots, dm_used;
};

void sym_table_init(struct sym_table *t);
void sym_table_free(struct sym_table *t);
/** sym_table_add - one symbol of @len bytes (0: unknown size); 0 or -1 (ENOMEM) */
int sym_table_add(struct sym_table *t, uint64_t start, uint64_t len, int bind,
		  const char *name, size_t name_len);
/**
 * sym_table_finish - perf's symbols__fixup_end (a zero-size symbol ends
 * where the next begins, the last a page past its page) then
 * symbols__fixup_duplicate (one symbol per address, chosen as perf's
 * choose_best_symbol does); may run again after more sym_table_add calls,
 * as perf's .symtab then .dynsym passes do. 0 or -1 (ENOMEM).
 */
int sym_table_finish(struct sym_table *t);
/** sym_table_sort - sort only, no fixups (perf's perf-PID.map and PLT symbols) */
int sym_table_sort(struct sym_table *t);
/** sym_table_find - the symbol containing @addr (perf's symbols__find rule), or NULL */
const struct sym_entry *sym_table_find(const struct sym_table *t, uint64_t addr);
static inline const char *sym_table_name(const struct sym_table *t, const struct sym_entry *e)
{
	return t->strs + e->name;
}
/** sym_table_shown - the name as perf shows it: demangled (once, then kept) when the
 * table has a demangler; valid until the table is freed. NULL on ENOMEM. */
const char *sym_table_shown(struct sym_table *t, const struct sym_entry *e);

#endif
