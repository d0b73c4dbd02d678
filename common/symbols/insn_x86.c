/* insn_x86.c - the length of one x86 instruction: legacy prefixes, REX,
 * VEX and EVEX, the opcode maps' ModRM and immediate forms, SIB and
 * displacement, as the kernel's decoder (arch/x86/lib/insn.c with its
 * opcode map) measures them for perf's arch_fetch_insn. Like that decoder
 * it does not judge: an opcode it has no form for is one opcode byte, and
 * one invalid in 64-bit mode ends after its opcode. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdint.h>
#include "symbols/insn_x86.h"

enum {
	M = 1,        /* a ModRM byte (and what it brings) */
	I8 = 2,       /* an 8-bit immediate */
	IZ = 4,       /* 16 or 32 bits by operand size */
	IV = 8,       /* 16, 32 or 64 bits by operand size (mov r, imm) */
	I16 = 16,     /* 16 bits (ret imm16; with I8: enter) */
	MOFFS = 32,   /* an address of the address size (mov al, [moffs]) */
	FAR = 64,     /* ptr16:16/32 */
	BAD64 = 128,  /* invalid in 64-bit mode: nothing after the opcode */
	GRP3 = 256,   /* test's immediate, for ModRM.reg 0 and 1 only */
	F64 = 512,    /* a branch whose Jz stays 32 bits in 64-bit mode */
};

static const uint16_t one[256] = {
	[0x00 ... 0x03] = M, [0x04] = I8, [0x05] = IZ, [0x06 ... 0x07] = BAD64,
	[0x08 ... 0x0b] = M, [0x0c] = I8, [0x0d] = IZ, [0x0e] = BAD64,
	[0x10 ... 0x13] = M, [0x14] = I8, [0x15] = IZ, [0x16 ... 0x17] = BAD64,
	[0x18 ... 0x1b] = M, [0x1c] = I8, [0x1d] = IZ, [0x1e ... 0x1f] = BAD64,
	[0x20 ... 0x23] = M, [0x24] = I8, [0x25] = IZ, [0x27] = BAD64,
	[0x28 ... 0x2b] = M, [0x2c] = I8, [0x2d] = IZ, [0x2f] = BAD64,
	[0x30 ... 0x33] = M, [0x34] = I8, [0x35] = IZ, [0x37] = BAD64,
	[0x38 ... 0x3b] = M, [0x3c] = I8, [0x3d] = IZ, [0x3f] = BAD64,
	[0x60 ... 0x61] = BAD64, [0x62] = M | BAD64, [0x63] = M,
	[0x68] = IZ, [0x69] = M | IZ, [0x6a] = I8, [0x6b] = M | I8,
	[0x70 ... 0x7f] = I8,
	[0x80] = M | I8, [0x81] = M | IZ, [0x82] = M | I8 | BAD64, [0x83] = M | I8,
	[0x84 ... 0x8f] = M,
	[0x9a] = FAR | BAD64,
	[0xa0 ... 0xa3] = MOFFS, [0xa8] = I8, [0xa9] = IZ,
	[0xb0 ... 0xb7] = I8, [0xb8 ... 0xbf] = IV,
	[0xc0 ... 0xc1] = M | I8, [0xc2] = I16, [0xc4 ... 0xc5] = M | BAD64,
	[0xc6] = M | I8, [0xc7] = M | IZ, [0xc8] = I16 | I8, [0xca] = I16, [0xcd] = I8,
	[0xce] = BAD64,
	[0xd0 ... 0xd3] = M, [0xd4 ... 0xd5] = I8 | BAD64, [0xd6] = BAD64, [0xd8 ... 0xdf] = M,
	[0xe0 ... 0xe7] = I8, [0xe8 ... 0xe9] = IZ | F64, [0xea] = FAR | BAD64, [0xeb] = I8,
	[0xf6] = M | GRP3, [0xf7] = M | GRP3, [0xfe ... 0xff] = M,
};

/* 0F xx */
static const uint16_t two[256] = {
	[0x00 ... 0x03] = M, [0x0d] = M, [0x0f] = M | I8,
	[0x10 ... 0x1f] = M, [0x20 ... 0x23] = M, [0x28 ... 0x2f] = M,
	[0x40 ... 0x6f] = M, [0x70 ... 0x73] = M | I8, [0x74 ... 0x76] = M,
	[0x78 ... 0x79] = M, [0x7c ... 0x7f] = M,
	[0x80 ... 0x8f] = IZ | F64, [0x90 ... 0x9f] = M,
	[0xa3] = M, [0xa4] = M | I8, [0xa5] = M, [0xab] = M, [0xac] = M | I8,
	[0xad ... 0xaf] = M, [0xb0 ... 0xb9] = M, [0xba] = M | I8, [0xbb ... 0xc1] = M,
	[0xc2] = M | I8, [0xc3] = M, [0xc4 ... 0xc6] = M | I8, [0xc7] = M,
	[0xd0 ... 0xff] = M,
};

