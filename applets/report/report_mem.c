/* report_mem.c - decode a sample's data_src (union perf_mem_data_src) the
 * way perf 6.1 prints it (util/mem-events.c perf_script__meminfo_scnprintf,
 * builtin-script.c data_src__fprintf). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include "report/report_mem.h"
#include "report/report_out.h"

/* the bit fields of perf_mem_data_src (little-endian layout) */
#define FIELD(v, at, bits) ((unsigned)((v) >> (at) & ((1ULL << (bits)) - 1)))

struct sb { char s[512]; size_t n; };

static void sb_add(struct sb *b, const char *t)
{
	size_t l = strlen(t);

	if (b->n + l >= sizeof(b->s))
		l = sizeof(b->s) - 1 - b->n;
	memcpy(b->s + b->n, t, l);
	b->n += l;
	b->s[b->n] = 0;
}

/* the names of @m's set bits, " or " between them */
static int add_bits(struct sb *b, unsigned m, const char *const *names, unsigned nr)
{
	int printed = 0;

	for (unsigned i = 0; m && i < nr; i++, m >>= 1) {
		if (!(m & 1))
			continue;
		if (printed++)
			sb_add(b, " or ");
		sb_add(b, names[i]);
	}
	return printed;
}

static void decode(struct sb *b, uint64_t v)
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
	size_t at;
	int printed = 0;
	char num[16];

	sb_add(b, "|OP ");
	sb_add(b, op & 1 ? "N/A" : op & 2 ? "LOAD" : op & 4 ? "STORE" : op & 8 ? "PFETCH" :
	       op & 16 ? "EXEC" : "No");
	sb_add(b, "|LVL ");
	at = b->n;
	if (remote)
		sb_add(b, "Remote ");
	if (hop) {
		sb_add(b, hops[hop] ? hops[hop] : "(null)");
		sb_add(b, " ");
	} else {
		printed = add_bits(b, ml & ~6u, lvl, 14);
	}
	if (lnum) {
		if (printed++)
			sb_add(b, " or ");
		if (lvlnum[lnum]) {
			sb_add(b, lvlnum[lnum]);
		} else {
			snprintf(num, sizeof(num), "L%u", lnum);
			sb_add(b, num);
		}
	}
	if (b->n == at)
		sb_add(b, "N/A");
	if (ml & 2)
		sb_add(b, " hit");
	if (ml & 4)
		sb_add(b, " miss");
	sb_add(b, "|SNP ");
	at = b->n;
	add_bits(b, snp, snoop, 5);
	if (b->n != at && snpx)
		sb_add(b, " or ");
	add_bits(b, snpx, snoopx, 2);
	if (b->n == at)
		sb_add(b, "N/A");
	sb_add(b, "|TLB ");
	at = b->n;
	add_bits(b, dtlb & ~6u, tlb, 7);
	if (b->n == at)
		sb_add(b, "N/A");
	if (dtlb & 2)
		sb_add(b, " hit");
	if (dtlb & 4)
		sb_add(b, " miss");
	sb_add(b, "|LCK ");
	sb_add(b, lock & 1 ? "N/A" : lock & 2 ? "Yes" : "No");
	sb_add(b, "|BLK ");
	if (!blk || blk & 1) {
		sb_add(b, " N/A");
	} else {
		if (blk & 2)
			sb_add(b, " Data");
		if (blk & 4)
			sb_add(b, " Addr");
	}
}

void report_print_data_src(struct report_print *p, uint64_t data_src)
{
	static int maxlen;
	struct sb d = { .n = 0 };
	char out[100];
	int len;

	d.s[0] = 0;
	decode(&d, data_src);
	if (d.n > 99)             /* perf decodes into 100 bytes */
		d.s[99] = 0;
	len = snprintf(out, sizeof(out), "%16llx %s", (unsigned long long)data_src, d.s);
	if (len > 99)
		len = 99;
	if (maxlen < len)
		maxlen = len;
	ro_left(p, out, (size_t)maxlen);
}
