/* test_sample.c - pd_sample_parse, pd_sample_when, pd_trailer_parse, pd_id_pos and pd_is_pos
 * (common/perfdata/pd_sample.h) against the SAMPLE body and sample_id trailer layout
 * of perf-data-format.md section 4. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"
#include "unit.h"

/* raw_syscalls:sys_enter as perf record 6.1 writes it: sample_type
 * IP|TID|TIME|CPU|PERIOD|RAW = 0x587, 120 bytes (section 9 recipe). */
static const unsigned char sample_587[] = {
	U32(PD_REC_SAMPLE), U16(1), U16(120),   /* header: type 9, misc KERNEL, size 120 */
	U64(0xffffffff81001234ULL),             /* IP */
	U32(4242), U32(4243),                   /* TID: pid, tid */
	U64(5000001000ULL),                     /* TIME: 5.000001 s */
	U32(1), U32(0),                         /* CPU: cpu 1, reserved */
	U64(1),                                 /* PERIOD */
	U32(68),                                /* RAW: raw_size (64 + 4 pad) */
	U16(443), 0, 0,                         /* raw: common_type, common_flags, common_preempt_count */
	U32(4242),                              /* raw: common_pid */
	U64(1),                                 /* raw: long id (write) */
	U64(1), U64(0x7ffc0000), U64(12),       /* raw: args[0..2] */
	U64(0), U64(0), U64(0),                 /* raw: args[3..5] */
	0, 0, 0, 0,                             /* raw: pad so that 4 + raw_size is a multiple of 8 */
};

/* The 88-byte sys_exit sample of section 4, sample_type 0x5c7 (adds ID). */
static const unsigned char sample_5c7[] = {
	U32(PD_REC_SAMPLE), U16(1), U16(88),    /* header */
	U64(0xffffffff81005678ULL),             /* IP */
	U32(100), U32(101),                     /* TID: pid, tid */
	U64(7000000000ULL),                     /* TIME */
	U64(46),                                /* ID */
	U32(3), U32(0),                         /* CPU: cpu 3, reserved */
	U64(1),                                 /* PERIOD */
	U32(28),                                /* RAW: raw_size (24 + 4 pad) */
	U16(0x1ba), 0, 0,                       /* raw: common_type 442, flags, preempt_count */
	U32(100),                               /* raw: common_pid */
	U64(59),                                /* raw: long id (execve) */
	U64(0),                                 /* raw: long ret */
	0, 0, 0, 0,                             /* raw: pad */
};

/* perf record -a: IDENTIFIER first, sample_type 0x10587, sched_wakeup's 36-byte raw. */
static const unsigned char sample_10587[] = {
	U32(PD_REC_SAMPLE), U16(1), U16(96),    /* header */
	U64(77),                                /* IDENTIFIER */
	U64(0xffffffff810abcdeULL),             /* IP */
	U32(0), U32(0),                         /* TID: swapper */
	U64(9000000000ULL),                     /* TIME */
	U32(0), U32(0),                         /* CPU: cpu 0, reserved */
	U64(1),                                 /* PERIOD */
	U32(36),                                /* RAW: raw_size (4 + 36 = 40) */
	U16(320), 0, 0,                         /* raw: common_type, flags, preempt_count */
	U32(0),                                 /* raw: common_pid */
	'k', 'w', 'o', 'r', 'k', 'e', 'r', 0,   /* raw: char comm[16] */
	0, 0, 0, 0, 0, 0, 0, 0,
	U32(55),                                /* raw: pid_t pid */
	U32(120),                               /* raw: int prio */
	U32(2),                                 /* raw: int target_cpu */
};

/* Every field tracebox decodes, in body order: 120 bytes. */
#define ALL_BITS (PD_S_IDENTIFIER | PD_S_IP | PD_S_TID | PD_S_TIME | PD_S_ADDR | PD_S_ID | \
		  PD_S_STREAM_ID | PD_S_CPU | PD_S_PERIOD | PD_S_CALLCHAIN | PD_S_RAW)
static const unsigned char sample_all[] = {
	U32(PD_REC_SAMPLE), U16(1), U16(120),   /* 0: header */
	U64(1000),                              /* 8: IDENTIFIER */
	U64(0xffffffff81000010ULL),             /* 16: IP */
	U32(11), U32(12),                       /* 24: TID: pid, tid */
	U64(13000),                             /* 32: TIME */
	U64(0xdead0000),                        /* 40: ADDR */
	U64(1000),                              /* 48: ID */
	U64(2000),                              /* 56: STREAM_ID */
	U32(5), U32(0),                         /* 64: CPU: cpu, reserved */
	U64(3),                                 /* 72: PERIOD */
	U64(3),                                 /* 80: CALLCHAIN: nr */
	U64(0xffffffffffffff80ULL),             /* 88: ip[0]: PERF_CONTEXT_KERNEL */
	U64(0xffffffff81000010ULL),             /* 96: ip[1] */
	U64(0xffffffff81000020ULL),             /* 104: ip[2] */
	U32(4),                                 /* 112: RAW: raw_size */
	U16(9), 0, 0,                           /* 116: raw: 4 bytes */
};

/* Where each field of sample_all starts and how long it is: a truncation
 * inside a field makes pd_sample_parse return minus its start. */