static int legacy_prefix(unsigned char b)
{
	return b == 0x66 || b == 0x67 || b == 0xf0 || b == 0xf2 || b == 0xf3 || b == 0x2e ||
	       b == 0x36 || b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65;
}

/* The form of a VEX or EVEX opcode in map @map (1 0F, 2 0F38, 3 0F3A, 5-6). */
static unsigned vex_form(unsigned map, unsigned char op)
{
	if (map == 3)
		return M | I8;
	if (map == 1) {
		if (op == 0x77)
			return 0;                     /* vzeroupper, vzeroall */
		return two[op] & I8 ? M | I8 : M;
	}
	return M;
}

/* ModRM, then SIB and displacement: the bytes from @i on, or -1 when cut. */
static long modrm_bytes(const unsigned char *c, size_t len, size_t i, int addr16, unsigned *reg)
{
	unsigned mod, rm;
	size_t start = i;

	if (i >= len)
		return -1;
	mod = c[i] >> 6;
	rm = c[i] & 7;
	*reg = (c[i] >> 3) & 7;
	i++;
	if (mod == 3)
		return (long)(i - start);
	if (addr16) {
		i += mod == 1 ? 1 : mod == 2 || (mod == 0 && rm == 6) ? 2 : 0;
		return (long)(i - start);
	}
	if (rm == 4) {
		if (i >= len)
			return -1;
		if (mod == 0 && (c[i] & 7) == 5)
			i += 4;
		i++;
	} else if (mod == 0 && rm == 5) {
		i += 4;                               /* disp32 (rip-relative in 64-bit) */
	}
	i += mod == 1 ? 1 : mod == 2 ? 4 : 0;
	return (long)(i - start);
}

size_t insn_x86_length(const unsigned char *c, size_t len, int is64)
{
	int opsize = 0, adsize = 0, rexw = 0;
	unsigned form, reg = 0, z;
	unsigned char op1 = 0;      /* the one-byte map's opcode, for test's group */
	size_t i = 0;
	long m;

	for (;;) {
		if (i >= len)
			return 0;
		if (legacy_prefix(c[i])) {
			opsize |= c[i] == 0x66;
			adsize |= c[i] == 0x67;
			rexw = 0;                     /* a REX counts only last */
			i++;
		} else if (is64 && (c[i] & 0xf0) == 0x40) {
			rexw = (c[i] & 8) != 0;
			i++;
		} else {
			break;
		}
	}
	if (i + 1 < len && (c[i] == 0xc4 || c[i] == 0xc5 || c[i] == 0x62) &&
	    (is64 || (c[i + 1] & 0xc0) == 0xc0)) {
		size_t pre = c[i] == 0xc5 ? 2 : c[i] == 0xc4 ? 3 : 4;
		unsigned map = c[i] == 0xc5 ? 1 : c[i] == 0xc4 ? (c[i + 1] & 0x1f) : (c[i + 1] & 7);

		if (i + pre >= len)
			return 0;
		if (c[i] != 0xc5)
			rexw = (c[i + 2] & 0x80) != 0;
		i += pre;
		form = vex_form(map, c[i++]);
	} else {
		unsigned char op = c[i++];

		if (op != 0x0f) {
			form = one[op];
			op1 = op;
		} else {
			if (i >= len)
				return 0;
			op = c[i++];
			if (op == 0x38 || op == 0x3a) {
				if (i >= len)
					return 0;
				i++;
				form = op == 0x3a ? M | I8 : M;
			} else {
				form = two[op];
			}
		}
		if (is64 && (form & BAD64))
			return i <= 15 ? i : 0;
	}
	if (form & M) {
		/* 67 in 64-bit mode makes addresses 32-bit, not 16 */
		if ((m = modrm_bytes(c, len, i, !is64 && adsize, &reg)) < 0)
			return 0;
		i += (size_t)m;
	}
	z = opsize && !rexw ? 2 : 4;
	if (form & I8)
		i += 1;
	if (form & IZ)
		i += (form & F64) && is64 ? 4 : z;
	if (form & IV)
		i += rexw ? 8 : z;
	if (form & I16)
		i += 2;
	if (form & MOFFS)
		i += is64 ? (adsize ? 4 : 8) : (adsize ? 2 : 4);
	if (form & FAR)
		i += z + 2;
	if ((form & GRP3) && reg <= 1)
		i += op1 == 0xf6 ? 1 : z;
	return i <= 15 && i <= len ? i : 0;
}
