/* sym_table.h - one DSO's symbols: sorted, ends and duplicates fixed as perf 6.1 does. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_TABLE_H
#define SYM_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* 20 bytes: a big library has tens of thousands */
struct __attribute__((packed, aligned(4))) sym_entry {
	uint64_t start;
	uint32_t size;            /* [start, start + size); 0: zero size; at most
				   * UINT32_MAX (a longer symbol is cut there) */
	uint32_t name;            /* bits 31-30: 0 the table's arena, n the borrowed
				   * text n (sym_table_borrow); the rest: offset in it */
	uint32_t seq_bind;        /* insertion order << 8 | binding: the order is the
				   * tie-break of equal starts */
};

#define SYM_WRAPPED    0x40       /* in bind: start + length wrapped past 2^64: as
				   * perf's end below its start, it holds nothing */
#define SYM_FLAGS      (SYM_FINAL_NAME | SYM_WRAPPED)

/* whether start + length wrapped (then size is 0) */
static inline int sym_wrapped(const struct sym_entry *e)
{
	return (e->seq_bind & SYM_WRAPPED) != 0;
}

/* where the symbol ends: start + size (a wrapped one: before its start) */
static inline uint64_t sym_end(const struct sym_entry *e)
{
	return e->start + e->size - (uint64_t)sym_wrapped(e);
}

/* the insertion order: perf's tree names its nodes by it */
static inline uint32_t sym_seq(const struct sym_entry *e)
{
	return e->seq_bind >> 8;
}

/* the binding: STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2; and SYM_FLAGS */
static inline int sym_bind(const struct sym_entry *e)
{
	return (int)(e->seq_bind & 0xff);
}

#define SYM_MAX_SEQ      (1u << 24)   /* symbols a table holds */
#define SYM_MAX_TRACKED  (1u << 22)   /* symbols perf's tree is replayed for (at most
				       * 200 MB: nodes, starts, the erase log); past it the
				       * plain search answers */
#define SYM_NAME_SRC(n)  ((n) >> 30)
#define SYM_NAME_OFF(n)  ((n) & 0x3fffffffu)
#define SYM_MAX_BORROW   3
#define SYM_MAX_TEXT     0x3fffffffu   /* bytes of a borrowed text or the arena */

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
	/* string tables names point into (sym_table_borrow): in memory while
	 * the table loads, then read from the file (the table owns the fd) */
	struct sym_text {
		const char *text;     /* NULL once the memory is gone */
		size_t len;
		int fd;
		uint64_t file_off;
	} borrowed[SYM_MAX_BORROW];
	size_t sorted;            /* syms[0..sorted) went through sym_table_finish */
	uint32_t next_seq;
	/* a malloc'd demangled name or NULL (then the name is shown as it is) */
	char *(*demangle)(const char *name);
	struct sym_dm *dm;
	size_t dm_slots, dm_used;
	/* perf's tree, replayed when a lookup first falls where symbols
	 * overlap: its erases so far (sym_table_track), and the overlaps
	 * not yet answered (sym_table_seal) */
	int tracking;
	struct sym_erase *erased;
	size_t nerased, erased_cap;
	struct sym_span *spans;
	size_t nspans;
	/* where symbols overlap, the answers perf's tree gives */
	struct sym_piece *pieces;
	size_t npieces;
};

/* from start on, up to the next piece: the symbol syms[idx], none
 * (SYM_PIECE_NONE), or the plain search's answer (SYM_PIECE_OUT) */
struct sym_piece {
	uint64_t start;
	uint32_t idx;
};
#define SYM_PIECE_NONE UINT32_MAX
#define SYM_PIECE_OUT  (UINT32_MAX - 1)

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
/**
 * sym_table_track - keep what perf's symbol tree sees while symbols are
 * added to this empty table, so that a lookup where symbols overlap can
 * answer as perf's does. Best effort: without memory for it the plain
 * search answers everywhere.
 */
void sym_table_track(struct sym_table *t);
/** sym_table_seal - the table is whole: note where symbols overlap; the
 * first lookup there replays perf's tree and keeps its answers */
void sym_table_seal(struct sym_table *t);
/** sym_table_sort - sort only, no fixups (perf's perf-PID.map and PLT symbols) */
int sym_table_sort(struct sym_table *t);
/** sym_table_find - the symbol containing @addr (perf's symbols__find
 * rule), or NULL; the first lookup where symbols overlap replays the tree */
const struct sym_entry *sym_table_find(struct sym_table *t, uint64_t addr);
/** sym_table_name - the name as stored; for a borrowed name only while
 * its text is in memory ("" after: use sym_table_shown) */
static inline const char *sym_table_name(const struct sym_table *t, const struct sym_entry *e)
{
	uint32_t src = SYM_NAME_SRC(e->name);

	if (!src)
		return t->strs + e->name;
	return t->borrowed[src - 1].text ? t->borrowed[src - 1].text + SYM_NAME_OFF(e->name) : "";
}
/**
 * sym_table_borrow - names may point into @text (@len bytes, ending in a
 * NUL) instead of being copied: the names of a big library are most of
 * its table, and few are ever shown. @text is at @file_off in the file
 * open as @fd, which the table then owns (closes when freed); @text
 * itself must stay until sym_table_text_gone(). Returns the source
 * number for sym_table_add_ref, or 0 (nothing taken: copy the names).
 */
unsigned sym_table_borrow(struct sym_table *t, const char *text, size_t len, int fd,
			  uint64_t file_off);
/** sym_table_add_ref - sym_table_add for a name at @off in borrowed text @src */
int sym_table_add_ref(struct sym_table *t, uint64_t start, uint64_t len, int bind,
		      unsigned src, size_t off);
/** sym_table_text_gone - the borrowed texts leave memory: shown names are read from their files */
void sym_table_text_gone(struct sym_table *t);
/** sym_table_shown - the name as perf shows it: demangled (once, then kept) when the
 * table has a demangler; valid until the table is freed. NULL with errno
 * ENOMEM, or EIO when a borrowed name cannot be read back (its file changed). */
const char *sym_table_shown(struct sym_table *t, const struct sym_entry *e);

#endif
