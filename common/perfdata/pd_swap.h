/* pd_swap.h - a recording of the other byte order, turned native as it is read. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_SWAP_H
#define PD_SWAP_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct pd_session;

/*
 * Usage: when the magic reads PD_MAGIC2_SWAPPED, the reader keeps its
 * decoder native and swaps each piece into native order before it parses
 * it, as perf 6.1 does (session.c perf_event__swap_ops, header.c):
 *   the file header    pd_swap_file_header()
 *   the attrs and ids  pd_swap_attr(), pd_swap_u64s()
 *   each feature       pd_swap_feature() (the tracing data keeps its own
 *                      endian byte: libtraceevent reads it)
 *   each record        pd_swap_record(), which needs the attrs for samples
 *                      and sample_id trailers
 * Every walk is bounded by the bytes it is given: a count or a length that
 * runs past them stops the walk, and the parser that follows reports the
 * damage as it would in a native file. RAW, AUX and the user stack dump
 * are memory, not numbers: they keep the file's byte order (perf swaps the
 * stack dump as u64s: README's table of differences).
 */

static inline void pd_bswap16(void *p)
{
	uint16_t v;

	memcpy(&v, p, 2);
	v = __builtin_bswap16(v);
	memcpy(p, &v, 2);
}

static inline void pd_bswap32(void *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	v = __builtin_bswap32(v);
	memcpy(p, &v, 4);
}

static inline void pd_bswap64(void *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	v = __builtin_bswap64(v);
	memcpy(p, &v, 8);
}

/*
 * A bounded walk over bytes to swap in place: each step swaps a number
 * and returns its native value while it fits, else marks the walk done
 * (ok = 0) and returns 0; later steps then do nothing.
 */
struct pd_swcur {
	unsigned char *p;
	size_t size, off;
	int ok;
};

uint16_t pd_sw16(struct pd_swcur *c);
uint32_t pd_sw32(struct pd_swcur *c);
uint64_t pd_sw64(struct pd_swcur *c);
/** pd_swskip - step over @n bytes that keep their order */
void pd_swskip(struct pd_swcur *c, uint64_t n);
/** pd_swstr - a perf_header_string: u32 length, then its bytes */
void pd_swstr(struct pd_swcur *c);

/** pd_swap_scmap - tracebox's syscall map (EVENT_UPDATE and old feature 200) */
void pd_swap_scmap(struct pd_swcur *c);

/** pd_swap_u64s - swap the whole u64s in @p[0..@bytes) */
void pd_swap_u64s(void *p, size_t bytes);

/** pd_swap_file_header - the 72 or 104 (@hsize) bytes of a file header:
 * the section u64s and the feature bitmap, whose words are the writer's
 * longs: u64, or u32 when only that reading sets HOSTNAME (perf 6.1) */
void pd_swap_file_header(unsigned char *hdr, size_t hsize);

/**
 * pd_swap_attr - a perf_event_attr of the other byte order made native
 * @a: the attr; its size field (swapped first) says how far it goes
 * @avail: bytes at @a; nothing past them is touched
 *
 * Each field whose bytes lie inside attr.size is swapped by its width.
 * The flag bitfield at 40 is the u64 perf reverses byte by byte: a
 * big-endian compiler allocates bitfields from the most significant bit,
 * so flag n sits at bit 7 - n % 8 of byte n / 8 (perf's swap_bitfield).
 * perf 6.1 leaves clockid, sample_regs_intr and sig_data unswapped; they
 * are swapped here.
 */
void pd_swap_attr(unsigned char *a, size_t avail);

/**
 * pd_swap_record - copy record @src of @size bytes into @dst, native
 * @s: the session, for the attr of a sample or of a sample_id trailer
 *
 * The header is swapped first; @size is the swapped header's size. Every
 * record type of perf 6.1 and tracebox's own EVENT_UPDATEs; a type nobody
 * knows keeps its body as it is. A sample whose id is in no attr has only
 * its header and id swapped (the reader then names the id).
 */
void pd_swap_record(struct pd_session *s, const unsigned char *src, size_t size,
		    unsigned char *dst);

/** pd_swap_record_header - the 8-byte header at @p, in place */
void pd_swap_record_header(unsigned char *p);

/**
 * pd_swap_feature - feature @feat's payload of @size bytes, in place
 * @nr_cpus: the NRCPUS feature's nr_cpus_avail (CPU_TOPOLOGY's arrays)
 */
void pd_swap_feature(int feat, unsigned char *p, size_t size, uint32_t nr_cpus);

/** pd_swap_sample_body - a SAMPLE record's fields after its header, in
 * place, by the attr's layout (pd_sample_attr) */
struct pd_sample_attr;
void pd_swap_sample_body(const struct pd_sample_attr *a, unsigned char *rec, size_t size);

#endif
