/* pd_swap_base.c - the pieces every swap of the other byte order uses: the
 * bounded walk, the file header, the attr with its flag bitfield, a record
 * header (perf 6.1 session.c perf_event__attr_swap, header.c
 * perf_file_header__read; perf-data-format.md sections 2-3). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_swap.h"

/* ---- the bounded walk ---- */

static int room(struct pd_swcur *c, size_t n)
{
	if (c->ok && c->size >= c->off && c->size - c->off >= n)
		return 1;
	c->ok = 0;
	return 0;
}

uint16_t pd_sw16(struct pd_swcur *c)
{
	if (!room(c, 2))
		return 0;
	pd_bswap16(c->p + c->off);
	c->off += 2;
	return pd_u16(c->p + c->off - 2);
}

uint32_t pd_sw32(struct pd_swcur *c)
{
	if (!room(c, 4))
		return 0;
	pd_bswap32(c->p + c->off);
	c->off += 4;
	return pd_u32(c->p + c->off - 4);
}

uint64_t pd_sw64(struct pd_swcur *c)
{
	if (!room(c, 8))
		return 0;
	pd_bswap64(c->p + c->off);
	c->off += 8;
	return pd_u64(c->p + c->off - 8);
}

void pd_swskip(struct pd_swcur *c, uint64_t n)
{
	if (n > SIZE_MAX || !room(c, (size_t)n))
		return;
	c->off += (size_t)n;
}

void pd_swstr(struct pd_swcur *c)
{
	uint32_t n = pd_sw32(c);

	pd_swskip(c, n);
}

void pd_swap_u64s(void *p, size_t bytes)
{
	for (size_t i = 0; i + 8 <= bytes; i += 8)
		pd_bswap64((unsigned char *)p + i);
}

/* ---- file header and attrs ---- */

void pd_swap_file_header(unsigned char *hdr, size_t hsize)
{
	unsigned char as32[32];

	/* magic stays bytes; size, attr_size, the three sections */
	pd_swap_u64s(hdr + 8, (hsize < 72 ? hsize : 72) - 8);
	if (hsize < 104)
		return;
	/* The bitmap is an array of the writer's longs. perf 6.1 guesses their
	 * size: u64 words, unless HOSTNAME (every perf since 2012 sets it) is
	 * then clear and u32 words set it. perf then keeps BUILD_ID alone;
	 * here the u64 reading stays (a file of tracing data alone has no
	 * HOSTNAME). */
	memcpy(as32, hdr + 72, 32);
	pd_swap_u64s(hdr + 72, 32);
	if (pd_u64(hdr + 72) >> PD_FEAT_HOSTNAME & 1)
		return;
	for (int i = 0; i < 8; i++)
		pd_bswap32(as32 + 4 * i);
	if (pd_u64(as32) >> PD_FEAT_HOSTNAME & 1)
		memcpy(hdr + 72, as32, 32);
}

static unsigned char revbyte(unsigned char b)
{
	b = (unsigned char)((b >> 4) | (b << 4));
	b = (unsigned char)(((b & 0xcc) >> 2) | ((b & 0x33) << 2));
	return (unsigned char)(((b & 0xaa) >> 1) | ((b & 0x55) << 1));
}

/* perf_event_attr's numbers after type and size: offset and width */
static const unsigned char attr_fields[][2] = {
	{ 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 },      /* config .. read_format */
	{ 48, 4 }, { 52, 4 }, { 56, 8 }, { 64, 8 },     /* wakeup, bp_type, config1/2 */
	{ 72, 8 }, { 80, 8 }, { 88, 4 }, { 92, 4 },     /* branch, regs, stack, clockid */
	{ 96, 8 }, { 104, 4 }, { 108, 2 }, { 110, 2 },  /* regs_intr, aux_wm, max_stack */
	{ 112, 4 }, { 116, 4 }, { 120, 8 },             /* aux_sample_size, sig_data */
};

void pd_swap_attr(unsigned char *a, size_t avail)
{
	uint32_t size;

	if (avail < 8) {
		if (avail >= 4)
			pd_bswap32(a);
		return;
	}
	pd_bswap32(a);
	pd_bswap32(a + PD_ATTR_OFF_SIZE);
	size = pd_u32(a + PD_ATTR_OFF_SIZE);
	if (size == 0)
		size = PD_ATTR_SIZE_VER0;
	if (size > avail)
		size = (uint32_t)avail;
	for (size_t i = 0; i < sizeof(attr_fields) / sizeof(attr_fields[0]); i++) {
		unsigned off = attr_fields[i][0], w = attr_fields[i][1];

		if (off + w > size)
			break;
		if (w == 8)
			pd_bswap64(a + off);
		else if (w == 4)
			pd_bswap32(a + off);
		else
			pd_bswap16(a + off);
	}
	if (size >= PD_ATTR_OFF_FLAGS + 8)
		for (int i = 0; i < 8; i++)
			a[PD_ATTR_OFF_FLAGS + i] = revbyte(a[PD_ATTR_OFF_FLAGS + i]);
}

void pd_swap_record_header(unsigned char *p)
{
	pd_bswap32(p);
	pd_bswap16(p + 4);
	pd_bswap16(p + 6);
}
