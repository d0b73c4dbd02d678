/* unwind_regs.c - perf's user register numbers to DWARF's, for x86_64, aarch64 and s390x (perf_regs.h of each arch, and the psABIs' DWARF numbering). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <elf.h>
#include <string.h>
#include "unwind/unwind_regs.h"

/* DWARF: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip; perf: AX 0, BX 1,
 * CX 2, DX 3, SI 4, DI 5, BP 6, SP 7, IP 8, R8..R15 16..23 */
static const int8_t x86_64_perf_of[] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };

/* DWARF x0..x30 and sp are perf's 0..31; the pc (perf's 32) apart */
static const int8_t arm64_perf_of[] = { 0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  10,
					11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21,
					22, 23, 24, 25, 26, 27, 28, 29, 30, 31 };

/* DWARF r0..r15 are perf's 0..15 (fp0..fp15 16..31, mask 32, the pc 33 apart) */
static const int8_t s390x_perf_of[] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15 };

static const struct unw_arch arches[] = {
	{ "x86_64", EM_X86_64, sizeof(x86_64_perf_of), x86_64_perf_of, 7, 8, 7, 0, 0 },
	{ "aarch64", EM_AARCH64, sizeof(arm64_perf_of), arm64_perf_of, 31, 32, 31, 1, 0 },
	{ "arm64", EM_AARCH64, sizeof(arm64_perf_of), arm64_perf_of, 31, 32, 31, 1, 0 },
	{ "s390x", EM_S390, sizeof(s390x_perf_of), s390x_perf_of, 15, 33, 15, 1, 1 },
};

const struct unw_arch *unw_arch_find(const char *name)
{
	if (!name) {
#if defined(__x86_64__)
		name = "x86_64";
#elif defined(__aarch64__)
		name = "aarch64";
#elif defined(__s390x__)
		name = "s390x";
#else
		return NULL;
#endif
	}
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (!strcmp(arches[i].name, name))
			return &arches[i];
	return NULL;
}

int unw_reg(const unsigned char *regs, uint64_t mask, int perf_reg, uint64_t *val)
{
	uint64_t below;

	if (perf_reg < 0 || perf_reg > 63 || !(mask >> perf_reg & 1))
		return -1;
	below = mask & ((1ULL << perf_reg) - 1);
	memcpy(val, regs + 8 * (size_t)__builtin_popcountll(below), 8);
	return 0;
}

int unw_dwarf_regs(const struct unw_arch *a, const unsigned char *regs, uint64_t mask,
		   uint64_t *dwarf, uint64_t *pc)
{
	for (size_t i = 0; i < a->nr_dwarf; i++)
		if (unw_reg(regs, mask, a->perf_of[i], &dwarf[i]))
			return -1;
	return unw_reg(regs, mask, a->perf_pc, pc);
}