static const struct { unsigned start, len; const char *name; } all_fields[] = {
	{ 8, 8, "IDENTIFIER" }, { 16, 8, "IP" }, { 24, 8, "TID" }, { 32, 8, "TIME" },
	{ 40, 8, "ADDR" }, { 48, 8, "ID" }, { 56, 8, "STREAM_ID" }, { 64, 8, "CPU" },
	{ 72, 8, "PERIOD" }, { 80, 8, "CALLCHAIN nr" }, { 88, 24, "CALLCHAIN ips" },
	{ 112, 4, "RAW raw_size" }, { 116, 4, "RAW data" },
};

static void test_perf_layouts(void)
{
	struct pd_sample s;
	int r;

	r = pd_sample_parse(0x587, sample_587, sizeof(sample_587), &s);
	T_EQ(r, 0, "0x587 (sys_enter, IP|TID|TIME|CPU|PERIOD|RAW) parses");
	T(s.ip == 0xffffffff81001234ULL && s.pid == 4242 && s.tid == 4243 &&
	  s.time == 5000001000ULL && s.cpu == 1 && s.period == 1, "0x587: ip, pid/tid, time, cpu, period");
	T(s.raw_size == 68 && s.raw == sample_587 + 52 && pd_u16(s.raw) == 443,
	  "0x587: raw_size 68 at offset 52, common_type 443");
	T(s.id == 0 && s.addr == 0 && s.stream_id == 0 && s.nr_callchain == 0 && !s.callchain,
	  "0x587: fields without their bit keep the defaults");

	r = pd_sample_parse(0x5c7, sample_5c7, sizeof(sample_5c7), &s);
	T_EQ(r, 0, "0x5c7 (sys_exit, adds ID) parses");
	T(s.id == 46 && s.cpu == 3 && s.pid == 100 && s.tid == 101 && s.time == 7000000000ULL,
	  "0x5c7: id 46, cpu 3, pid/tid, time");
	T(s.raw_size == 28 && pd_u16(s.raw) == 442 && pd_u64(s.raw + 8) == 59,
	  "0x5c7: raw_size 28, common_type 442, id 59");

	r = pd_sample_parse(0x10587, sample_10587, sizeof(sample_10587), &s);
	T_EQ(r, 0, "0x10587 (perf record -a, IDENTIFIER first) parses");
	T(s.id == 77 && s.pid == 0 && s.tid == 0 && s.cpu == 0 && s.raw_size == 36 &&
	  !memcmp(s.raw + 8, "kworker", 8) && pd_u32(s.raw + 32) == 2,
	  "0x10587: identifier 77, swapper tid 0, 36-byte raw");

	pd_sample_init(&s);
	T(s.pid == -1 && s.tid == -1 && s.cpu == -1 && s.time == 0 && !s.raw,
	  "pd_sample_init: pid/tid/cpu -1, others 0");
	r = pd_sample_parse(PD_S_TIME | PD_S_RAW, sample_587, 8, &s);
	T_EQ(-r, 8, "a bare 8-byte header with fields expected fails at offset 8");
	r = pd_sample_parse(0, sample_587, 8, &s);
	T(r == 0 && s.pid == -1 && s.cpu == -1, "sample_type 0: nothing to read, defaults");
	r = pd_sample_parse(PD_S_TIME, sample_587, 4, &s);
	T_EQ(-r, 8, "a size below the header fails at offset 8");
}

static void test_all_fields(void)
{
	unsigned char rec[sizeof(sample_all)];
	struct pd_sample s;
	int r;

	r = pd_sample_parse(ALL_BITS, sample_all, sizeof(sample_all), &s);
	T_EQ(r, 0, "all eleven bits: parses");
	T(s.id == 1000 && s.ip == 0xffffffff81000010ULL && s.pid == 11 && s.tid == 12 &&
	  s.time == 13000 && s.addr == 0xdead0000 && s.stream_id == 2000 && s.cpu == 5 &&
	  s.period == 3, "all eleven bits: every scalar field");
	T(s.nr_callchain == 3 && s.callchain == sample_all + 88 &&
	  pd_u64(s.callchain) == 0xffffffffffffff80ULL && pd_u64(s.callchain + 16) == 0xffffffff81000020ULL,
	  "all eleven bits: callchain of 3 with the kernel context marker");
	T(s.raw_size == 4 && s.raw == sample_all + 116, "all eleven bits: raw");

	/* truncation: every size inside a field fails at that field's start */
	for (size_t f = 0; f < sizeof(all_fields) / sizeof(all_fields[0]); f++) {
		unsigned bad = 0, start = all_fields[f].start;

		for (unsigned size = start; size < start + all_fields[f].len; size++) {
			r = pd_sample_parse(ALL_BITS, sample_all, size, &s);
			if (r != -(int)start) {
				NOTE("size %u: got %d, want %d", size, r, -(int)start);
				bad++;
			}
		}
		T(!bad, "truncated inside %s (sizes %u..%u): returns -%u", all_fields[f].name,
		  start, start + all_fields[f].len - 1, start);
	}

	memcpy(rec, sample_all, sizeof(rec));
	put_u64(rec, 80, 4);                 /* nr 4: the ips swallow raw_size and raw */
	r = pd_sample_parse(ALL_BITS, rec, sizeof(rec), &s);
	T_EQ(-r, 120, "callchain nr 4 leaves no room for raw_size: fails at 120");
	put_u64(rec, 80, 5);                 /* nr 5: 40 bytes, 32 left */
	r = pd_sample_parse(ALL_BITS, rec, sizeof(rec), &s);
	T_EQ(-r, 88, "callchain nr 5 (40 bytes, 32 left): fails at the ips, 88");
	put_u64(rec, 80, UINT64_MAX);
	r = pd_sample_parse(ALL_BITS, rec, sizeof(rec), &s);
	T_EQ(-r, 88, "callchain nr 2^64-1 (no overflow): fails at 88");
	put_u64(rec, 80, 1ULL << 61);        /* nr * 8 wraps to 0 in 64 bits */
	r = pd_sample_parse(ALL_BITS, rec, sizeof(rec), &s);
	T_EQ(-r, 88, "callchain nr 2^61 (nr * 8 wraps to 0): fails at 88");

	memcpy(rec, sample_all, sizeof(rec));
	put_u32(rec, 112, 5);                /* raw_size 5, 4 bytes left */
	r = pd_sample_parse(ALL_BITS, rec, sizeof(rec), &s);
	T_EQ(-r, 116, "raw_size 5 with 4 bytes left: fails at the raw data, 116");
	put_u32(rec, 112, UINT32_MAX);
	r = pd_sample_parse(ALL_BITS, rec, sizeof(rec), &s);
	T_EQ(-r, 116, "raw_size 2^32-1: fails at 116");
	put_u32(rec, 112, 0);
	r = pd_sample_parse(ALL_BITS, rec, sizeof(rec), &s);
	T(r == 0 && s.raw_size == 0, "raw_size 0 with bytes after it: parses, raw_size 0");

	r = pd_sample_parse(0x587, sample_587, sizeof(sample_587) - 4, &s);
	T_EQ(-r, 52, "sys_enter sample missing its 4 pad bytes: fails at the raw data, 52");
}

