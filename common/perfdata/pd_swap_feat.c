/* pd_swap_feat.c - the feature sections of a recording of the other byte
 * order, made native, each by its own layout (perf 6.1 header.c process_*,
 * whose do_read_u32/u64 swap; perf-data-format.md section 5.1). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "perfdata/pd_format.h"
#include "perfdata/pd_swap.h"

static void strlist(struct pd_swcur *c)
{
	uint32_t nr = pd_sw32(c);

	for (uint32_t i = 0; i < nr && c->ok; i++)
		pd_swstr(c);
}

/* tracebox's syscall map: u32 version, string arch, string source, u32 nr,
 * nr x {u32 number, string name} (syscall_map.h) */
void pd_swap_scmap(struct pd_swcur *c)
{
	uint32_t nr;

	pd_sw32(c);
	pd_swstr(c);
	pd_swstr(c);
	nr = pd_sw32(c);
	for (uint32_t i = 0; i < nr && c->ok; i++) {
		pd_sw32(c);
		pd_swstr(c);
	}
}

/* BUILD_ID: records {u32 type, u16 misc, u16 size, s32 pid, build id,
 * filename} to the section's end */
static void build_ids(unsigned char *p, size_t size)
{
	size_t off = 0;

	while (size - off >= 12) {
		uint16_t rsz;

		pd_swap_record_header(p + off);
		pd_bswap32(p + off + 8);
		rsz = pd_u16(p + off + 6);
		if (rsz < 12 || rsz > size - off)
			return;
		off += rsz;
	}
}

/* EVENT_DESC: u32 nr, u32 attr_size, nr x {attr, u32 nr_ids, string, u64 ids} */
static void event_desc(struct pd_swcur *c)
{
	uint32_t nr = pd_sw32(c), attr_size = pd_sw32(c);

	for (uint32_t i = 0; i < nr && c->ok; i++) {
		uint32_t nr_ids;

		if (attr_size > c->size - c->off) {
			c->ok = 0;
			return;
		}
		/* the attr's own size may say less than attr_size: swap within it */
		pd_swap_attr(c->p + c->off, attr_size);
		pd_swskip(c, attr_size);
		nr_ids = pd_sw32(c);
		pd_swstr(c);
		for (uint32_t k = 0; k < nr_ids && c->ok; k++)
			pd_sw64(c);
	}
}

/* CPU_TOPOLOGY: package and thread lists, nr_cpus x {core, socket}, then
 * (optional) the die list and nr_cpus die ids */
static void cpu_topology(struct pd_swcur *c, uint32_t nr_cpus)
{
	strlist(c);
	strlist(c);
	for (uint32_t i = 0; i < nr_cpus && c->ok; i++) {
		pd_sw32(c);
		pd_sw32(c);
	}
	if (!c->ok || c->off == c->size)
		return;
	strlist(c);
	for (uint32_t i = 0; i < nr_cpus && c->ok; i++)
		pd_sw32(c);
}

/* NUMA: u32 nr, nr x {u32 node, u64 total, u64 free, string cpus} */
static void numa(struct pd_swcur *c)
{
	uint32_t nr = pd_sw32(c);

	for (uint32_t i = 0; i < nr && c->ok; i++) {
		pd_sw32(c);
		pd_sw64(c);
		pd_sw64(c);
		pd_swstr(c);
	}
}

/* CACHE: u32 version, u32 nr, nr x {u32 level, line, sets, ways; 3 strings} */
static void cache(struct pd_swcur *c)
{
	uint32_t nr;

	pd_sw32(c);
	nr = pd_sw32(c);
	for (uint32_t i = 0; i < nr && c->ok; i++) {
		for (int k = 0; k < 4; k++)
			pd_sw32(c);
		for (int k = 0; k < 3; k++)
			pd_swstr(c);
	}
}

/* MEM_TOPOLOGY: u64 version, block size, nr; nr x {node, size, nbits, words} */
static void mem_topology(struct pd_swcur *c)
{
	uint64_t nr;

	pd_sw64(c);
	pd_sw64(c);
	nr = pd_sw64(c);
	for (uint64_t i = 0; i < nr && c->ok; i++) {
		uint64_t nbits;

		pd_sw64(c);
		pd_sw64(c);
		nbits = pd_sw64(c);
		for (uint64_t w = 0; w < nbits / 64 + (nbits % 64 != 0) && c->ok; w++)
			pd_sw64(c);
	}
}

