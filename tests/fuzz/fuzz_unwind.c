/* fuzz_unwind.c - libFuzzer target: the DWARF unwinder (common/unwind/) on crafted register and stack dumps.
 * Input: a mode byte, then 17 x86_64 registers (u64, DWARF order) and the
 * stack dump. Mode 0 unwinds against real CFI: this fuzzer's own
 * executable, mapped at a fixed address, the ip taken into its text; mode
 * 1 against crafted CFI: the bytes after the dump's first 4 KiB are an ELF
 * file, mapped as the process's only DSO. Checks the frames stay within the
 * bound asked for and the unwinder comes back. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "fuzz.h"
#include "symbols/symbols.h"
#include "unwind/unwind.h"

#define BASE 0x555555554000ULL
#define MAX_FRAMES 127
/* perf's x86_64 numbers of DWARF's 17 registers (unwind_regs.c) */
static const int perf_of[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };

static void unwind_in(const char *path, uint64_t len, const uint8_t *regs_in,
		      const uint8_t *stack, size_t stack_size)
{
	struct sym_opts o = { 0 };
	struct sym_machine *m = sym_machine_new(&o);
	struct sym_mmap mm = { .pid = 7, .tid = 7, .misc = 2, .start = BASE, .len = len,
			       .filename = path, .prot = 5 };
	unsigned char regs[24 * 8] = { 0 };
	uint64_t mask = 0xff0fffULL, ips[MAX_FRAMES];
	struct unw *u;

	if (!m)
		return;
	sym_machine_mmap(m, &mm);
	/* the sample's registers in perf's order (mask bit order) */
	for (int i = 0; i < 17; i++) {
		int slot = __builtin_popcountll(mask & ((1ULL << perf_of[i]) - 1));

		memcpy(regs + 8 * slot, regs_in + 8 * i, 8);
	}
	if ((u = unw_new(m, "x86_64"))) {
		struct unw_sample s = { .pid = 7, .tid = 7, .regs_abi = 2, .regs_mask = mask,
					.regs = regs, .stack = stack, .stack_size = stack_size };
		size_t n = unw_stack(u, &s, ips, MAX_FRAMES);

		if (n > MAX_FRAMES)
			abort();
		n = unw_stack(u, &s, ips, 3);      /* the same process again, fewer frames */
		if (n > 3)
			abort();
		unw_free(u);
	}
	sym_machine_free(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char self[PATH_MAX];
	uint8_t regs[17 * 8];
	const uint8_t *stack;
	size_t stack_size;

	if (size < 1 + sizeof(regs))
		return 0;
	memcpy(regs, data + 1, sizeof(regs));
	stack = data + 1 + sizeof(regs);
	stack_size = size - 1 - sizeof(regs);
	if (!(data[0] & 1)) {
		ssize_t n;
		uint64_t ip;

		if (!self[0] && ((n = readlink("/proc/self/exe", self, sizeof(self) - 1)) <= 0))
			return 0;
		/* the ip somewhere in the first MiB of the executable */
		memcpy(&ip, regs + 16 * 8, 8);
		ip = BASE + ip % (1u << 20);
		memcpy(regs + 16 * 8, &ip, 8);
		unwind_in(self, 1u << 24, regs, stack, stack_size > 8192 ? 8192 : stack_size);
	} else if (stack_size > 4096) {
		int fd = fz_memfd(stack + 4096, stack_size - 4096);
		char path[64];
		uint64_t ip;

		if (fd < 0)
			return 0;
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		memcpy(&ip, regs + 16 * 8, 8);
		ip = BASE + ip % (stack_size - 4096);
		memcpy(regs + 16 * 8, &ip, 8);
		unwind_in(path, stack_size - 4096, regs, stack, 4096);
		close(fd);
	}
	return 0;
}
