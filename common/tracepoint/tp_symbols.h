/* tp_symbols.h - walk an event's __print_flags/__print_symbolic tables. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TP_SYMBOLS_H
#define TP_SYMBOLS_H

#include <stdint.h>

struct tp_decoder;

enum tp_sym_kind { TP_SYM_FLAGS, TP_SYM_SYMBOLIC };

struct tp_sym_visitor {
	void *ctx;
	/* a table for @field (delim is NULL for symbolic tables) */
	int (*field)(void *ctx, enum tp_sym_kind kind, const char *field, const char *delim);
	/* one entry of that table */
	int (*value)(void *ctx, enum tp_sym_kind kind, const char *field, uint64_t value,
		     const char *str);
};

/**
 * tp_walk_symbols - visit every flag and symbolic table in @d's print
 * format, in the order perf's engines define them (define_event_symbols):
 * depth first through the argument tree, the field name being the last
 * field seen inside the table's value expression. A non-zero return from
 * a callback stops the walk and is returned.
 */
int tp_walk_symbols(const struct tp_decoder *d, const struct tp_sym_visitor *v);

#endif