/* The order of the body fields and the value each one gets in build(). */
static const uint64_t body_bits[] = {
	PD_S_IDENTIFIER, PD_S_IP, PD_S_TID, PD_S_TIME, PD_S_ADDR, PD_S_ID,
	PD_S_STREAM_ID, PD_S_CPU, PD_S_PERIOD, PD_S_CALLCHAIN, PD_S_RAW,
};
#define NR_BODY_BITS (sizeof(body_bits) / sizeof(body_bits[0]))

/* Lay out a sample for @st; field starts go to @starts (index: body_bits). */
static size_t build(uint64_t st, unsigned char *rec, unsigned starts[NR_BODY_BITS])
{
	size_t o = 8;

	for (unsigned i = 0; i < NR_BODY_BITS; i++) {
		uint64_t bit = body_bits[i];

		starts[i] = (unsigned)o;
		if (!(st & bit))
			continue;
		if (bit == PD_S_IDENTIFIER || bit == PD_S_ID)
			o = put_u64(rec, o, 0x1d00);               /* one id in both places */
		else if (bit == PD_S_TID)
			o = put_u32(rec, put_u32(rec, o, 300), 301);
		else if (bit == PD_S_CPU)
			o = put_u32(rec, put_u32(rec, o, 7), 0);
		else if (bit == PD_S_CALLCHAIN)
			o = put_u64(rec, put_u64(rec, put_u64(rec, o, 2), 0xc0ffee), 0xc0ffef);
		else if (bit == PD_S_RAW)
			o = put_u32(rec, put_u32(rec, o, 4), 0x01020304);
		else
			o = put_u64(rec, o, 0x100 + i);            /* IP 0x101, TIME 0x103, ... */
	}
	put_u32(rec, 0, PD_REC_SAMPLE);
	put_u16(rec, 4, 1);
	put_u16(rec, 6, (uint16_t)o);
	return o;
}

/* Every subset of the eleven bits: values, defaults, id position, truncation. */
/* every field of two decoded samples alike (not memcmp: padding) */
static int same_sample(const struct pd_sample *a, const struct pd_sample *b)
{
#define F(x) (a->x == b->x)
	return F(id) && F(ip) && F(time) && F(addr) && F(stream_id) && F(period) && F(pid) &&
	       F(tid) && F(cpu) && F(read_nr) && F(time_enabled) && F(time_running) &&
	       F(read_value) && F(read_id) && F(read_lost) && F(read_values) &&
	       F(read_value_size) && F(nr_callchain) && F(callchain) && F(raw_size) && F(raw) &&
	       F(nr_branches) && F(branch_hw_idx) && F(has_branch_hw_idx) && F(branches) &&
	       F(user_regs_abi) && F(user_regs_mask) && F(intr_regs_abi) && F(intr_regs_mask) &&
	       F(user_regs) && F(intr_regs) && F(user_stack_size) && F(user_stack_dyn_size) &&
	       F(user_stack_off) && F(user_stack) && F(weight) && F(weight_full) && F(ins_lat) &&
	       F(p_stage_cyc) && F(data_src) && F(transaction) && F(phys_addr) && F(cgroup) &&
	       F(data_page_size) && F(code_page_size) && F(aux_size) && F(aux);
#undef F
}

