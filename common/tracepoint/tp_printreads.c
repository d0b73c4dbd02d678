/* tp_printreads.c - bounds for the record-sized reads of libtraceevent's
 * __print_hex, __print_hex_str and __print_array (see tp_printreads.h). */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <traceevent/event-parse.h>

#include "tracepoint/tp_fields.h"
#include "tracepoint/tp_printreads.h"

static int is_helper(const struct tep_print_arg *a)
{
	return a->type == TEP_PRINT_HEX || a->type == TEP_PRINT_HEX_STR ||
	       a->type == TEP_PRINT_INT_ARRAY;
}

/* A helper's arguments: what it reads, how many, of what size (NULL: bytes). */
struct helper_args {
	struct tep_print_arg *data, *count, *el_size;
};

static struct helper_args helper_args(const struct tep_print_arg *a)
{
	if (a->type == TEP_PRINT_INT_ARRAY)
		return (struct helper_args){ a->int_array.field, a->int_array.count,
					     a->int_array.el_size };
	return (struct helper_args){ a->hex.field, a->hex.size, NULL };
}

static int walk_list(struct tep_print_arg *a, int (*fn)(struct tep_print_arg *, void *),
		     void *ctx);

/* Calls @fn on @a and then on its children, depth first; stops at the
 * first non-zero return and returns it. */
static int walk_one(struct tep_print_arg *a, int (*fn)(struct tep_print_arg *, void *), void *ctx)
{
	struct tep_print_arg *kids[3] = { NULL, NULL, NULL };
	struct helper_args h;
	int r;

	if (!a)
		return 0;
	if ((r = fn(a, ctx)))
		return r;
	switch (a->type) {
	case TEP_PRINT_OP:
		kids[0] = a->op.left;
		kids[1] = a->op.right;
		break;
	case TEP_PRINT_TYPE:
		kids[0] = a->typecast.item;
		break;
	case TEP_PRINT_FLAGS:
		kids[0] = a->flags.field;
		break;
	case TEP_PRINT_SYMBOL:
		kids[0] = a->symbol.field;
		break;
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
	case TEP_PRINT_INT_ARRAY:
		h = helper_args(a);
		kids[0] = h.data;
		kids[1] = h.count;
		kids[2] = h.el_size;
		break;
	case TEP_PRINT_FUNC:               /* its arguments are a list */
		return walk_list(a->func.args, fn, ctx);
	default:
		break;
	}
	for (int i = 0; i < 3; i++)
		if ((r = walk_one(kids[i], fn, ctx)))
			return r;
	return 0;
}

/* walk_one() on each arg of the list @a. */
static int walk_list(struct tep_print_arg *a, int (*fn)(struct tep_print_arg *, void *),
		     void *ctx)
{
	int r;

	for (; a; a = a->next)
		if ((r = walk_one(a, fn, ctx)))
			return r;
	return 0;
}

/* Whether we evaluate length expression @a exactly as eval_num_arg does. */
static int length_ok(const struct tep_print_arg *a)
{
	char *end;

	if (!a)
		return 0;
	switch (a->type) {
	case TEP_PRINT_ATOM:
		if (!isdigit((unsigned char)a->atom.atom[0]))
			return 0;
		strtoull(a->atom.atom, &end, 0);
		return *end == 0;
	case TEP_PRINT_FIELD:
		return a->field.field != NULL;   /* libtraceevent looked it up */
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		return a->dynarray.field != NULL;
	case TEP_PRINT_OP:
		return strlen(a->op.op) == 1 && strchr("+-*/", a->op.op[0]) &&
		       length_ok(a->op.left) && length_ok(a->op.right);
	default:
		return 0;
	}
}

/* The data argument: a field or __get_dynamic_array(field). */
static int data_ok(const struct tep_print_arg *a)
{
	return a && ((a->type == TEP_PRINT_FIELD && a->field.field) ||
		     (a->type == TEP_PRINT_DYNAMIC_ARRAY && a->dynarray.field));
}

static int unbounded(struct tep_print_arg *a, void *unused)
{
	struct helper_args h;

	if (a->type == TEP_PRINT_DYNAMIC_ARRAY_LEN)
		return !a->dynarray.field || (a->dynarray.field->flags & TEP_FIELD_IS_RELATIVE);
	if (!is_helper(a))
		return 0;
	h = helper_args(a);
	return !data_ok(h.data) || !length_ok(h.count) || (h.el_size && !length_ok(h.el_size));
}

