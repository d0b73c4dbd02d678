/* pd_swap.c - the records and samples of a recording of the other byte
 * order, made native (perf 6.1 session.c perf_event__swap_ops, evsel.c
 * evsel__parse_sample; perf-data-format.md sections 4 and 6). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_session_int.h"
#include "perfdata/pd_swap.h"

/* ---- samples ---- */

/* The 6.1 branch_flags bitfields (mispred, predicted, in_tx, abort,
 * cycles, type, spec, new_type, priv, reserved): {lsb position on a
 * little-endian machine, width}. A big-endian compiler puts each at
 * 64 - position - width. */
static const unsigned char branch_fields[][2] = {
	{ 0, 1 }, { 1, 1 }, { 2, 1 }, { 3, 1 }, { 4, 16 }, { 20, 4 }, { 24, 2 },
	{ 26, 4 }, { 30, 3 }, { 33, 31 },
};

static uint64_t branch_flags_native(uint64_t v)
{
	uint64_t out = 0;

	for (size_t i = 0; i < sizeof(branch_fields) / sizeof(branch_fields[0]); i++) {
		unsigned le = branch_fields[i][0], w = branch_fields[i][1];
		unsigned be = 64 - le - w;
		uint64_t mask = (1ULL << w) - 1;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		out |= ((v >> be) & mask) << le;
#else
		out |= ((v >> le) & mask) << be;
#endif
	}
	return out;
}

static void swap_read(struct pd_swcur *c, uint64_t rf)
{
	uint64_t per = 1 + !!(rf & PD_FMT_ID) + !!(rf & PD_FMT_LOST);
	uint64_t nr = 1;

	if (rf & PD_FMT_GROUP)
		nr = pd_sw64(c);
	if (rf & PD_FMT_TOTAL_TIME_ENABLED)
		pd_sw64(c);
	if (rf & PD_FMT_TOTAL_TIME_RUNNING)
		pd_sw64(c);
	for (uint64_t i = 0; i < nr && c->ok; i++)
		for (uint64_t k = 0; k < per; k++)
			pd_sw64(c);
}

static void swap_regs(struct pd_swcur *c, uint64_t mask)
{
	if (pd_sw64(c))                   /* abi: 0 = no registers follow */
		for (int i = 0; i < __builtin_popcountll(mask); i++)
			pd_sw64(c);
}

static void swap_branches(struct pd_swcur *c, uint64_t branch_type)
{
	uint64_t nr = pd_sw64(c), f;

	if (branch_type & PD_BRANCH_HW_INDEX)
		pd_sw64(c);
	for (uint64_t i = 0; i < nr && c->ok; i++) {
		pd_sw64(c);
		pd_sw64(c);
		f = pd_sw64(c);           /* the writer's u64, its fields mirrored */
		if (c->ok) {
			f = branch_flags_native(f);
			memcpy(c->p + c->off - 8, &f, 8);
		}
	}
}

/* The fields after RAW, in the order of perf_output_sample. */
static void swap_sample_tail(const struct pd_sample_attr *a, struct pd_swcur *c)
{
	uint64_t t = a->sample_type, n;
	static const uint64_t last_u64s[] = {
		PD_S_PHYS_ADDR, PD_S_CGROUP, PD_S_DATA_PAGE_SIZE, PD_S_CODE_PAGE_SIZE,
	};

	if (t & PD_S_BRANCH_STACK)
		swap_branches(c, a->branch_sample_type);
	if (t & PD_S_REGS_USER)
		swap_regs(c, a->regs_user);
	if ((t & PD_S_STACK_USER) && (n = pd_sw64(c))) {
		pd_swskip(c, n);          /* memory: its bytes as they were */
		pd_sw64(c);               /* dyn_size */
	}
	if (t & (PD_S_WEIGHT | PD_S_WEIGHT_STRUCT))
		pd_sw64(c);               /* the struct's halves are declared per order */
	if (t & PD_S_DATA_SRC)
		pd_sw64(c);
	if (t & PD_S_TRANSACTION)
		pd_sw64(c);
	if (t & PD_S_REGS_INTR)
		swap_regs(c, a->regs_intr);
	for (size_t i = 0; i < sizeof(last_u64s) / sizeof(last_u64s[0]); i++)
		if (t & last_u64s[i])
			pd_sw64(c);
	if (t & PD_S_AUX)
		pd_swskip(c, pd_sw64(c));
}

