/* unwind_regs.h - a sample's user registers (perf's register numbers) as the DWARF registers an unwinder starts from, per arch. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef UNWIND_REGS_H
#define UNWIND_REGS_H

#include <stddef.h>
#include <stdint.h>

#define UNW_MAX_DWARF_REGS 32

struct unw_arch {
	const char *name;         /* as the recording's HEADER_ARCH says it */
	uint16_t e_machine;       /* its ELF machine */
	size_t nr_dwarf;          /* DWARF registers 0..nr_dwarf-1 set from the sample */
	const int8_t *perf_of;    /* per DWARF register, perf's number for it */
	int perf_sp, perf_pc;     /* perf's numbers of the stack pointer and pc */
	int dwarf_sp;             /* DWARF's number of the stack pointer */
	int pc_apart;             /* the pc is no DWARF register of the set: given apart */
	int big_endian;           /* its stack dump's words are big-endian (s390x) */
};

/** unw_arch_find - the arch named @name (NULL: this machine's), or NULL */
const struct unw_arch *unw_arch_find(const char *name);

/**
 * unw_reg - perf register @perf_reg of a sample whose registers are @regs
 * (one u64 per bit of @mask, in bit order). 0 with *@val set, -1 when the
 * mask lacks it.
 */
int unw_reg(const unsigned char *regs, uint64_t mask, int perf_reg, uint64_t *val);

/**
 * unw_dwarf_regs - @a's DWARF registers 0..nr_dwarf-1 and the pc from a
 * sample's registers. 0, or -1 when the sample lacks one of them.
 */
int unw_dwarf_regs(const struct unw_arch *a, const unsigned char *regs, uint64_t mask,
		   uint64_t *dwarf, uint64_t *pc);

#endif