static void test_every_combination(void)
{
	unsigned bad_values = 0, bad_trunc = 0, bad_idpos = 0, bad_when = 0;
	unsigned char rec[256];
	unsigned starts[NR_BODY_BITS];

	for (unsigned mask = 0; mask < (1u << NR_BODY_BITS); mask++) {
		uint64_t st = 0;
		struct pd_sample s;
		size_t size;
		int ok, pos;

		for (unsigned i = 0; i < NR_BODY_BITS; i++)
			if (mask & (1u << i))
				st |= body_bits[i];
		size = build(st, rec, starts);
		ok = pd_sample_parse(st, rec, size, &s) == 0;
		ok = ok && s.id == (st & (PD_S_ID | PD_S_IDENTIFIER) ? 0x1d00 : 0);
		ok = ok && s.ip == (st & PD_S_IP ? 0x101 : 0);
		ok = ok && s.pid == (st & PD_S_TID ? 300 : -1) && s.tid == (st & PD_S_TID ? 301 : -1);
		ok = ok && s.time == (st & PD_S_TIME ? 0x103 : 0);
		ok = ok && s.addr == (st & PD_S_ADDR ? 0x104 : 0);
		ok = ok && s.stream_id == (st & PD_S_STREAM_ID ? 0x106 : 0);
		ok = ok && s.cpu == (st & PD_S_CPU ? 7 : -1);
		ok = ok && s.period == (st & PD_S_PERIOD ? 0x108 : 0);
		ok = ok && s.nr_callchain == (st & PD_S_CALLCHAIN ? 2 : 0);
		ok = ok && (!(st & PD_S_CALLCHAIN) || pd_u64(s.callchain + 8) == 0xc0ffef);
		ok = ok && s.raw_size == (st & PD_S_RAW ? 4 : 0);
		ok = ok && (!(st & PD_S_RAW) || pd_u32(s.raw) == 0x01020304);
		if (!ok) {
			if (bad_values++ < 5)
				NOTE("sample_type 0x%llx decodes wrong", (unsigned long long)st);
		}

		/* pd_sample_when: the same time, cpu and raw data, without the rest */
		{
			struct pd_sample_attr a = { .sample_type = st };
			const unsigned char *raw = rec;
			uint64_t t = 1;
			int32_t c = 1;
			uint32_t rs = 1;

			struct pd_sample k;

			if (pd_sample_when(&a, rec, size, &t, &c, &raw, &rs) || t != s.time ||
			    c != s.cpu || raw != s.raw || rs != s.raw_size)
				if (bad_when++ < 5)
					NOTE("sample_type 0x%llx: pd_sample_when", (unsigned long long)st);
			/* and what it took decodes as the checked decoder has it */
			if (!pd_sample_when(&a, rec, size, &t, &c, &raw, &rs)) {
				memset(&k, 0x5a, sizeof(k));
				pd_sample_decode_taken(&a, rec, &k);
				if (!same_sample(&k, &s) && bad_when++ < 5)
					NOTE("sample_type 0x%llx: pd_sample_decode_taken",
					     (unsigned long long)st);
			}
			/* every cut the decoder refuses, it leaves to the decoder */
			for (size_t cut = 8; cut < size; cut++)
				if (!pd_sample_when(&a, rec, cut, &t, &c, &raw, &rs) && bad_when++ < 5)
					NOTE("sample_type 0x%llx cut at %zu: pd_sample_when takes it",
					     (unsigned long long)st, cut);
		}

		/* the id is the u64 at index pd_id_pos of the body */
		pos = pd_id_pos(st);
		if (st & (PD_S_ID | PD_S_IDENTIFIER) ?
		    pos < 0 || pd_u64(rec + 8 + 8 * pos) != 0x1d00 : pos != -1) {
			if (bad_idpos++ < 5)
				NOTE("sample_type 0x%llx: pd_id_pos %d", (unsigned long long)st, pos);
		}

		/* every shorter size fails at the start of the field it cuts */
		for (size_t cut = 8; cut < size; cut++) {
			int want = 0, r;

			for (unsigned i = 0; i < NR_BODY_BITS && !want; i++) {
				unsigned end = i + 1 < NR_BODY_BITS ? starts[i + 1] : (unsigned)size;

				if (!(st & body_bits[i]) || cut >= end)
					continue;
				want = (int)starts[i];
				/* a callchain or raw cut after its count fails past the count */
				if (body_bits[i] == PD_S_CALLCHAIN && cut >= starts[i] + 8u)
					want += 8;
				if (body_bits[i] == PD_S_RAW && cut >= starts[i] + 4u)
					want += 4;
			}
			r = pd_sample_parse(st, rec, cut, &s);
			if (r != -want) {
				if (bad_trunc++ < 5)
					NOTE("sample_type 0x%llx cut at %zu: got %d, want %d",
					     (unsigned long long)st, cut, r, -want);
			}
		}
	}
	T(!bad_values, "all 2048 sample_type combinations decode every field (%u wrong)", bad_values);
	T(!bad_idpos, "pd_id_pos points at the id in all 2048 combinations (%u wrong)", bad_idpos);
	T(!bad_when, "pd_sample_when: the decoder's time, cpu and raw data (and pd_sample_decode_taken its sample) in all 2048 combinations, "
	  "and no cut it refuses (%u wrong)", bad_when);
	T(!bad_trunc, "every truncation of every combination returns the cut field's offset (%u wrong)",
	  bad_trunc);
}

/* COMM as perf 6.1 writes it with sample_type 0x5c7: trailer pid/tid, time, id, cpu. */
static const unsigned char comm_5c7[] = {
	U32(PD_REC_COMM), U16(0x2000), U16(56),  /* header: COMM, misc COMM_EXEC, size 56 */
	U32(4242), U32(4242),                    /* pid, tid */
	'm', 'y', 't', 'o', 'o', 'l', 0, 0,      /* comm, NUL-padded to 8 */
	U32(4242), U32(4242),                    /* trailer TID: pid, tid */
	U64(5000002500ULL),                      /* trailer TIME */
	U64(46),                                 /* trailer ID */
	U32(1), U32(0),                          /* trailer CPU: cpu, reserved */
};