void pd_swap_sample_body(const struct pd_sample_attr *a, unsigned char *rec, size_t size)
{
	struct pd_swcur c = { .p = rec, .size = size, .off = PD_EVENT_HEADER, .ok = 1 };
	uint64_t t = a->sample_type;
	static const uint64_t head_u64s[] = {
		PD_S_TIME, PD_S_ADDR, PD_S_ID, PD_S_STREAM_ID,
	};

	if (t & PD_S_IDENTIFIER)
		pd_sw64(&c);
	if (t & PD_S_IP)
		pd_sw64(&c);
	if (t & PD_S_TID) {               /* perf: the u64 swapped, then its halves */
		pd_sw32(&c);
		pd_sw32(&c);
	}
	for (size_t i = 0; i < sizeof(head_u64s) / sizeof(head_u64s[0]); i++)
		if (t & head_u64s[i])
			pd_sw64(&c);
	if (t & PD_S_CPU) {
		pd_sw32(&c);
		pd_sw32(&c);
	}
	if (t & PD_S_PERIOD)
		pd_sw64(&c);
	if (t & PD_S_READ)
		swap_read(&c, a->read_format);
	if (t & PD_S_CALLCHAIN) {
		uint64_t nr = pd_sw64(&c);

		for (uint64_t i = 0; i < nr && c.ok; i++)
			pd_sw64(&c);
	}
	if (t & PD_S_RAW)                 /* the payload: the file's order, for
					   * libtraceevent's file endianness */
		pd_swskip(&c, pd_sw32(&c));
	swap_sample_tail(a, &c);
}

/* ---- the attr of a record ---- */

static const struct pd_evsel *sample_evsel(struct pd_session *s, unsigned char *rec,
					   size_t size)
{
	size_t at = PD_EVENT_HEADER + (size_t)s->id_pos * 8;

	if (s->nr_evsels == 1)
		return &s->evsels[0];
	if (s->nr_evsels == 0 || s->id_pos < 0 || size < at + 8)
		return NULL;
	pd_bswap64(rec + at);             /* the reader names it if it is unknown */
	return pd_session_id2evsel(s, pd_u64(rec + at));
}

static const struct pd_evsel *trailer_evsel(struct pd_session *s, const unsigned char *rec,
					    size_t size)
{
	const struct pd_evsel *e;
	size_t back = (size_t)s->is_pos * 8;

	if (s->nr_evsels == 0)
		return NULL;
	if (s->nr_evsels == 1 || s->is_pos <= 0 || size < PD_EVENT_HEADER + back)
		return &s->evsels[0];
	e = pd_session_id2evsel(s, __builtin_bswap64(pd_u64(rec + size - back)));
	return e ? e : &s->evsels[0];
}

/* The sample_id trailer at the end of a kernel record. */
static void swap_trailer(uint64_t t, unsigned char *rec, size_t size)
{
	size_t tsize = pd_trailer_size(t);
	struct pd_swcur c = { .p = rec, .size = size, .ok = 1 };

	if (size < PD_EVENT_HEADER + tsize)
		return;
	c.off = size - tsize;
	if (t & PD_S_TID) {
		pd_sw32(&c);
		pd_sw32(&c);
	}
	if (t & PD_S_TIME)
		pd_sw64(&c);
	if (t & PD_S_ID)
		pd_sw64(&c);
	if (t & PD_S_STREAM_ID)
		pd_sw64(&c);
	if (t & PD_S_CPU) {
		pd_sw32(&c);
		pd_sw32(&c);
	}
	if (t & PD_S_IDENTIFIER)
		pd_sw64(&c);
}

/* ---- kernel records ---- */

