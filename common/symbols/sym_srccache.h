/* sym_srccache.h - per DSO, the source lines and inline frames already worked out, by address. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_SRCCACHE_H
#define SYM_SRCCACHE_H

#include <stddef.h>
#include <stdint.h>

struct sym_dso;

#define SRC_HAVE_LINE 1          /* line set (NULL: the DWARF has none) */
#define SRC_HAVE_INL  2          /* inl set */

struct sym_srcinl {
	char *name;               /* the DWARF's name; NULL: the symbol's own */
	char *line;               /* "FILE:LINE"; NULL: "??:0" */
	int inlined;
};

struct sym_srcent {
	uint64_t off;
	int used;                 /* 0: a free slot */
	unsigned state;           /* SRC_HAVE_*: what is known of @off */
	char *line;
	struct sym_srcinl *inl;
	size_t nr_inl;
};

/**
 * sym_srccache_slot - @d's entry for the address @off (map_ip), made empty
 * (state 0) when new. NULL when out of memory or the DSO holds its most
 * (a bound against hostile recordings: the answer is then worked out anew).
 */
struct sym_srcent *sym_srccache_slot(struct sym_dso *d, uint64_t off);
void sym_srccache_free(struct sym_dso *d);

#endif