/* FORK with perf record -a's 0x10587: trailer pid/tid, time, cpu, identifier. */
static const unsigned char fork_10587[] = {
	U32(PD_REC_FORK), U16(0), U16(64),       /* header */
	U32(4242), U32(1),                       /* pid, ppid */
	U32(4242), U32(1),                       /* tid, ptid */
	U64(4999000000ULL),                      /* time */
	U32(4242), U32(4242),                    /* trailer TID */
	U64(4999000000ULL),                      /* trailer TIME */
	U32(2), U32(0),                          /* trailer CPU */
	U64(77),                                 /* trailer IDENTIFIER */
};

static void test_trailers(void)
{
	struct pd_sample s;
	int r;

	T_EQ(pd_trailer_size(0x587), 24, "trailer size 0x587: tid, time, cpu = 24");
	T_EQ(pd_trailer_size(0x5c7), 32, "trailer size 0x5c7: tid, time, id, cpu = 32");
	T_EQ(pd_trailer_size(0x10587), 32, "trailer size 0x10587: tid, time, cpu, identifier = 32");
	T_EQ(pd_trailer_size(PD_S_IP | PD_S_PERIOD | PD_S_RAW | PD_S_ADDR | PD_S_CALLCHAIN), 0,
	     "IP, ADDR, PERIOD, CALLCHAIN, RAW are not in the trailer");

	r = pd_trailer_parse(0x5c7, comm_5c7, sizeof(comm_5c7), 17, &s);
	T_EQ(r, 0, "COMM trailer (0x5c7) parses");
	T(s.pid == 4242 && s.tid == 4242 && s.time == 5000002500ULL && s.id == 46 && s.cpu == 1,
	  "COMM trailer: pid/tid 4242, time, id 46, cpu 1");
	T(pd_u64(comm_5c7 + sizeof(comm_5c7) - 8 * pd_is_pos(0x5c7)) == 46,
	  "COMM: pd_is_pos(0x5c7) counts back to the id");
	r = pd_trailer_parse(0x5c7, comm_5c7, sizeof(comm_5c7), 24, &s);
	T_EQ(r, 0, "COMM trailer with body_min 24 (trailer right after the body) parses");
	r = pd_trailer_parse(0x5c7, comm_5c7, sizeof(comm_5c7), 25, &s);
	T(r == -1, "COMM trailer overlapping a 25-byte body: -1");
	r = pd_trailer_parse(0x5c7, comm_5c7, 16, 17, &s);
	T(r == -1 && s.pid == -1, "record shorter than its body: -1, defaults");

	r = pd_trailer_parse(0x10587, fork_10587, sizeof(fork_10587), 32, &s);
	T_EQ(r, 0, "FORK trailer (0x10587) parses");
	T(s.pid == 4242 && s.tid == 4242 && s.time == 4999000000ULL && s.cpu == 2 && s.id == 77,
	  "FORK trailer: pid/tid, time, cpu 2, identifier 77");
	T(pd_u64(fork_10587 + sizeof(fork_10587) - 8 * pd_is_pos(0x10587)) == 77,
	  "FORK: pd_is_pos(0x10587) counts back to the identifier");
	r = pd_trailer_parse(0x10587, fork_10587, sizeof(fork_10587) - 8, 32, &s);
	T(r == -1, "FORK cut by 8 bytes: the trailer no longer fits, -1");

	r = pd_trailer_parse(PD_S_IP | PD_S_RAW, fork_10587, 32, 32, &s);
	T(r == 0 && s.pid == -1 && s.time == 0, "empty trailer (no trailer bits): 0, defaults");

	/* every trailer combination: the id where pd_is_pos says */
	{
		static const uint64_t tbits[] = { PD_S_TID, PD_S_TIME, PD_S_ID, PD_S_STREAM_ID,
						  PD_S_CPU, PD_S_IDENTIFIER };
		unsigned bad = 0;

		for (unsigned mask = 0; mask < 64; mask++) {
			unsigned char rec[128];
			uint64_t st = PD_S_IP | PD_S_PERIOD | PD_S_RAW;   /* body-only bits */
			size_t o = 32;
			int pos, ok;

			memcpy(rec, fork_10587, 32);
			for (unsigned i = 0; i < 6; i++) {
				if (!(mask & (1u << i)))
					continue;
				st |= tbits[i];
				if (tbits[i] == PD_S_TID)
					o = put_u32(rec, put_u32(rec, o, 9), 10);
				else if (tbits[i] == PD_S_TIME)
					o = put_u64(rec, o, 12345);
				else if (tbits[i] == PD_S_CPU)
					o = put_u32(rec, put_u32(rec, o, 4), 0);
				else if (tbits[i] == PD_S_STREAM_ID)
					o = put_u64(rec, o, 555);
				else
					o = put_u64(rec, o, 0x1d00);
			}
			ok = o - 32 == pd_trailer_size(st) &&
			     pd_trailer_parse(st, rec, o, 32, &s) == 0 &&
			     s.pid == (st & PD_S_TID ? 9 : -1) && s.tid == (st & PD_S_TID ? 10 : -1) &&
			     s.time == (st & PD_S_TIME ? 12345 : 0) &&
			     s.cpu == (st & PD_S_CPU ? 4 : -1) &&
			     s.stream_id == (st & PD_S_STREAM_ID ? 555 : 0) &&
			     s.id == (st & (PD_S_ID | PD_S_IDENTIFIER) ? 0x1d00 : 0);
			pos = pd_is_pos(st);
			ok = ok && (st & (PD_S_ID | PD_S_IDENTIFIER) ?
				    pos > 0 && pd_u64(rec + o - 8 * pos) == 0x1d00 : pos == -1);
			if (!ok && bad++ < 5)
				NOTE("trailer sample_type 0x%llx wrong", (unsigned long long)st);
		}
		T(!bad, "all 64 trailer combinations: values, size and pd_is_pos (%u wrong)", bad);
	}
}

