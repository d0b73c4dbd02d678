/* test_insn_x86.c - insn_x86_length (common/symbols/insn_x86.h) on
 * encodings whose lengths the Intel and AMD manuals fix, one form each:
 * prefixes and REX, ModRM/SIB/displacement in 64-, 32- and 16-bit
 * addressing, every immediate kind, VEX, EVEX, the 0F38/0F3A maps, test's
 * group, opcodes invalid in 64-bit mode, and cut input. (tests/script-
 * options.test compares with perf -F insn on real programs.) */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "symbols/insn_x86.h"
#include "unit.h"

struct c {
	const char *what;
	int is64;
	unsigned char b[16];
	size_t n, want;
};

static const struct c cases[] = {
	{ "nop", 1, { 0x90 }, 16, 1 },
	{ "xor %ebp,%ebp", 1, { 0x31, 0xed }, 16, 2 },
	{ "push %rbp (REX.B)", 1, { 0x41, 0x55 }, 16, 2 },
	{ "mov %rsp,%rbp", 1, { 0x48, 0x89, 0xe5 }, 16, 3 },
	{ "mov 0x8(%rsp),%rax (SIB, disp8)", 1, { 0x48, 0x8b, 0x44, 0x24, 0x08 }, 16, 5 },
	{ "lea 0x1234(%rip),%rax (disp32)", 1, { 0x48, 0x8d, 0x05, 0x34, 0x12, 0, 0 }, 16, 7 },
	{ "mov (,%rax,8) SIB base 5, mod 0: disp32", 1, { 0x8b, 0x04, 0xc5, 1, 2, 3, 4 }, 16, 7 },
	{ "mov 0x100(%rbx),%eax (disp32)", 1, { 0x8b, 0x83, 0, 1, 0, 0 }, 16, 6 },
	{ "movabs $imm64,%rax (REX.W B8)", 1, { 0x48, 0xb8, 1, 2, 3, 4, 5, 6, 7, 8 }, 16, 10 },
	{ "mov $imm32,%eax", 1, { 0xb8, 1, 2, 3, 4 }, 16, 5 },
	{ "mov $imm16,%ax (66)", 1, { 0x66, 0xb8, 1, 2 }, 16, 4 },
	{ "movabs moffs64,%al", 1, { 0xa0, 1, 2, 3, 4, 5, 6, 7, 8 }, 16, 9 },
	{ "mov moffs32,%al (67)", 1, { 0x67, 0xa0, 1, 2, 3, 4 }, 16, 6 },
	{ "call rel32", 1, { 0xe8, 1, 2, 3, 4 }, 16, 5 },
	{ "call rel32 with 66: still 4 bytes in 64-bit", 1, { 0x66, 0xe8, 1, 2, 3, 4 }, 16, 6 },
	{ "jne rel32 (0F 85)", 1, { 0x0f, 0x85, 1, 2, 3, 4 }, 16, 6 },
	{ "jmp rel8", 1, { 0xeb, 0x10 }, 16, 2 },
	{ "push $imm16 (66 68)", 1, { 0x66, 0x68, 1, 2 }, 16, 4 },
	{ "imul $imm8 (6B)", 1, { 0x6b, 0xc0, 5 }, 16, 3 },
	{ "add $imm32,(%rax) (81 /0)", 1, { 0x81, 0x00, 1, 2, 3, 4 }, 16, 6 },
	{ "cmpw $imm16,(%rax) (66 81 /7)", 1, { 0x66, 0x81, 0x38, 1, 2 }, 16, 5 },
	{ "testb $imm8,(%rax) (F6 /0)", 1, { 0xf6, 0x00, 7 }, 16, 3 },
	{ "testl $imm32,%eax (F7 /0)", 1, { 0xf7, 0xc0, 1, 2, 3, 4 }, 16, 6 },
	{ "notl %eax (F7 /2: no immediate)", 1, { 0xf7, 0xd0 }, 16, 2 },
	{ "ret $imm16", 1, { 0xc2, 8, 0 }, 16, 3 },
	{ "enter $imm16,$imm8", 1, { 0xc8, 0x10, 0, 1 }, 16, 4 },
	{ "lock cmpxchg %ecx,(%rdx) (F0 0F B1)", 1, { 0xf0, 0x0f, 0xb1, 0x0a }, 16, 4 },
	{ "rep stos (F3 48 AB)", 1, { 0xf3, 0x48, 0xab }, 16, 3 },
	{ "endbr64 (F3 0F 1E FA)", 1, { 0xf3, 0x0f, 0x1e, 0xfa }, 16, 4 },
	{ "syscall (0F 05)", 1, { 0x0f, 0x05 }, 16, 2 },
	{ "nopw 0x0(%rax,%rax,1) (66 0F 1F 44 00 00)", 1, { 0x66, 0x0f, 0x1f, 0x44, 0, 0 }, 16, 6 },
	{ "pshufd $imm8 (66 0F 70)", 1, { 0x66, 0x0f, 0x70, 0xc1, 0x1b }, 16, 5 },
	{ "pshufb (66 0F 38 00)", 1, { 0x66, 0x0f, 0x38, 0x00, 0xc1 }, 16, 5 },
	{ "palignr $imm8 (66 0F 3A 0F)", 1, { 0x66, 0x0f, 0x3a, 0x0f, 0xc1, 8 }, 16, 6 },
	{ "shld $imm8 (0F A4)", 1, { 0x0f, 0xa4, 0xc1, 3 }, 16, 4 },
	{ "bt $imm8 (0F BA)", 1, { 0x0f, 0xba, 0xe0, 3 }, 16, 4 },
	{ "vmovdqu (VEX2 C5 FE 6F)", 1, { 0xc5, 0xfe, 0x6f, 0x06 }, 16, 4 },
	{ "vpshufb (VEX3 C4 E2 7D 00, map 0F38)", 1, { 0xc4, 0xe2, 0x7d, 0x00, 0xc1 }, 16, 5 },
	{ "vpalignr $imm8 (VEX3 map 0F3A)", 1, { 0xc4, 0xe3, 0x7d, 0x0f, 0xc1, 4 }, 16, 6 },
	{ "vpshufd $imm8 (VEX2 map 0F, 70)", 1, { 0xc5, 0xfd, 0x70, 0xc1, 4 }, 16, 5 },
	{ "vzeroupper (C5 F8 77: no ModRM)", 1, { 0xc5, 0xf8, 0x77 }, 16, 3 },
	{ "vmovdqu64 (EVEX 62 F1 FE 48 6F 06)", 1, { 0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x06 }, 16, 6 },
	{ "vmovdqu64 disp8 (EVEX ... 46 01)", 1, { 0x62, 0xf1, 0xfe, 0x48, 0x6f, 0x46, 1 }, 16, 7 },
	{ "vpternlogd $imm8 (EVEX map 0F3A)", 1, { 0x62, 0xf3, 0x75, 0x48, 0x25, 0xc2, 0x96 }, 16, 7 },
	{ "push %es: invalid in 64-bit, one byte", 1, { 0x06, 0xff, 0xff }, 16, 1 },
	{ "aam $imm8 (D4): invalid in 64-bit, one byte", 1, { 0xd4, 0x0a }, 16, 1 },
	{ "32-bit: push %es", 0, { 0x06 }, 16, 1 },
	{ "32-bit: aam $imm8", 0, { 0xd4, 0x0a }, 16, 2 },
	{ "32-bit: 40 is inc %eax, not REX", 0, { 0x40, 0x89, 0xe5 }, 16, 1 },
	{ "32-bit: mov moffs32,%al", 0, { 0xa0, 1, 2, 3, 4 }, 16, 5 },
	{ "32-bit: mov moffs16,%al (67)", 0, { 0x67, 0xa0, 1, 2 }, 16, 4 },
	{ "32-bit: 16-bit addressing, disp16 (67 8B 06)", 0, { 0x67, 0x8b, 0x06, 1, 2 }, 16, 5 },
	{ "32-bit: 16-bit addressing has no SIB (67 8B 04)", 0, { 0x67, 0x8b, 0x04 }, 16, 3 },
	{ "32-bit: call far ptr16:32 (9A)", 0, { 0x9a, 1, 2, 3, 4, 5, 6 }, 16, 7 },
	{ "32-bit: lds disp32,%eax (C5, ModRM not 11)", 0, { 0xc5, 0x05, 1, 2, 3, 4 }, 16, 6 },
	{ "32-bit: call rel16 (66 E8)", 0, { 0x66, 0xe8, 1, 2 }, 16, 4 },
	{ "cut: mov with its imm32 short of bytes", 1, { 0xb8, 1, 2 }, 3, 0 },
	{ "cut: a lone prefix", 1, { 0x66 }, 1, 0 },
	{ "cut: SIB missing", 1, { 0x8b, 0x04 }, 2, 0 },
	{ "longer than 15 bytes", 1, { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
				    0x66, 0x66, 0x66, 0x66, 0x90 }, 16, 15 },
	{ "16 bytes of prefixes is too long", 1, { 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66,
						   0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66, 0x66 },
	  16, 0 },
};

int main(void)
{
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t got = insn_x86_length(cases[i].b, cases[i].n, cases[i].is64);

		T(got == cases[i].want, "%s: %zu bytes (got %zu)", cases[i].what, cases[i].want, got);
	}
	return done();
}