/* Fixed bodies as a list of widths from offset 8 (0 ends it). */
static const unsigned char *kernel_body(uint32_t type, uint16_t misc)
{
	static const unsigned char mmap[] = { 4, 4, 8, 8, 8, 0 };
	static const unsigned char mmap2[] = { 4, 4, 8, 8, 8, 4, 4, 8, 8, 4, 4, 0 };
	static const unsigned char mmap2_bid[] = { 4, 4, 8, 8, 8, 1, 1, 2, 20, 4, 4, 0 };
	static const unsigned char two32[] = { 4, 4, 0 };
	static const unsigned char task[] = { 4, 4, 4, 4, 8, 0 };
	static const unsigned char u64x1[] = { 8, 0 }, u64x2[] = { 8, 8, 0 };
	static const unsigned char u64x3[] = { 8, 8, 8, 0 };
	static const unsigned char ksymbol[] = { 8, 4, 2, 2, 0 };
	static const unsigned char bpf[] = { 2, 2, 4, 0 };
	static const unsigned char poke[] = { 8, 2, 2, 0 };

	switch (type) {
	case PD_REC_MMAP:           return mmap;
	case PD_REC_MMAP2:          return misc & PD_MISC_MMAP_BUILD_ID ? mmap2_bid : mmap2;
	case PD_REC_LOST:           return u64x2;
	case PD_REC_COMM:           return two32;
	case PD_REC_EXIT:
	case PD_REC_FORK:           return task;
	case PD_REC_THROTTLE:
	case 6:                     return u64x3;      /* UNTHROTTLE */
	case PD_REC_READ:           return two32;      /* then u64s (swap_kernel) */
	case 11:                    return u64x3;      /* AUX */
	case 12:                    return two32;      /* ITRACE_START */
	case PD_REC_LOST_SAMPLES:   return u64x1;
	case 15:                    return two32;      /* SWITCH_CPU_WIDE */
	case 16:                    return two32;      /* NAMESPACES: then nr, pairs */
	case 17:                    return ksymbol;
	case 18:                    return bpf;
	case 19:                    return u64x1;      /* CGROUP */
	case 20:                    return poke;       /* TEXT_POKE */
	case 21:                    return u64x1;      /* AUX_OUTPUT_HW_ID */
	default:                    return NULL;       /* SWITCH: nothing */
	}
}

static void swap_widths(struct pd_swcur *c, const unsigned char *w)
{
	for (; w && *w; w++) {
		if (*w == 8)
			pd_sw64(c);
		else if (*w == 4)
			pd_sw32(c);
		else if (*w == 2)
			pd_sw16(c);
		else
			pd_swskip(c, *w);
	}
}

static void swap_kernel(struct pd_session *s, unsigned char *rec, size_t size, uint32_t type)
{
	const struct pd_evsel *e = s->sample_id_all ? trailer_evsel(s, rec, size) : NULL;
	size_t end = size;
	struct pd_swcur c = { .p = rec, .off = PD_EVENT_HEADER, .ok = 1 };

	if (e && size >= PD_EVENT_HEADER + pd_trailer_size(e->sample_type))
		end = size - pd_trailer_size(e->sample_type);
	c.size = end;
	swap_widths(&c, kernel_body(type, pd_u16(rec + 4)));
	if (type == PD_REC_READ)          /* the values read_format lays out */
		while (c.ok && end - c.off >= 8)
			pd_sw64(&c);
	if (type == 16) {                 /* NAMESPACES: u64 nr, nr x {dev, ino} */
		uint64_t nr = pd_sw64(&c);

		for (uint64_t i = 0; i < nr && c.ok; i++) {
			pd_sw64(&c);
			pd_sw64(&c);
		}
	}
	if (e)
		swap_trailer(e->sample_type, rec, size);
}

/* ---- records perf makes (type >= 64) ---- */

static void swap_cpu_map(struct pd_swcur *c)
{
	uint16_t type = pd_sw16(c), nr;

	if (type == 0) {                  /* CPUS: u16 nr, u16 cpu[nr] */
		nr = pd_sw16(c);
		for (uint16_t i = 0; i < nr && c->ok; i++)
			pd_sw16(c);
	} else if (type == 1) {           /* MASK: u16 nr, u16 long_size, ... */
		uint16_t long_size;

		nr = pd_sw16(c);
		long_size = pd_sw16(c);
		if (long_size == 8)
			pd_swskip(c, 4);
		for (uint16_t i = 0; i < nr && c->ok && (long_size == 4 || long_size == 8); i++)
			long_size == 4 ? (void)pd_sw32(c) : (void)pd_sw64(c);
	} else if (type == 2) {           /* RANGE: u8 any, u8 pad, u16 start, end */
		pd_swskip(c, 2);
		pd_sw16(c);
		pd_sw16(c);
	}
}

static void swap_event_update(struct pd_swcur *c)
{
	uint64_t type = pd_sw64(c);

	pd_sw64(c);                       /* id */
	if (type == 1)                    /* SCALE: a double */
		pd_sw64(c);
	else if (type == 3)               /* CPUS: a cpu map */
		swap_cpu_map(c);
	else if (type == PD_EVENT_UPDATE_SYSCALL_MAP)
		pd_swap_scmap(c);
	/* UNIT and NAME are strings; UNFINISHED has no payload */
}

