/* test_swap.c - pd_swap (common/perfdata/pd_swap.h): an attr, a sample with
 * every sample_type field, a sample_id trailer and feature payloads written
 * in the other byte order, made native, byte for byte against the same
 * things written natively; walks stop inside their bytes. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"
#include "perfdata/pd_session_int.h"
#include "perfdata/pd_swap.h"
#include "unit.h"

/* the other byte order's builders (unit.h's U16.. are native) */
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define X16(v) (unsigned char)(((v) >> 8) & 0xff), (unsigned char)((v) & 0xff)
#define X32(v) X16(((uint32_t)(v) >> 16) & 0xffff), X16((uint32_t)(v) & 0xffff)
#define X64(v) X32(((uint64_t)(v) >> 32) & 0xffffffffu), X32((uint64_t)(v) & 0xffffffffu)
#else
#define X16(v) (unsigned char)((v) & 0xff), (unsigned char)(((v) >> 8) & 0xff)
#define X32(v) X16((uint32_t)(v) & 0xffff), X16(((uint32_t)(v) >> 16) & 0xffff)
#define X64(v) X32((uint64_t)(v) & 0xffffffffu), X32(((uint64_t)(v) >> 32) & 0xffffffffu)
#endif

/* flags disabled (0), inherit (1), sample_id_all (18), mmap2 (23), use_clockid
 * (25), sigtrap (37): little-endian bit n is bit n % 8 of byte n / 8, big-endian
 * bit 7 - n % 8 of the same byte */
#define FLAGS_LE 0x03, 0x00, 0x84, 0x02, 0x20, 0x00, 0x00, 0x00
#define FLAGS_BE 0xc0, 0x00, 0x21, 0x40, 0x04, 0x00, 0x00, 0x00
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define FLAGS_NATIVE FLAGS_LE
#define FLAGS_OTHER FLAGS_BE
#else
#define FLAGS_NATIVE FLAGS_BE
#define FLAGS_OTHER FLAGS_LE
#endif

#define ATTR(N, F) {                                                            \
	N##32(2), N##32(128), N##64(443), N##64(1), N##64(0x1ffffffULL),        \
	N##64(0x1f), F, N##32(1), N##32(4), N##64(0x11), N##64(0x22),           \
	N##64(1ULL << 17), N##64(0x3), N##32(16), N##32(1), N##64(0x5),         \
	N##32(7), N##16(127), N##16(0), N##32(9), N##32(0), N##64(0xabcdef),    \
}

static void test_attr(void)
{
	unsigned char other[128] = ATTR(X, FLAGS_OTHER);
	const unsigned char native[128] = ATTR(U, FLAGS_NATIVE);

	pd_swap_attr(other, sizeof(other));
	T(!memcmp(other, native, 128), "an attr of the other order, every field, flags mirrored");
	T_EQ(pd_u64(other + PD_ATTR_OFF_FLAGS) >> 18 & 1, 1, "sample_id_all is bit 18");

	unsigned char small[64];
	const unsigned char full[128] = ATTR(X, FLAGS_OTHER);

	memcpy(small, full, sizeof(small));
	memset(small + 4, 0, 4);
	small[__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 7 : 4] = 64;  /* the other order's 64 */
	pd_swap_attr(small, sizeof(small));
	T_EQ(pd_u32(small + 4), 64, "attr.size 64 read in the other order");
	T(!memcmp(small + 8, native + 8, 56), "a VER0 attr: its 64 bytes alone");
}

/* Every sample_type bit perf 6.1 knows but WEIGHT (WEIGHT_STRUCT instead):
 * read_format ENABLED|RUNNING|ID|GROUP|LOST, branch HW_INDEX, regs 0x3. */
