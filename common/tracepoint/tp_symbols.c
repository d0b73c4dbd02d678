/* tp_symbols.c - visit the flag and symbol tables of libtraceevent's parsed
 * print arguments (the tables behind flag_str and symbol_str). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <traceevent/event-parse.h>
#include "tracepoint/tp_decoder.h"
#include "tracepoint/tp_symbols.h"

struct walk {
	const struct tp_sym_visitor *v;
	const char *field;        /* the last field name seen */
	int depth;
};

static int walk_arg(struct walk *w, struct tep_print_arg *a);

static int walk_list(struct walk *w, struct tep_print_arg *a)
{
	int r;

	for (; a; a = a->next)
		if ((r = walk_arg(w, a)))
			return r;
	return 0;
}

static int table(struct walk *w, enum tp_sym_kind kind, struct tep_print_arg *valarg,
		 const char *delim, struct tep_print_flag_sym *entries)
{
	const char *name;
	int r;

	if ((r = walk_arg(w, valarg)))
		return r;
	name = w->field ? w->field : "";
	if (w->v->field && (r = w->v->field(w->v->ctx, kind, name, delim)))
		return r;
	for (; entries; entries = entries->next)
		if (w->v->value && (r = w->v->value(w->v->ctx, kind, name,
						    strtoull(entries->value, NULL, 0),
						    entries->str)))
			return r;
	return 0;
}

static int walk_arg(struct walk *w, struct tep_print_arg *a)
{
	int r = 0;

	if (!a || ++w->depth > 64) {
		w->depth -= !!a;
		return 0;
	}
	switch (a->type) {
	case TEP_PRINT_FIELD:
		w->field = a->field.name;
		break;
	case TEP_PRINT_FLAGS:
		r = table(w, TP_SYM_FLAGS, a->flags.field, a->flags.delim ? a->flags.delim : "",
			  a->flags.flags);
		break;
	case TEP_PRINT_SYMBOL:
		r = table(w, TP_SYM_SYMBOLIC, a->symbol.field, NULL, a->symbol.symbols);
		break;
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		if (!(r = walk_arg(w, a->hex.field)))
			r = walk_arg(w, a->hex.size);
		break;
	case TEP_PRINT_INT_ARRAY:
		if (!(r = walk_arg(w, a->int_array.field)) && !(r = walk_arg(w, a->int_array.count)))
			r = walk_arg(w, a->int_array.el_size);
		break;
	case TEP_PRINT_TYPE:
		r = walk_arg(w, a->typecast.item);
		break;
	case TEP_PRINT_OP:
		if (!(r = walk_arg(w, a->op.left)))
			r = walk_arg(w, a->op.right);
		break;
	case TEP_PRINT_FUNC:
		r = walk_list(w, a->func.args);
		break;
	default:
		break;
	}
	w->depth--;
	return r;
}

int tp_walk_symbols(const struct tp_decoder *d, const struct tp_sym_visitor *v)
{
	struct walk w = { .v = v };

	return walk_list(&w, d->ev->print_fmt.args);
}
