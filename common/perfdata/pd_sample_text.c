/* pd_sample_text.c - perf 6.1's words for sample fields: x86_64 register
 * names (perf_reg_name) and the data source (perf_script__meminfo_scnprintf). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include "perfdata/pd_sample_text.h"

const char *pd_reg_name(unsigned r)
{
	static const char *const gpr[] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const xmm[] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7", "XMM8",
		"XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (r < 24)
		return gpr[r];
	if (r >= 32 && r < 64)
		return xmm[(r - 32) / 2];
	return "unknown";
}

/* the text being built: at most size - 1 characters, always NUL-ended */
struct text {
	char *s;
	size_t n, size;
};

static void add(struct text *t, const char *s)
{
	size_t l = strlen(s);

	if (t->n + l >= t->size)
		l = t->size - 1 - t->n;
	memcpy(t->s + t->n, s, l);
	t->n += l;
	t->s[t->n] = 0;
}

/* the names of @m's set bits, " or " between them; how many were named */
static int add_bits(struct text *t, unsigned m, const char *const *names, unsigned nr)
{
	int printed = 0;

	for (unsigned i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			add(t, " or ");
		add(t, names[i]);
	}
	return printed;
}

/* the bit fields of perf_mem_data_src (little-endian layout) */
#define FIELD(v, at, bits) ((unsigned)((v) >> (at) & ((1ULL << (bits)) - 1)))

size_t pd_data_src_text(uint64_t v, char *buf, size_t size)
{
	static const char *const lvl[] = {
		"N/A", "HIT", "MISS", "L1", "LFB/MAB", "L2", "L3", "Local RAM",
		"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
		"Remote Cache (2 hops)", "I/O", "Uncached",
	};
	static const char *const lvlnum[16] = {
		[9] = "CXL", [10] = "I/O", [11] = "Any cache", [12] = "LFB/MAB", [13] = "RAM",
		[14] = "PMEM", [15] = "N/A",
	};
	/* perf's mem_hops has five names: 5-7 print glibc's "(null)" */
	static const char *const hops[8] = {
		"N/A", "core, same node", "node, same socket", "socket, same board", "board",
	};
	static const char *const snoop[] = { "N/A", "None", "Hit", "Miss", "HitM" };
	static const char *const snoopx[] = { "Fwd", "Peer" };
	static const char *const tlb[] = { "N/A", "HIT", "MISS", "L1", "L2", "Walker", "Fault" };
	unsigned op = FIELD(v, 0, 5), ml = FIELD(v, 5, 14), snp = FIELD(v, 19, 5);
	unsigned lock = FIELD(v, 24, 2), dtlb = FIELD(v, 26, 7), lnum = FIELD(v, 33, 4);
	unsigned remote = FIELD(v, 37, 1), snpx = FIELD(v, 38, 2), blk = FIELD(v, 40, 3);
	unsigned hop = FIELD(v, 43, 3);
	struct text t = { buf, 0, size };
	size_t at;
	int printed = 0;
	char num[16];

	buf[0] = 0;
	add(&t, "|OP ");
	add(&t, op & 1 ? "N/A" : op & 2 ? "LOAD" : op & 4 ? "STORE" : op & 8 ? "PFETCH" :
	    op & 16 ? "EXEC" : "No");
	add(&t, "|LVL ");
	at = t.n;
	if (remote)
		add(&t, "Remote ");
	if (hop) {
		add(&t, hops[hop] ? hops[hop] : "(null)");
		add(&t, " ");
	} else {
		printed = add_bits(&t, ml & ~6u, lvl, 14);
	}
	if (lnum) {
		if (printed++)
			add(&t, " or ");
		if (lvlnum[lnum]) {
			add(&t, lvlnum[lnum]);
		} else {
			snprintf(num, sizeof(num), "L%u", lnum);
			add(&t, num);
		}
	}
	if (t.n == at)
		add(&t, "N/A");
	if (ml & 2)
		add(&t, " hit");
	if (ml & 4)
		add(&t, " miss");
	add(&t, "|SNP ");
	at = t.n;
	add_bits(&t, snp, snoop, 5);
	if (t.n != at && snpx)
		add(&t, " or ");
	add_bits(&t, snpx, snoopx, 2);
	if (t.n == at)
		add(&t, "N/A");
	add(&t, "|TLB ");
	at = t.n;
	add_bits(&t, dtlb & ~6u, tlb, 7);
	if (t.n == at)
		add(&t, "N/A");
	if (dtlb & 2)
		add(&t, " hit");
	if (dtlb & 4)
		add(&t, " miss");
	add(&t, "|LCK ");
	add(&t, lock & 1 ? "N/A" : lock & 2 ? "Yes" : "No");
	add(&t, "|BLK ");
	if (!blk || blk & 1) {
		add(&t, " N/A");
	} else {
		if (blk & 2)
			add(&t, " Data");
		if (blk & 4)
			add(&t, " Addr");
	}
	return t.n;
}