#define SAMPLE(N, FL) {                                                         \
	N##32(PD_REC_SAMPLE), N##16(2), N##16(SAMPLE_SIZE),                     \
	N##64(1001),                         /* IDENTIFIER */                   \
	N##64(0x401000),                     /* IP */                           \
	N##32(77), N##32(78),                /* TID */                          \
	N##64(123456789),                    /* TIME */                         \
	N##64(0xdead0000),                   /* ADDR */                         \
	N##64(1001),                         /* ID */                           \
	N##64(5),                            /* STREAM_ID */                    \
	N##32(3), N##32(0),                  /* CPU */                          \
	N##64(1),                            /* PERIOD */                       \
	N##64(1), N##64(10), N##64(9),       /* READ: nr, enabled, running */   \
	N##64(42), N##64(1001), N##64(0),    /*   value, id, lost */            \
	N##64(2), N##64(0xffffffffffffff80ULL), N##64(0xffffffff81000000ULL),   \
	N##32(4), 'r', 'a', 'w', '!',        /* RAW: memory, kept */            \
	N##64(1), N##64(7),                  /* BRANCH: nr, hw_idx */           \
	N##64(0x401000), N##64(0x402000), FL, /* from, to, flags */             \
	N##64(2), N##64(0x11), N##64(0x22),  /* REGS_USER: abi, 2 regs */       \
	N##64(16), 's', 't', 'a', 'c', 'k', ' ', 'd', 'u', 'm', 'p', ' ', 'b',  \
	'y', 't', 'e', 's', N##64(16),       /* STACK_USER: size, dump, dyn */  \
	N##64(0x0002000300000004ULL),        /* WEIGHT_STRUCT */                \
	N##64(0x68100142ULL),                /* DATA_SRC */                     \
	N##64(0x6),                          /* TRANSACTION */                  \
	N##64(2), N##64(0x33), N##64(0x44),  /* REGS_INTR */                    \
	N##64(0x1234000),                    /* PHYS_ADDR */                    \
	N##64(99),                           /* CGROUP */                       \
	N##64(4096), N##64(2097152),         /* DATA/CODE_PAGE_SIZE */          \
	N##64(8), 'a', 'u', 'x', 'd', 'a', 't', 'a', '.',  /* AUX */            \
}
#define SAMPLE_SIZE 352

/* branch flags mispred, cycles 0x1234, type 5, spec 2, new_type 9, priv 3:
 * {lsb, width} (0,1) (4,16) (20,4) (24,2) (26,4) (30,3) on a little-endian
 * machine, at 64 - lsb - width on a big-endian one */
#define BRF_LE ((1ULL << 0) | (0x1234ULL << 4) | (5ULL << 20) | (2ULL << 24) | \
		(9ULL << 26) | (3ULL << 30))
#define BRF_BE ((1ULL << 63) | (0x1234ULL << 44) | (5ULL << 40) | (2ULL << 38) | \
		(9ULL << 34) | (3ULL << 31))

static void test_sample(void)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	unsigned char other[] = SAMPLE(X, X64(BRF_BE));
	const unsigned char native[] = SAMPLE(U, U64(BRF_LE));
#else
	unsigned char other[] = SAMPLE(X, X64(BRF_LE));
	const unsigned char native[] = SAMPLE(U, U64(BRF_BE));
#endif
	struct pd_sample_attr a = { .sample_type = 0x1ffffffULL & ~PD_S_WEIGHT,
				    .read_format = 0x1f, .branch_sample_type = PD_BRANCH_HW_INDEX,
				    .regs_user = 0x3, .regs_intr = 0x3 };
	struct pd_sample s;
	struct tb_err err = { 0 };

	T_EQ(sizeof(other), SAMPLE_SIZE, "the sample is %d bytes", SAMPLE_SIZE);
	pd_swap_record_header(other);
	pd_swap_sample_body(&a, other, sizeof(other));
	for (size_t i = 0; i < sizeof(other); i++)
		if (other[i] != native[i]) {
			T(0, "every sample field native: first difference at byte %zu", i);
			return;
		}
	T(1, "every sample field native, RAW, the stack dump and AUX bytes kept, branch flags mirrored");
	T_EQ(pd_sample_decode(&a, other, sizeof(other), 0, &s, &err), 0, "it decodes (%s)", err.msg);
	T(s.pid == 77 && s.tid == 78 && s.cpu == 3, "pid, tid and cpu: u32s each");
	T_EQ(s.nr_branches, 1, "one branch");
}