int tpr_print_fmt_bounded(struct tep_event *ev)
{
	return walk_list(ev->print_fmt.args, unbounded, NULL) ? -1 : 0;
}

struct collect {
	const struct tep_print_arg **out;   /* NULL: count only */
	int n;
};

static int add_helper(struct tep_print_arg *a, void *ctx)
{
	struct collect *c = ctx;

	if (is_helper(a)) {
		if (c->out)
			c->out[c->n] = a;
		c->n++;
	}
	return 0;
}

int tpr_collect(struct tep_event *ev, const struct tep_print_arg ***out)
{
	struct collect c = { NULL, 0 };

	*out = NULL;
	/* libtraceevent does not evaluate a failed print fmt (and td_parse
	 * marks every unbounded one failed) */
	if (ev->flags & TEP_EVENT_FL_FAILED)
		return 0;
	walk_list(ev->print_fmt.args, add_helper, &c);
	if (!c.n)
		return 0;
	c.out = calloc((size_t)c.n, sizeof(*c.out));
	if (!c.out)
		return -1;
	c.n = 0;
	walk_list(ev->print_fmt.args, add_helper, &c);
	*out = c.out;
	return c.n;
}

/* libtraceevent's dynamic_offset(): the offset and length a __data_loc
 * @f says, 0 where out of the record (tp_decoder_check has already
 * refused a record whose __data_loc leaves it). */
static void dyn_loc(const struct tep_format_field *f, const unsigned char *raw, uint32_t size,
		    uint32_t *off, uint32_t *len)
{
	struct tp_field t;

	tp_field_init(&t, f);
	if (tp_dataloc(&t, raw, size, off, len))
		*off = *len = 0;
}

/* eval_num_arg() for the expressions length_ok() accepts; *ok = 0 for a
 * division by zero. */
static unsigned long long eval(struct tep_event *ev, const struct tep_print_arg *a,
			       const unsigned char *raw, uint32_t size, int *ok)
{
	const struct tep_format_field *f;
	unsigned long long l, r;
	uint32_t off, len;

	switch (a->type) {
	case TEP_PRINT_ATOM:
		return strtoull(a->atom.atom, NULL, 0);
	case TEP_PRINT_FIELD:
		f = a->field.field;
		if ((long long)f->offset + f->size > (long long)size)
			return 0;
		return tep_read_number(ev->tep, raw + f->offset, f->size);
	case TEP_PRINT_DYNAMIC_ARRAY_LEN:
		dyn_loc(a->dynarray.field, raw, size, &off, &len);
		return len;
	default:                      /* TEP_PRINT_OP */
		l = eval(ev, a->op.left, raw, size, ok);
		r = eval(ev, a->op.right, raw, size, ok);
		switch (a->op.op[0]) {
		case '+':
			return l + r;
		case '-':
			return l - r;
		case '*':
			return l * r;
		default:
			if (!r) {
				*ok = 0;
				return 0;
			}
			return l / r;
		}
	}
}

int tpr_check(struct tep_event *ev, const struct tep_print_arg *a, const unsigned char *raw,
	      uint32_t size, uint64_t *start, uint64_t *len)
{
	struct helper_args h = helper_args(a);
	uint32_t off, dlen, n;
	uint64_t el = 1;
	int ok = 1;

	if (h.data->type == TEP_PRINT_DYNAMIC_ARRAY)
		dyn_loc(h.data->dynarray.field, raw, size, &off, &dlen);
	else
		off = (uint32_t)h.data->field.field->offset;
	/* print_str_arg() holds the count in an unsigned int, the element
	 * size in an int; a size other than 1, 2, 4, 8 reads one byte */
	n = (uint32_t)eval(ev, h.count, raw, size, &ok);
	if (h.el_size) {
		int e = (int)eval(ev, h.el_size, raw, size, &ok);

		el = e == 1 || e == 2 || e == 4 || e == 8 ? (uint64_t)e : 1;
	}
	*start = off;
	*len = (uint64_t)n * el;
	return ok && (n == 0 || *start + *len <= size) ? 0 : -1;
}