static void test_positions(void)
{
	T_EQ(pd_id_pos(0x587), -1, "pd_id_pos(0x587, no id): -1");
	T_EQ(pd_is_pos(0x587), -1, "pd_is_pos(0x587, no id): -1");
	T_EQ(pd_id_pos(0x5c7), 3, "pd_id_pos(0x5c7): after IP, TID, TIME = 3");
	T_EQ(pd_is_pos(0x5c7), 2, "pd_is_pos(0x5c7): ID then CPU = 2 from the end");
	T_EQ(pd_id_pos(0x10587), 0, "pd_id_pos(0x10587, IDENTIFIER): 0");
	T_EQ(pd_is_pos(0x10587), 1, "pd_is_pos(0x10587, IDENTIFIER): 1, the last u64");
	T_EQ(pd_id_pos(PD_S_IP | PD_S_TID | PD_S_TIME | PD_S_ADDR | PD_S_ID), 4,
	     "pd_id_pos(IP|TID|TIME|ADDR|ID): 4");
	T_EQ(pd_id_pos(PD_S_ID | PD_S_CPU | PD_S_PERIOD | PD_S_RAW), 0,
	     "pd_id_pos(ID with only later fields): 0");
	T_EQ(pd_is_pos(PD_S_ID), 1, "pd_is_pos(ID alone): 1");
	T_EQ(pd_is_pos(PD_S_ID | PD_S_STREAM_ID | PD_S_CPU), 3, "pd_is_pos(ID|STREAM_ID|CPU): 3");
	T_EQ(pd_id_pos(PD_S_IDENTIFIER | PD_S_ID | PD_S_IP), 0, "pd_id_pos: IDENTIFIER beats ID");
	T_EQ(pd_is_pos(PD_S_IDENTIFIER | PD_S_ID | PD_S_CPU), 1, "pd_is_pos: IDENTIFIER beats ID");
}


/* Every field past PERIOD that perf 6.1 decodes, in evsel__parse_sample's
 * order: READ (group, all read_format bits), CALLCHAIN, RAW, BRANCH_STACK
 * (with hw_idx), REGS_USER, STACK_USER, WEIGHT_STRUCT, DATA_SRC, TRANSACTION,
 * REGS_INTR, PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE, AUX. */
#define LATE_BITS (PD_S_TIME | PD_S_READ | PD_S_CALLCHAIN | PD_S_RAW | PD_S_BRANCH_STACK | \
		   PD_S_REGS_USER | PD_S_STACK_USER | PD_S_WEIGHT_STRUCT | PD_S_DATA_SRC | \
		   PD_S_TRANSACTION | PD_S_REGS_INTR | PD_S_PHYS_ADDR | PD_S_CGROUP | \
		   PD_S_DATA_PAGE_SIZE | PD_S_CODE_PAGE_SIZE | PD_S_AUX)
static const unsigned char sample_late[] = {
	U32(PD_REC_SAMPLE), U16(1), U16(368),   /* 0: header */
	U64(13000),                             /* 8: TIME */
	U64(2),                                 /* 16: READ nr (GROUP) */
	U64(100), U64(90),                      /* 24: READ time_enabled, time_running */
	U64(7), U64(501), U64(0),               /* 40: READ value, id, lost */
	U64(8), U64(502), U64(1),               /* 64: READ value, id, lost */
	U64(1), U64(0xffffffff81000010ULL),     /* 88: CALLCHAIN nr 1, ip */
	U32(4), U16(443), 0, 0,                 /* 104: RAW size 4, raw */
	U64(1), U64(5),                         /* 112: BRANCH_STACK nr 1, hw_idx 5 */
	U64(0x1000), U64(0x2000), U64(0x3),     /* 128: from, to, flags */
	U64(2), U64(0x401000), U64(0x7ffc0000), /* 152: REGS_USER abi 64, ip, sp (mask 0x3) */
	U64(16),                                /* 176: STACK_USER size 16 */
	U64(0x1111), U64(0x2222),               /* 184: the dump */
	U64(8),                                 /* 200: dyn_size 8 */
	U64(0x0003000200000001ULL),             /* 208: WEIGHT_STRUCT: weight 1, ins_lat 2, p_stage_cyc 3 */
	U64(0x42),                              /* 216: DATA_SRC */
	U64(0x7),                               /* 224: TRANSACTION */
	U64(2), U64(0xffffffff81000020ULL),     /* 232: REGS_INTR abi 64, one reg (mask 0x1) */
	U64(0x12345000),                        /* 248: PHYS_ADDR */
	U64(77),                                /* 256: CGROUP */
	U64(4096),                              /* 264: DATA_PAGE_SIZE */
	U64(2097152),                           /* 272: CODE_PAGE_SIZE */
	U64(80),                                /* 280: AUX size */
	U64(1), U64(2), U64(3), U64(4), U64(5), U64(6), U64(7), U64(8), U64(9), U64(10),
};