static void swap_user(unsigned char *rec, size_t size, uint32_t type, uint32_t nr_cpus)
{
	struct pd_swcur c = { .p = rec, .size = size, .off = PD_EVENT_HEADER, .ok = 1 };
	static const unsigned char auxtrace[] = { 8, 8, 8, 4, 4, 4, 4, 0 };
	static const unsigned char aux_err[] = { 4, 4, 4, 4, 4, 4, 8, 8, 64, 4, 4, 0 };
	static const unsigned char stat[] = { 8, 4, 4, 8, 8, 8, 0 };

	switch (type) {
	case PD_REC_HEADER_ATTR:
		pd_swap_attr(rec + 8, size - 8);
		if (size - 8 >= PD_ATTR_SIZE_VER0 && pd_u32(rec + 8 + PD_ATTR_OFF_SIZE) <= size - 8) {
			uint32_t asz = pd_u32(rec + 8 + PD_ATTR_OFF_SIZE);

			asz = asz ? asz : PD_ATTR_SIZE_VER0;
			pd_swap_u64s(rec + 8 + asz, size - 8 - asz);
		}
		return;
	case PD_REC_HEADER_EVENT_TYPE:
		pd_sw64(&c);
		return;
	case PD_REC_HEADER_TRACING_DATA:
		pd_sw32(&c);
		return;
	case PD_REC_HEADER_BUILD_ID:
		pd_sw32(&c);                  /* pid; the rest are bytes */
		return;
	case PD_REC_ID_INDEX:
	case 70:                          /* AUXTRACE_INFO: u32 type, u32 pad, u64 priv[] */
	case 75:                          /* STAT_CONFIG: u64 nr, {u64 tag, val} */
	case 77:                          /* STAT_ROUND */
	case PD_REC_TIME_CONV:            /* u64s, then two u8 flags and padding */
		if (type == 70) {
			pd_sw32(&c);
			pd_sw32(&c);
		} else if (type == PD_REC_TIME_CONV) {
			c.size = size < 48 ? size : 48;
		}
		while (c.ok && c.size - c.off >= 8)
			pd_sw64(&c);
		return;
	case 71:
		swap_widths(&c, auxtrace);
		return;
	case 72:
		swap_widths(&c, aux_err);
		return;
	case PD_REC_THREAD_MAP: {         /* u64 nr, nr x {u64 pid, char comm[16]} */
		uint64_t nr = pd_sw64(&c);

		for (uint64_t i = 0; i < nr && c.ok; i++) {
			pd_sw64(&c);
			pd_swskip(&c, 16);
		}
		return;
	}
	case PD_REC_CPU_MAP:
		swap_cpu_map(&c);
		return;
	case 76:
		swap_widths(&c, stat);
		return;
	case PD_REC_EVENT_UPDATE:
		swap_event_update(&c);
		return;
	case PD_REC_HEADER_FEATURE: {
		uint64_t feat = pd_sw64(&c);

		if (c.ok && feat < PD_FEAT_BITS)
			pd_swap_feature((int)feat, rec + 16, size - 16, nr_cpus);
		return;
	}
	default:                          /* FINISHED_ROUND, FINISHED_INIT, COMPRESSED:
					   * no numbers; unknown types: unknown */
		return;
	}
}

void pd_swap_record(struct pd_session *s, const unsigned char *src, size_t size,
		    unsigned char *dst)
{
	uint32_t type;

	if (dst != src)
		memcpy(dst, src, size);
	if (size < PD_EVENT_HEADER)
		return;
	pd_swap_record_header(dst);
	type = pd_u32(dst);
	if (type == PD_REC_SAMPLE) {
		const struct pd_evsel *e = sample_evsel(s, dst, size);

		if (e) {
			/* sample_evsel swapped the id in place: undo, then walk */
			if (s->nr_evsels > 1)
				pd_bswap64(dst + PD_EVENT_HEADER + (size_t)s->id_pos * 8);
			pd_swap_sample_body(&e->sattr, dst, size);
		}
		return;
	}
	if (type >= PD_REC_USER_START)
		swap_user(dst, size, type, s->info.nr_cpus_avail);
	else if (type > 0 && type <= PD_REC_KERNEL_LAST)
		swap_kernel(s, dst, size, type);
}
