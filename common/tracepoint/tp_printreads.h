/* tp_printreads.h - the reads of libtraceevent's __print_hex, __print_hex_str
 * and __print_array, whose length a record gives: which print fmts can be
 * bounded, and whether one record holds what they will read. */
#ifndef TP_PRINTREADS_H
#define TP_PRINTREADS_H

#include <stdint.h>

struct tep_event;
struct tep_print_arg;

/* libtraceevent 1.7.1 (still in 1.8.4) reads as many bytes as such a length
 * says, past the field and the record; takes any data argument that is not
 * a field or __get_dynamic_array for a field; and dereferences NULL for
 * __get_dynamic_array_len of a __rel_loc field. Returns 0 when @ev's print
 * fmt has none of these: every such helper reads a field or
 * __get_dynamic_array, its lengths are numbers, fields,
 * __get_dynamic_array_len or + - * / of them. Returns -1 otherwise. */
int tpr_print_fmt_bounded(struct tep_event *ev);

/* The length-reading helpers in @ev's print fmt (every place, nested too)
 * into *out, an array the caller frees (NULL when none); returns how many,
 * or -1 out of memory. None when the print fmt failed (libtraceevent prints
 * the fields instead; td_parse marks every unbounded print fmt failed). */
int tpr_collect(struct tep_event *ev, const struct tep_print_arg ***out);

/* Whether the @size bytes of @raw hold what helper @a (from tpr_collect)
 * reads: 0, else -1 with the read in *start and *len. */
int tpr_check(struct tep_event *ev, const struct tep_print_arg *a, const unsigned char *raw,
	      uint32_t size, uint64_t *start, uint64_t *len);

#endif