static const struct pd_sample_attr late_attr = {
	.sample_type = LATE_BITS,
	.read_format = PD_FMT_TOTAL_TIME_ENABLED | PD_FMT_TOTAL_TIME_RUNNING | PD_FMT_ID |
		       PD_FMT_GROUP | PD_FMT_LOST,
	.branch_sample_type = PD_BRANCH_HW_INDEX,
	.regs_user = 0x3, .regs_intr = 0x1,
};

/* Where each field of sample_late starts, its length, and the name the
 * truncation message gives. */
static const struct { unsigned start, len; const char *name; } late_fields[] = {
	{ 8, 8, "TIME" }, { 16, 8, "READ nr" }, { 24, 8, "READ time_enabled" },
	{ 32, 8, "READ time_running" }, { 40, 48, "READ values" }, { 88, 8, "CALLCHAIN nr" },
	{ 96, 8, "CALLCHAIN ips" }, { 104, 4, "RAW size" }, { 108, 4, "RAW data" },
	{ 112, 8, "BRANCH_STACK nr" }, { 120, 8, "BRANCH_STACK hw_idx" },
	{ 128, 24, "BRANCH_STACK entries" }, { 152, 8, "REGS_USER abi" },
	{ 160, 16, "REGS_USER regs" }, { 176, 8, "STACK_USER size" },
	{ 184, 16, "STACK_USER data" }, { 200, 8, "STACK_USER dyn_size" }, { 208, 8, "WEIGHT" },
	{ 216, 8, "DATA_SRC" }, { 224, 8, "TRANSACTION" }, { 232, 8, "REGS_INTR abi" },
	{ 240, 8, "REGS_INTR regs" }, { 248, 8, "PHYS_ADDR" }, { 256, 8, "CGROUP" },
	{ 264, 8, "DATA_PAGE_SIZE" }, { 272, 8, "CODE_PAGE_SIZE" }, { 280, 8, "AUX size" },
	{ 288, 80, "AUX data" },
};