/* A walk stops at the end of its bytes: a callchain count past the record. */
static void test_bounds(void)
{
	unsigned char rec[] = { X32(PD_REC_SAMPLE), X16(2), X16(32), X64(0x1000000), X64(7),
				X64(8), 0xee, 0xee, 0xee, 0xee };
	struct pd_sample_attr a = { .sample_type = PD_S_CALLCHAIN | PD_S_RAW };

	pd_swap_record_header(rec);
	pd_swap_sample_body(&a, rec, 32);    /* the 4 bytes past 32 are not its */
	T_EQ(pd_u64(rec + 8), 0x1000000, "callchain nr swapped");
	T_EQ(pd_u64(rec + 16), 7, "its entries swapped while they fit");
	T(rec[32] == 0xee && rec[35] == 0xee, "nothing past the record touched");
}

/* COMM with a sample_id trailer TID|TIME|ID|CPU|IDENTIFIER through pd_swap_record. */
static void test_trailer(void)
{
	const unsigned char other[] = {
		X32(PD_REC_COMM), X16(0x2000), X16(64), X32(10), X32(11), 'w', 'o', 'r', 'k',
		0, 0, 0, 0, X32(10), X32(11), X64(5000), X64(1001), X32(2), X32(0), X64(1001),
	};
	const unsigned char native[] = {
		U32(PD_REC_COMM), U16(0x2000), U16(64), U32(10), U32(11), 'w', 'o', 'r', 'k',
		0, 0, 0, 0, U32(10), U32(11), U64(5000), U64(1001), U32(2), U32(0), U64(1001),
	};
	struct pd_evsel e = { .sample_type = PD_S_TID | PD_S_TIME | PD_S_ID | PD_S_CPU |
					     PD_S_IDENTIFIER };
	struct pd_session s = { .evsels = &e, .nr_evsels = 1, .sample_id_all = 1 };
	unsigned char out[64];

	pd_swap_record(&s, other, sizeof(other), out);
	T(!memcmp(out, native, sizeof(native)), "COMM and its trailer native, the comm kept");

	const unsigned char fork_x[] = {
		X32(PD_REC_FORK), X16(0), X16(72), X32(20), X32(10), X32(21), X32(11), X64(7777),
		X32(20), X32(21), X64(7777), X64(1001), X32(2), X32(0), X64(1001),
	};
	const unsigned char fork_n[] = {
		U32(PD_REC_FORK), U16(0), U16(72), U32(20), U32(10), U32(21), U32(11), U64(7777),
		U32(20), U32(21), U64(7777), U64(1001), U32(2), U32(0), U64(1001),
	};
	unsigned char out2[72];

	pd_swap_record(&s, fork_x, sizeof(fork_x), out2);
	T(!memcmp(out2, fork_n, sizeof(fork_n)), "FORK: pid, ppid, tid, ptid, time and trailer native");
}

/* NUMA_TOPOLOGY's u64s at 4-byte offsets; CPU_TOPOLOGY with its dies. */
static void test_features(void)
{
	unsigned char numa[] = { X32(1), X32(0), X64(1000), X64(500), X32(4), '0', '-', '1', 0 };
	const unsigned char numa_n[] = { U32(1), U32(0), U64(1000), U64(500), U32(4), '0', '-', '1', 0 };
	unsigned char topo[] = { X32(1), X32(4), '0', '-', '1', 0, X32(1), X32(4), '0', '-', '1', 0,
				 X32(0), X32(0), X32(1), X32(0),
				 X32(1), X32(4), '0', '-', '1', 0, X32(0), X32(0) };
	const unsigned char topo_n[] = { U32(1), U32(4), '0', '-', '1', 0, U32(1), U32(4), '0', '-',
					 '1', 0, U32(0), U32(0), U32(1), U32(0),
					 U32(1), U32(4), '0', '-', '1', 0, U32(0), U32(0) };

	pd_swap_feature(PD_FEAT_NUMA_TOPOLOGY, numa, sizeof(numa), 0);
	T(!memcmp(numa, numa_n, sizeof(numa)), "NUMA_TOPOLOGY native");
	pd_swap_feature(PD_FEAT_CPU_TOPOLOGY, topo, sizeof(topo), 2);
	T(!memcmp(topo, topo_n, sizeof(topo)), "CPU_TOPOLOGY with dies native (2 cpus)");
}

int main(void)
{
	test_attr();
	test_sample();
	test_bounds();
	test_trailer();
	test_features();
	return done();
}
