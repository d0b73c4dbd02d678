/* insn_x86.h - the length of one x86 instruction, as the kernel's decoder (perf's arch_fetch_insn) gives it. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef INSN_X86_H
#define INSN_X86_H

#include <stddef.h>

/**
 * insn_x86_length - decode the instruction at @code[0..@len)
 * @is64: 64-bit mode (else 32-bit protected mode)
 * Returns its length in bytes (1..15), or 0 when it is cut short by @len,
 * longer than 15 bytes, or an opcode the decoder does not know (perf then
 * shows no instruction).
 */
size_t insn_x86_length(const unsigned char *code, size_t len, int is64);

#endif