static void test_late_fields(void)
{
	unsigned char rec[sizeof(sample_late)];
	struct pd_sample_attr a = late_attr;
	struct pd_sample s;
	struct tb_err err;
	int r;

	T_EQ(sizeof(sample_late), 368, "sample_late is 368 bytes");
	memset(&err, 0, sizeof(err));
	r = pd_sample_decode(&a, sample_late, sizeof(sample_late), 0x1000, &s, &err);
	T(r == 0, "every field past PERIOD decodes (%s)", err.msg);
	T(s.time == 13000 && s.read_nr == 2 && s.time_enabled == 100 && s.time_running == 90 &&
	  s.read_value_size == 24 && s.read_values == sample_late + 40 &&
	  pd_u64(s.read_values + 24 + 8) == 502, "READ group: nr 2, times, 24-byte values, id 502");
	T(s.nr_callchain == 1 && s.raw_size == 4 && pd_u16(s.raw) == 443, "CALLCHAIN and RAW");
	T(s.nr_branches == 1 && s.has_branch_hw_idx && s.branch_hw_idx == 5 &&
	  s.branches == sample_late + 128 && pd_u64(s.branches + 8) == 0x2000,
	  "BRANCH_STACK: nr 1, hw_idx 5, entry {from, to, flags}");
	T(s.user_regs_abi == 2 && s.user_regs_mask == 0x3 && pd_u64(s.user_regs + 8) == 0x7ffc0000,
	  "REGS_USER: abi 2, mask 0x3, two regs");
	T(s.user_stack_size == 16 && s.user_stack == sample_late + 184 && s.user_stack_dyn_size == 8,
	  "STACK_USER: 16-byte dump, dyn_size 8");
	T(s.weight == 1 && s.ins_lat == 2 && s.p_stage_cyc == 0 &&
	  s.weight_full == 0x0003000200000001ULL,
	  "WEIGHT_STRUCT: weight 1, ins_lat 2, p_stage_cyc 0 as perf's x86 reading leaves it");
	T(s.data_src == 0x42 && s.transaction == 7, "DATA_SRC, TRANSACTION");
	T(s.intr_regs_abi == 2 && s.intr_regs_mask == 1 && pd_u64(s.intr_regs) == 0xffffffff81000020ULL,
	  "REGS_INTR: abi 2, one reg");
	T(s.phys_addr == 0x12345000 && s.cgroup == 77 && s.data_page_size == 4096 &&
	  s.code_page_size == 2097152, "PHYS_ADDR, CGROUP, DATA_PAGE_SIZE, CODE_PAGE_SIZE");
	T(s.aux_size == 80 && s.aux == sample_late + 288, "AUX: 80 bytes at 288, the rest");

	/* every cut inside every field: TB_ERR_TRUNCATED naming that field, at its start */
	for (size_t f = 0; f < sizeof(late_fields) / sizeof(late_fields[0]); f++) {
		unsigned bad = 0, start = late_fields[f].start;
		char want[96];

		snprintf(want, sizeof(want), "ends inside its %s (at byte %u;", late_fields[f].name, start);
		for (unsigned size = start; size < start + late_fields[f].len && size < 368; size++) {
			memset(&err, 0, sizeof(err));
			r = pd_sample_decode(&a, sample_late, size, 0x1000, &s, &err);
			if (r != TB_ERR_TRUNCATED || !strstr(err.msg, want) ||
			    err.offset != 0x1000 + start) {
				if (!bad)
					NOTE("size %u: %d \"%s\" at 0x%llx", size, r, err.msg,
					     (unsigned long long)err.offset);
				bad++;
			}
		}
		T(!bad, "cut inside %s: TB_ERR_TRUNCATED naming it, at 0x1000 + %u", late_fields[f].name,
		  start);
	}

	/* counts that would overflow or run past: each refused at its field */
	memcpy(rec, sample_late, sizeof(rec));
	put_u64(rec, 16, 1ULL << 62);          /* READ nr: nr * 24 wraps */
	r = pd_sample_decode(&a, rec, sizeof(rec), 0, &s, &err);
	T(r == TB_ERR_TRUNCATED && strstr(err.msg, "READ values"), "READ nr 2^62: refused (%s)", err.msg);
	memcpy(rec, sample_late, sizeof(rec));
	put_u64(rec, 112, UINT64_MAX / 24 + 1);
	r = pd_sample_decode(&a, rec, sizeof(rec), 0, &s, &err);
	T(r == TB_ERR_TRUNCATED && strstr(err.msg, "BRANCH_STACK entries"), "BRANCH_STACK nr huge: refused");
	memcpy(rec, sample_late, sizeof(rec));
	put_u64(rec, 176, UINT64_MAX);
	r = pd_sample_decode(&a, rec, sizeof(rec), 0, &s, &err);
	T(r == TB_ERR_TRUNCATED && strstr(err.msg, "STACK_USER data"), "STACK_USER size 2^64-1: refused");
	memcpy(rec, sample_late, sizeof(rec));
	put_u64(rec, 200, 17);                  /* dyn_size above the 16-byte dump */
	r = pd_sample_decode(&a, rec, sizeof(rec), 0, &s, &err);
	T(r == TB_ERR_FORMAT && strstr(err.msg, "STACK_USER dyn_size") && err.offset == 200,
	  "STACK_USER dyn_size 17 > size 16: TB_ERR_FORMAT, as perf's \"user stack dump failure\"");
	memcpy(rec, sample_late, sizeof(rec));
	put_u64(rec, 280, UINT64_MAX);
	r = pd_sample_decode(&a, rec, sizeof(rec), 0, &s, &err);
	T(r == TB_ERR_TRUNCATED && strstr(err.msg, "AUX data"), "AUX size 2^64-1: refused");

	/* abi 0: no registers follow; a zero-size stack has no dyn_size */
	{
		static const unsigned char none[] = {
			U32(PD_REC_SAMPLE), U16(1), U16(32),
			U64(0),                 /* REGS_USER abi 0 (NONE): no regs */
			U64(0),                 /* STACK_USER size 0: nothing more */
			U64(0),                 /* REGS_INTR abi 0 */
		};
		struct pd_sample_attr b = { .sample_type = PD_S_REGS_USER | PD_S_STACK_USER |
							   PD_S_REGS_INTR,
					    .regs_user = 0xff, .regs_intr = 0xff };

		r = pd_sample_decode(&b, none, sizeof(none), 0, &s, &err);
		T(r == 0 && !s.user_regs && !s.intr_regs && s.user_stack_size == 0 && !s.user_stack,
		  "abi 0 and a zero-size stack: nothing else read");
	}
	/* WEIGHT alone is the whole u64; READ without GROUP: value, times, id, lost */
	{
		static const unsigned char one[] = {
			U32(PD_REC_SAMPLE), U16(1), U16(56),
			U64(9), U64(10), U64(11), U64(12), U64(13),   /* READ value, enabled, running, id, lost */
			U64(0x0003000200000001ULL),                   /* WEIGHT */
		};
		struct pd_sample_attr b = { .sample_type = PD_S_READ | PD_S_WEIGHT,
					    .read_format = PD_FMT_TOTAL_TIME_ENABLED |
							   PD_FMT_TOTAL_TIME_RUNNING | PD_FMT_ID | PD_FMT_LOST };

		r = pd_sample_decode(&b, one, sizeof(one), 0, &s, &err);
		T(r == 0 && s.read_nr == 1 && s.read_value == 9 && s.time_enabled == 10 &&
		  s.time_running == 11 && s.read_id == 12 && s.read_lost == 13 &&
		  s.weight == 0x0003000200000001ULL && s.ins_lat == 0,
		  "READ without GROUP and plain WEIGHT");
	}
	/* branch stack without HW_INDEX: the entries follow nr */
	{
		static const unsigned char br[] = {
			U32(PD_REC_SAMPLE), U16(1), U16(40),
			U64(1), U64(0xa), U64(0xb), U64(0xc),
		};
		struct pd_sample_attr b = { .sample_type = PD_S_BRANCH_STACK };

		r = pd_sample_decode(&b, br, sizeof(br), 0, &s, &err);
		T(r == 0 && s.nr_branches == 1 && !s.has_branch_hw_idx && pd_u64(s.branches) == 0xa,
		  "BRANCH_STACK without hw_idx");
	}
}

int main(void)
{
	test_perf_layouts();
	test_all_fields();
	test_every_combination();
	test_trailers();
	test_positions();
	test_late_fields();
	return done();
}
