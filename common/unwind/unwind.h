/* unwind.h - user stacks from a sample's register and stack dumps (perf record --call-graph dwarf), unwound with elfutils' libdwfl. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef UNWIND_H
#define UNWIND_H

#include <stddef.h>
#include <stdint.h>

struct sym_machine;

/*
 * An unwinder keeps, per process, the modules (the ELF files of its maps)
 * it met, reported to libdwfl once, with their call frame information; a
 * process whose maps changed (sym_machine_gen) starts afresh. The files
 * are found by the symbols machine (the build-id cache first, --symfs).
 * Nothing here prints.
 */
struct unw;

/**
 * unw_new - an unwinder over @m's maps for recordings of @arch
 * ("x86_64", "aarch64"; NULL: this machine's). NULL on ENOMEM or an arch
 * whose registers it does not know.
 */
struct unw *unw_new(struct sym_machine *m, const char *arch);
void unw_free(struct unw *u);

/* one sample's dumps */
struct unw_sample {
	int32_t pid, tid;
	uint64_t regs_abi;          /* PERF_SAMPLE_REGS_ABI_*: 0 none, 1 32-bit, 2 64-bit */
	uint64_t regs_mask;         /* the attr's sample_regs_user */
	const unsigned char *regs;  /* one u64 per bit of regs_mask, in bit order */
	const unsigned char *stack; /* the dump, from the sampled stack pointer up */
	uint64_t stack_size;        /* its valid bytes (dyn_size) */
};

/**
 * unw_stack - the user frames of @s, callee first, as perf 6.1 lists them:
 * the sampled ip, then for each caller its return address less one (the
 * call's own address; not for a signal frame). At most @max go to @ips.
 * Returns how many, 0 when nothing could be unwound (no registers, a
 * 32-bit sample, no map for the ip).
 */
size_t unw_stack(struct unw *u, const struct unw_sample *s, uint64_t *ips, size_t max);

#endif
