/* tp_fields.h - typed, bounds-checked views of one tracepoint field in a record. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TP_FIELDS_H
#define TP_FIELDS_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct tep_format_field;

enum tp_kind {
	TP_INT,          /* a signed number of 1, 2, 4 or 8 bytes */
	TP_UINT,         /* an unsigned number */
	TP_STRING,       /* char[] or __data_loc char[]: str when printable, else bytes */
	TP_ARRAY,        /* a fixed array of numbers: a list */
	TP_BYTES,        /* any other array or dynamic array: raw bytes */
};

/* One field of a format, as the decoder (tp_decoder.h) describes it. */
struct tp_field {
	const char *name;
	enum tp_kind kind;
	int offset, size;        /* in the raw record */
	int elem_size;           /* TP_ARRAY: bytes per element */
	int count;               /* TP_ARRAY: elements */
	int is_signed;           /* of the number or the elements */
	int dynamic;             /* __data_loc: offset/len in a u16 or u32 at @offset */
	int relative;            /* __rel_loc: the offset counts from the field's end */
	int is_flag, is_symbolic;
	int swap;                /* the recording's byte order is not ours: numbers
				  * (elements, __data_loc words) are swapped as read */
};

/**
 * tp_field_init - describe libtraceevent's parsed field @f as a tp_field
 * @t: filled in; its name points into @f, which must outlive it
 */
void tp_field_init(struct tp_field *t, const struct tep_format_field *f);

/**
 * tp_dataloc - where a __data_loc (or __rel_loc) field's bytes lie
 * @raw, @size: the record's raw data
 * @t: a field with @t->dynamic set, 2 or 4 bytes wide
 * @off, @len: the bytes' offset in @raw and their count
 *
 * The one decoding of __data_loc in the tree: a 4-byte field holds the
 * offset in its low and the length in its high 16 bits; a 2-byte field
 * (old kernels) holds the offset, the bytes running to the record's end;
 * __rel_loc offsets count from the end of the field itself.
 * Returns 0, or -1 when the field or the bytes it names leave @size.
 */
int tp_dataloc(const struct tp_field *t, const unsigned char *raw, size_t size,
	       uint32_t *off, uint32_t *len);

/** tp_load - the @size-byte number at @p (1, 2, 4, else 8), of the other
 * byte order when @swap, sign-extended when @is_signed */
static inline uint64_t tp_load(const unsigned char *p, int size, int is_signed, int swap)
{
	uint16_t u16; uint32_t u32; uint64_t u64;

	switch (size) {
	case 1:
		return is_signed ? (uint64_t)(int64_t)(int8_t)p[0] : p[0];
	case 2:
		memcpy(&u16, p, 2);
		u16 = swap ? __builtin_bswap16(u16) : u16;
		return is_signed ? (uint64_t)(int64_t)(int16_t)u16 : u16;
	case 4:
		memcpy(&u32, p, 4);
		u32 = swap ? __builtin_bswap32(u32) : u32;
		return is_signed ? (uint64_t)(int64_t)(int32_t)u32 : u32;
	default:
		memcpy(&u64, p, 8);
		return swap ? __builtin_bswap64(u64) : u64;
	}
}

/**
 * tp_read_int - element @i of a number field (i = 0 for scalars),
 * sign-extended when signed. Returns 0, or -1 when it lies outside @size.
 * (Inline: it runs for every field of every event.)
 */
static inline int tp_read_int(const struct tp_field *f, const unsigned char *raw, size_t size,
			      int i, uint64_t *out)
{
	int esz = f->kind == TP_ARRAY ? f->elem_size : f->size;
	long off = (long)f->offset + (long)i * esz;

	if (off < 0 || (size_t)off + (size_t)esz > size)
		return -1;
	*out = tp_load(raw + off, esz, f->is_signed, f->swap);
	return 0;
}

/**
 * tp_read_bytes - where a string or byte field's bytes are: for __data_loc
 * the bytes tp_dataloc names. Returns 0, or -1 when they leave @size.
 */
int tp_read_bytes(const struct tp_field *f, const unsigned char *raw, size_t size,
		  const unsigned char **p, size_t *len);

/** tp_printable - perf's is_printable_array: NUL last, printable before the first NUL */
int tp_printable(const unsigned char *p, size_t len);

/** tp_common_int - a common field (e.g. common_preempt_count) at @off, or 0;
 * @swap: the recording is of the other byte order (tp_decoder's swap) */
int tp_common_int(const unsigned char *raw, size_t size, int off, int bytes, int is_signed,
		  int swap);

#endif