/* u32 nr, nr x {u32, string} (PMU_MAPPINGS) or {string, u32, u32} (GROUP_DESC)
 * or {string, string} (CPU_PMU_CAPS, HYBRID_TOPOLOGY) */
static void u32_list(struct pd_swcur *c, const char *shape)
{
	uint32_t nr = pd_sw32(c);

	for (uint32_t i = 0; i < nr && c->ok; i++)
		for (const char *k = shape; *k; k++)
			*k == 's' ? pd_swstr(c) : (void)pd_sw32(c);
}

/* PMU_CAPS: u32 nr_pmu; each {u32 nr_caps, nr_caps x {string, string}, string pmu} */
static void pmu_caps(struct pd_swcur *c)
{
	uint32_t nr = pd_sw32(c);

	for (uint32_t i = 0; i < nr && c->ok; i++) {
		u32_list(c, "ss");
		pd_swstr(c);
	}
}

/* u32 and u64 runs of the fixed features; 0 ends */
static const unsigned char *fixed(int feat)
{
	static const unsigned char two32[] = { 4, 4, 0 }, one64[] = { 8, 0 };
	static const unsigned char two64[] = { 8, 8, 0 }, five32[] = { 4, 4, 4, 4, 4, 0 };
	static const unsigned char clock[] = { 4, 4, 8, 8, 0 };

	switch (feat) {
	case PD_FEAT_NRCPUS:      return two32;
	case PD_FEAT_TOTAL_MEM:
	case PD_FEAT_CLOCKID:
	case 24:                  return one64;     /* DIR_FORMAT */
	case PD_FEAT_SAMPLE_TIME: return two64;
	case PD_FEAT_COMPRESSED:  return five32;
	case PD_FEAT_CLOCK_DATA:  return clock;
	default:                  return NULL;
	}
}

void pd_swap_feature(int feat, unsigned char *p, size_t size, uint32_t nr_cpus)
{
	struct pd_swcur c = { .p = p, .size = size, .ok = 1 };
	const unsigned char *w = fixed(feat);

	for (; w && *w; w++)
		*w == 8 ? (void)pd_sw64(&c) : (void)pd_sw32(&c);
	switch (feat) {
	case PD_FEAT_BUILD_ID:    build_ids(p, size); return;
	case PD_FEAT_HOSTNAME: case PD_FEAT_OSRELEASE: case PD_FEAT_VERSION:
	case PD_FEAT_ARCH: case PD_FEAT_CPUDESC: case PD_FEAT_CPUID:
		pd_swstr(&c);
		return;
	case PD_FEAT_CMDLINE:     strlist(&c); return;
	case PD_FEAT_EVENT_DESC:  event_desc(&c); return;
	case PD_FEAT_CPU_TOPOLOGY: cpu_topology(&c, nr_cpus); return;
	case PD_FEAT_NUMA_TOPOLOGY: numa(&c); return;
	case PD_FEAT_PMU_MAPPINGS: u32_list(&c, "is"); return;
	case PD_FEAT_GROUP_DESC:  u32_list(&c, "sii"); return;
	case PD_FEAT_AUXTRACE:    pd_swap_u64s(p, size); return;   /* u64 nr, {offset, size} */
	case PD_FEAT_CACHE:       cache(&c); return;
	case PD_FEAT_MEM_TOPOLOGY: mem_topology(&c); return;
	case 28:                  /* CPU_PMU_CAPS */
	case 30:                  /* HYBRID_TOPOLOGY */
		u32_list(&c, "ss");
		return;
	case PD_FEAT_PMU_CAPS:    pmu_caps(&c); return;
	case PD_FEAT_BPF_PROG_INFO:
	case PD_FEAT_BPF_BTF:     /* perf 6.1 reads neither from the other order;
				   * an empty list is its count alone */
		if (size == 4)
			pd_sw32(&c);
		return;
	case PD_FEAT_SYSCALL_MAP: pd_swap_scmap(&c); return;
	default:                  /* TRACING_DATA keeps its own endian byte */
		return;
	}
}
