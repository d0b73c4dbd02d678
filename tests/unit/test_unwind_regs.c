/* test_unwind_regs.c - a sample's user registers (perf's numbers, one u64
 * per mask bit) as the DWARF registers the unwinder starts from
 * (common/unwind/unwind_regs.c), for x86_64, aarch64 and s390x by the psABIs'
 * numbering; and trace-record's --call-graph/--user-regs parser
 * (applets/record/record_callgraph.c) against perf record 6.1's attrs
 * (tests/record-profile.test compares whole recordings with perf evlist). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <elf.h>
#include "record/record_callgraph.h"
#include "unwind/unwind_regs.h"
#include "unit.h"

/* the dump of @mask with perf register k holding 0x1000 + k */
static void fill(unsigned char *regs, uint64_t mask)
{
	size_t at = 0;

	for (int k = 0; k < 64; k++)
		if (mask >> k & 1) {
			uint64_t v = 0x1000 + (uint64_t)k;

			memcpy(regs + 8 * at++, &v, 8);
		}
}

static void x86_64(void)
{
	const struct unw_arch *a = unw_arch_find("x86_64");
	/* DWARF 0..16: rax rdx rcx rbx rsi rdi rbp rsp r8..r15 rip */
	static const int perf_of[17] = { 0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8 };
	unsigned char regs[64 * 8];
	uint64_t dw[UNW_MAX_DWARF_REGS], pc = 0, v;
	int ok = 1;

	T(a && a->nr_dwarf == 17, "x86_64: 17 DWARF registers");
	if (!a)
		return;
	fill(regs, 0xff0fff);
	T(unw_dwarf_regs(a, regs, 0xff0fff, dw, &pc) == 0, "x86_64: perf's mask 0xff0fff has them all");
	for (int i = 0; i < 17; i++)
		ok &= dw[i] == 0x1000 + (uint64_t)perf_of[i];
	T(ok, "x86_64: DWARF 1 is perf's DX (3), 3 is BX (1), 7 is SP, 8-15 are R8-R15, 16 is IP");
	T(pc == 0x1008, "x86_64: the pc is perf's IP (8)");
	T(unw_reg(regs, 0xff0fff, 16, &v) == 0 && v == 0x1010, "x86_64: R8 past the gap of DS-GS");
	T(unw_reg(regs, 0xff0fff, 12, &v) == -1, "x86_64: DS is not in the mask");
	fill(regs, 0x180);
	T(unw_reg(regs, 0x180, 8, &v) == 0 && v == 0x1008, "--user-regs=ip,sp: IP is the second u64");
	T(unw_dwarf_regs(a, regs, 0x180, dw, &pc) == -1, "x86_64: ip and sp alone do not unwind");
}

static void aarch64(void)
{
	const struct unw_arch *a = unw_arch_find("aarch64");
	unsigned char regs[64 * 8];
	uint64_t dw[UNW_MAX_DWARF_REGS], pc = 0, mask = (1ULL << 33) - 1;
	int ok = 1;

	T(a && a->nr_dwarf == 32 && a->pc_apart, "aarch64: x0-x30 and sp, the pc apart");
	if (!a)
		return;
	fill(regs, mask);
	T(unw_dwarf_regs(a, regs, mask, dw, &pc) == 0, "aarch64: perf's 33 registers");
	for (int i = 0; i < 32; i++)
		ok &= dw[i] == 0x1000 + (uint64_t)i;
	T(ok && dw[30] == 0x101e && dw[31] == 0x101f, "aarch64: DWARF 30 is LR, 31 is SP");
	T(pc == 0x1020, "aarch64: the pc is perf's 32");
	T(unw_arch_find("arm64") && unw_arch_find("riscv64") == NULL, "arm64 is aarch64; riscv64 unknown");
}

/* s390x: DWARF r0..r15 are perf's 0..15, r15 the stack pointer, the pc
 * (perf's 33, after fp0..fp15 and the PSW mask) apart; big-endian dumps */
static void s390x(void)
{
	const struct unw_arch *a = unw_arch_find("s390x");
	unsigned char regs[64 * 8];
	uint64_t dw[UNW_MAX_DWARF_REGS], pc = 0, mask = (1ULL << 34) - 1;
	int ok = 1;

	T(a && a->nr_dwarf == 16 && a->pc_apart && a->big_endian && a->e_machine == EM_S390,
	  "s390x: r0-r15, the pc apart, big-endian, EM_S390");
	if (!a)
		return;
	fill(regs, mask);
	T(unw_dwarf_regs(a, regs, mask, dw, &pc) == 0, "s390x: perf's 34 registers");
	for (int i = 0; i < 16; i++)
		ok &= dw[i] == 0x1000 + (uint64_t)i;
	T(ok && a->dwarf_sp == 15 && dw[15] == 0x100f, "s390x: DWARF 0-15 are r0-r15, r15 the SP");
	T(pc == 0x1021, "s390x: the pc is perf's 33");
}

static void callgraph(void)
{
	struct rec_callgraph cg;
	char why[256];

	T(rec_callgraph_parse(1, NULL, NULL, &cg, why, sizeof(why)) == 0 && cg.callchain && !cg.dwarf,
	  "-g: frame-pointer callchains");
	T(rec_callgraph_parse(0, "dwarf", NULL, &cg, why, sizeof(why)) == 0 && cg.dwarf &&
	  cg.stack_size == 8192 && cg.regs_user == 0xff0fff, "dwarf: 8192 bytes, every register");
	T(rec_callgraph_parse(0, "dwarf,100", NULL, &cg, why, sizeof(why)) == 0 && cg.stack_size == 104,
	  "dwarf,100: rounded up to 104, as perf");
	T(rec_callgraph_parse(0, "dwarf,", NULL, &cg, why, sizeof(why)) == 0 && cg.stack_size == 8192,
	  "dwarf,: the default size");
	T(rec_callgraph_parse(0, "dwarf,65529", NULL, &cg, why, sizeof(why)) == -2 &&
	  !strcmp(why, "callchain: Incorrect stack dump size (max 65528): 65529"),
	  "dwarf,65529: perf's words");
	T(rec_callgraph_parse(0, "fp,8", NULL, &cg, why, sizeof(why)) == -2 &&
	  !strcmp(why, "callchain: Unknown --call-graph option value: fp,8"), "fp,8: perf's words");
	T(rec_callgraph_parse(0, "dwarf", "ip,sp", &cg, why, sizeof(why)) == 0 && cg.regs_user == 0x180,
	  "--user-regs=ip,sp replaces dwarf's registers (0x180)");
	T(rec_callgraph_parse(0, NULL, "r15,Flags", &cg, why, sizeof(why)) == 0 &&
	  cg.regs_user == ((1ULL << 23) | (1ULL << 9)) && !cg.callchain, "--user-regs=r15,Flags alone");
	T(rec_callgraph_parse(0, NULL, "ip,,xx", &cg, why, sizeof(why)) == -1 &&
	  strstr(why, "unknown register name: xx"), "an unknown register: said");
}

int main(void)
{
	x86_64();
	aarch64();
	s390x();
	callgraph();
	return done();
}
