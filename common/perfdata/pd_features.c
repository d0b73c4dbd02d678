/* pd_features.c - parse the feature sections tracebox uses.
 * Encodings: perf-data-format.md section 5.1. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_features.h"
#include "perfdata/pd_format.h"

#define MAX_LIST 65536        /* entries in a string list or event list */

struct fcur {
	const unsigned char *p;
	size_t size, off;
	uint64_t base;
	const char *what;
	struct tb_err *err;
};

static int fbad(struct fcur *c, const char *fmt_what, unsigned long long v)
{
	return tb_err_set(c->err, TB_ERR_FORMAT, c->base + c->off,
			  "feature %s: %s (%llu)", c->what, fmt_what, v);
}

static int f_u32(struct fcur *c, uint32_t *v)
{
	if (c->size - c->off < 4)
		return tb_err_set(c->err, TB_ERR_TRUNCATED, c->base + c->off,
				  "feature %s: u32 needs 4 bytes, %zu left", c->what,
				  c->size - c->off);
	*v = pd_u32(c->p + c->off);
	c->off += 4;
	return 0;
}

static int f_u64(struct fcur *c, uint64_t *v)
{
	if (c->size - c->off < 8)
		return tb_err_set(c->err, TB_ERR_TRUNCATED, c->base + c->off,
				  "feature %s: u64 needs 8 bytes, %zu left", c->what,
				  c->size - c->off);
	*v = pd_u64(c->p + c->off);
	c->off += 8;
	return 0;
}

/* perf_header_string: u32 len, then len bytes holding a NUL. */
static int f_str(struct fcur *c, char **out)
{
	uint32_t len;
	const unsigned char *s;
	int r = f_u32(c, &len);

	if (r)
		return r;
	if (len > c->size - c->off)
		return fbad(c, "string length runs past the section", len);
	s = c->p + c->off;
	if (!memchr(s, 0, len))
		return fbad(c, "string of this length has no NUL", len);
	*out = strdup((const char *)s);
	if (!*out)
		return TB_ERR_NOMEM;
	c->off += len;
	return 0;
}

static int f_strlist(struct fcur *c, char ***list, uint32_t *nr)
{
	uint32_t n;
	int r = f_u32(c, &n);

	if (r)
		return r;
	if (n > MAX_LIST || n > (c->size - c->off) / 4)
		return fbad(c, "string count does not fit the section", n);
	*list = calloc(n ? n : 1, sizeof(char *));
	if (!*list)
		return TB_ERR_NOMEM;
	*nr = n;
	for (uint32_t i = 0; i < n; i++)
		if ((r = f_str(c, &(*list)[i])))
			return r;
	return 0;
}

static int parse_event_desc(struct fcur *c, struct pd_header_info *info)
{
	uint32_t nr, attr_size, nr_ids;
	int r;

	if ((r = f_u32(c, &nr)) || (r = f_u32(c, &attr_size)))
		return r;
	if (attr_size < PD_ATTR_SIZE_VER0 || attr_size > 4096)
		return fbad(c, "attr size out of range", attr_size);
	/* one per attr: the section's size is the bound, as the attrs' is */
	if (nr > (c->size - c->off) / (attr_size + 8))
		return fbad(c, "event count does not fit the section", nr);
	info->descs = calloc(nr ? nr : 1, sizeof(*info->descs));
	if (!info->descs)
		return TB_ERR_NOMEM;
	info->nr_descs = nr;
	for (uint32_t i = 0; i < nr; i++) {
		struct pd_event_desc *d = &info->descs[i];

		if (c->size - c->off < attr_size)
			return fbad(c, "attr runs past the section", attr_size);
		c->off += attr_size;
		if ((r = f_u32(c, &nr_ids)) || (r = f_str(c, &d->name)))
			return r;
		if (nr_ids > (c->size - c->off) / 8)
			return fbad(c, "id count runs past the section", nr_ids);
		c->off += (size_t)nr_ids * 8;
	}
	return 0;
}

/* PMU_MAPPINGS: u32 nr, then nr x { u32 type, string name }. */
static int parse_pmu_mappings(struct fcur *c, struct pd_header_info *info)
{
	uint32_t nr;
	int r;

	if ((r = f_u32(c, &nr)))
		return r;
	if (nr > MAX_LIST || nr > (c->size - c->off) / 8)
		return fbad(c, "pmu count does not fit the section", nr);
	info->pmus = calloc(nr ? nr : 1, sizeof(*info->pmus));
	if (!info->pmus)
		return TB_ERR_NOMEM;
	info->nr_pmus = nr;
	for (uint32_t i = 0; i < nr; i++)
		if ((r = f_u32(c, &info->pmus[i].type)) || (r = f_str(c, &info->pmus[i].name)))
			return r;
	info->has_pmus = 1;
	return 0;
}

/* CPU_TOPOLOGY: the package and core sibling lists, then (newer perfs)
 * core and socket ids per available CPU, then die lists and die ids. */
static int parse_cpu_topology(struct fcur *c, struct pd_header_info *info)
{
	struct pd_topology *t = &info->topo;
	uint32_t n = info->has_nrcpus ? info->nr_cpus_avail : 0;
	int r;

	if ((r = f_strlist(c, &t->sockets, &t->nr_sockets)) ||
	    (r = f_strlist(c, &t->threads, &t->nr_threads)))
		return r;
	info->has_topo = 1;
	if (c->off >= c->size || !n)
		return 0;                 /* an old perf's: no ids */
	if (n > (c->size - c->off) / 8)
		return fbad(c, "core and socket ids do not fit the section", n);
	t->cpus = calloc(n, sizeof(*t->cpus));
	if (!t->cpus)
		return TB_ERR_NOMEM;
	t->nr_cpus = n;
	for (uint32_t i = 0; i < n; i++)
		if ((r = f_u32(c, &t->cpus[i].core)) || (r = f_u32(c, &t->cpus[i].socket)))
			return r;
	if (c->off >= c->size)
		return 0;
	if ((r = f_strlist(c, &t->dies, &t->nr_dies)))
		return r;
	if (n > (c->size - c->off) / 4)
		return fbad(c, "die ids do not fit the section", n);
	for (uint32_t i = 0; i < n; i++)
		if ((r = f_u32(c, &t->cpus[i].die)))
			return r;
	t->has_dies = 1;
	return 0;
}

/* NUMA_TOPOLOGY: u32 nr, then nr x { u32 node, u64 total, u64 free, string cpus }. */
static int parse_numa(struct fcur *c, struct pd_header_info *info)
{
	uint32_t nr;
	int r;

	if ((r = f_u32(c, &nr)))
		return r;
	if (nr > MAX_LIST || nr > (c->size - c->off) / 24)
		return fbad(c, "node count does not fit the section", nr);
	info->numa = calloc(nr ? nr : 1, sizeof(*info->numa));
	if (!info->numa)
		return TB_ERR_NOMEM;
	info->nr_numa = nr;
	for (uint32_t i = 0; i < nr; i++) {
		struct pd_numa_node *n = &info->numa[i];

		if ((r = f_u32(c, &n->node)) || (r = f_u64(c, &n->total)) ||
		    (r = f_u64(c, &n->free)) || (r = f_str(c, &n->cpus)))
			return r;
	}
	info->has_numa = 1;
	return 0;
}

/* CACHE: u32 version 1, u32 nr, then nr x { u32 level, line, sets, ways;
 * strings type, size, map }. */
static int parse_cache(struct fcur *c, struct pd_header_info *info)
{
	uint32_t version, nr;
	int r;

	if ((r = f_u32(c, &version)) || (r = f_u32(c, &nr)))
		return r;
	if (version != 1)
		return fbad(c, "version is not 1", version);
	if (nr > MAX_LIST || nr > (c->size - c->off) / 28)
		return fbad(c, "cache count does not fit the section", nr);
	info->caches = calloc(nr ? nr : 1, sizeof(*info->caches));
	if (!info->caches)
		return TB_ERR_NOMEM;
	info->nr_caches = nr;
	for (uint32_t i = 0; i < nr; i++) {
		struct pd_cache *k = &info->caches[i];

		if ((r = f_u32(c, &k->level)) || (r = f_u32(c, &k->line)) ||
		    (r = f_u32(c, &k->sets)) || (r = f_u32(c, &k->ways)) ||
		    (r = f_str(c, &k->type)) || (r = f_str(c, &k->size)) || (r = f_str(c, &k->map)))
			return r;
	}
	info->has_caches = 1;
	return 0;
}

/* perf's bitmap_scnprintf into 100 bytes: the set bits as ranges "a-b,c". */
static char *bit_ranges(const unsigned char *words, uint64_t nbits)
{
	char buf[100];
	size_t len = 0;
	uint64_t i = 0;

	buf[0] = 0;
	while (i < nbits) {
		uint64_t start;

		if (!(words[i / 8] >> (i % 8) & 1)) {
			i++;
			continue;
		}
		start = i;
		while (i + 1 < nbits && (words[(i + 1) / 8] >> ((i + 1) % 8) & 1))
			i++;
		if (len < sizeof(buf) - 1) {
			int k = start == i ?
				snprintf(buf + len, sizeof(buf) - len, "%s%llu", len ? "," : "",
					 (unsigned long long)start) :
				snprintf(buf + len, sizeof(buf) - len, "%s%llu-%llu", len ? "," : "",
					 (unsigned long long)start, (unsigned long long)i);
			len = k < 0 ? len : len + (size_t)k < sizeof(buf) ? len + (size_t)k :
			      sizeof(buf) - 1;
		}
		i++;
	}
	return strdup(buf);
}

/* MEM_TOPOLOGY: u64 version 1, u64 block size, u64 nr, then nr x { u64
 * node, u64 size, u64 nbits, the bitmap's u64 words } (memory blocks). */
static int parse_mem_topology(struct fcur *c, struct pd_header_info *info)
{
	uint64_t version, nr;
	int r;

	if ((r = f_u64(c, &version)) || (r = f_u64(c, &info->mem_bsize)) || (r = f_u64(c, &nr)))
		return r;
	if (version != 1)
		return fbad(c, "version is not 1", version);
	if (nr > MAX_LIST || nr > (c->size - c->off) / 24)
		return fbad(c, "node count does not fit the section", nr);
	info->mem = calloc(nr ? nr : 1, sizeof(*info->mem));
	if (!info->mem)
		return TB_ERR_NOMEM;
	info->nr_mem = (uint32_t)nr;
	for (uint32_t i = 0; i < nr; i++) {
		struct pd_mem_node *n = &info->mem[i];
		uint64_t size, nbits, words;
		const unsigned char *bits;

		if ((r = f_u64(c, &n->node)) || (r = f_u64(c, &size)) || (r = f_u64(c, &nbits)))
			return r;
		words = nbits / 64 + (nbits % 64 != 0);
		if (words > (c->size - c->off) / 8)
			return fbad(c, "memory bitmap does not fit the section", nbits);
		bits = c->p + c->off;
		c->off += words * 8;
		for (uint64_t b = 0; b < nbits; b++)
			n->blocks += bits[b / 8] >> (b % 8) & 1;
		if (!(n->ranges = bit_ranges(bits, nbits)))
			return TB_ERR_NOMEM;
	}
	info->has_mem = 1;
	return 0;
}

/* GROUP_DESC: u32 nr, then nr x { string name, u32 leader_idx, u32 nr_members }. */
static int parse_group_desc(struct fcur *c, struct pd_header_info *info)
{
	uint32_t nr;
	int r;

	if ((r = f_u32(c, &nr)))
		return r;
	if (nr > MAX_LIST || nr > (c->size - c->off) / 12)
		return fbad(c, "group count does not fit the section", nr);
	info->groups = calloc(nr ? nr : 1, sizeof(*info->groups));
	if (!info->groups)
		return TB_ERR_NOMEM;
	info->nr_groups = nr;
	for (uint32_t i = 0; i < nr; i++) {
		struct pd_group_desc *g = &info->groups[i];

		if ((r = f_str(c, &g->name)) || (r = f_u32(c, &g->leader)) ||
		    (r = f_u32(c, &g->nr_members)))
			return r;
	}
	info->has_groups = 1;
	return 0;
}

/* CLOCK_DATA: u32 version (1), u32 clockid, u64 TOD ns, u64 clockid ns. */
static int parse_clock_data(struct fcur *c, struct pd_header_info *info)
{
	uint32_t version;
	int r;

	if ((r = f_u32(c, &version)))
		return r;
	if (version != 1)
		return fbad(c, "version is not 1", version);
	if ((r = f_u32(c, &info->clock_id)) || (r = f_u64(c, &info->clock_tod_ns)) ||
	    (r = f_u64(c, &info->clock_ref_ns)))
		return r;
	info->has_clock_data = 1;
	return 0;
}

/* Where a string feature goes, or NULL for the others. */
static char **string_slot(int feat, struct pd_header_info *info)
{
	switch (feat) {
	case PD_FEAT_HOSTNAME:  return &info->hostname;
	case PD_FEAT_OSRELEASE: return &info->osrelease;
	case PD_FEAT_VERSION:   return &info->version;
	case PD_FEAT_ARCH:      return &info->arch;
	case PD_FEAT_CPUDESC:   return &info->cpudesc;
	case PD_FEAT_CPUID:     return &info->cpuid;
	default:                return NULL;
	}
}

int pd_feature_parse(int feat, const unsigned char *buf, size_t size, uint64_t base,
		     struct pd_header_info *info, struct tb_err *err)
{
	struct fcur c = { .p = buf, .size = size, .base = base, .err = err,
			  .what = pd_feature_name(feat) };
	char **slot = string_slot(feat, info);
	int r;

	if (!c.what)
		return 0;
	switch (feat) {
	case PD_FEAT_NRCPUS:
		if ((r = f_u32(&c, &info->nr_cpus_avail)) ||
		    (r = f_u32(&c, &info->nr_cpus_online)))
			return r;
		info->has_nrcpus = 1;
		return 0;
	case PD_FEAT_TOTAL_MEM:
		if ((r = f_u64(&c, &info->total_mem_kb)))
			return r;
		info->has_total_mem = 1;
		return 0;
	case PD_FEAT_CMDLINE:
		/* pipe mode may repeat a feature: the last one counts */
		pd_feature_forget(feat, info);
		return f_strlist(&c, &info->cmdline, &info->nr_cmdline);
	case PD_FEAT_EVENT_DESC:
		pd_feature_forget(feat, info);
		return parse_event_desc(&c, info);
	case PD_FEAT_SAMPLE_TIME:
		if ((r = f_u64(&c, &info->first_sample_time)) ||
		    (r = f_u64(&c, &info->last_sample_time)))
			return r;
		info->has_sample_time = 1;
		return 0;
	case PD_FEAT_CLOCKID:
		if ((r = f_u64(&c, &info->clockid_res_ns)))
			return r;
		info->has_clockid = 1;
		return 0;
	case PD_FEAT_PMU_MAPPINGS:
		pd_feature_forget(feat, info);
		return parse_pmu_mappings(&c, info);
	case PD_FEAT_GROUP_DESC:
		pd_feature_forget(feat, info);
		return parse_group_desc(&c, info);
	case PD_FEAT_CPU_TOPOLOGY:
		pd_feature_forget(feat, info);
		return parse_cpu_topology(&c, info);
	case PD_FEAT_NUMA_TOPOLOGY:
		pd_feature_forget(feat, info);
		return parse_numa(&c, info);
	case PD_FEAT_CACHE:
		pd_feature_forget(feat, info);
		return parse_cache(&c, info);
	case PD_FEAT_MEM_TOPOLOGY:
		pd_feature_forget(feat, info);
		return parse_mem_topology(&c, info);
	case PD_FEAT_CLOCK_DATA:
		pd_feature_forget(feat, info);
		return parse_clock_data(&c, info);
	case PD_FEAT_COMPRESSED: {
		uint32_t *v[5] = { &info->comp_ver, &info->comp_type, &info->comp_level,
				   &info->comp_ratio, &info->comp_mmap_len };

		for (int i = 0; i < 5; i++)
			if ((r = f_u32(&c, v[i])))
				return r;
		info->has_compressed = 1;
		return 0;
	}
	case PD_FEAT_SYSCALL_MAP:
		pd_feature_forget(feat, info);
		if ((r = scmap_decode(&info->syscalls, buf, size, base, err)))
			return r;
		info->has_syscalls = 1;
		return 0;
	default:
		if (!slot)
			return 0;
		pd_feature_forget(feat, info);
		return f_str(&c, slot);
	}
}

const char *pd_feature_name(int feat)
{
	switch (feat) {
	case PD_FEAT_HOSTNAME:   return "hostname";
	case PD_FEAT_OSRELEASE:  return "os release";
	case PD_FEAT_VERSION:    return "perf version";
	case PD_FEAT_ARCH:       return "arch";
	case PD_FEAT_NRCPUS:     return "nrcpus";
	case PD_FEAT_CPUDESC:    return "cpudesc";
	case PD_FEAT_CPUID:      return "cpuid";
	case PD_FEAT_TOTAL_MEM:  return "total memory";
	case PD_FEAT_CMDLINE:    return "cmdline";
	case PD_FEAT_EVENT_DESC: return "event desc";
	case PD_FEAT_COMPRESSED: return "compressed";
	case PD_FEAT_SYSCALL_MAP: return "syscall map";
	case PD_FEAT_SAMPLE_TIME: return "sample time";
	case PD_FEAT_CLOCKID:    return "clockid";
	case PD_FEAT_PMU_MAPPINGS: return "pmu mappings";
	case PD_FEAT_GROUP_DESC: return "group desc";
	case PD_FEAT_CPU_TOPOLOGY: return "cpu topology";
	case PD_FEAT_NUMA_TOPOLOGY: return "numa topology";
	case PD_FEAT_CACHE:      return "cache";
	case PD_FEAT_MEM_TOPOLOGY: return "memory topology";
	case PD_FEAT_CLOCK_DATA: return "clock data";
	default:                 return NULL;
	}
}

static void free_strlist(char **v, uint32_t n)
{
	for (uint32_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

/* What the -I features (CPU, NUMA, cache, memory topology) hold. */
static void forget_topology(int feat, struct pd_header_info *info)
{
	switch (feat) {
	case PD_FEAT_CPU_TOPOLOGY: {
		struct pd_topology *t = &info->topo;

		free_strlist(t->sockets, t->nr_sockets);
		free_strlist(t->dies, t->nr_dies);
		free_strlist(t->threads, t->nr_threads);
		free(t->cpus);
		memset(t, 0, sizeof(*t));
		info->has_topo = 0;
		break;
	}
	case PD_FEAT_NUMA_TOPOLOGY:
		for (uint32_t i = 0; info->numa && i < info->nr_numa; i++)
			free(info->numa[i].cpus);
		free(info->numa);
		info->numa = NULL;
		info->nr_numa = 0;
		info->has_numa = 0;
		break;
	case PD_FEAT_CACHE:
		for (uint32_t i = 0; info->caches && i < info->nr_caches; i++) {
			free(info->caches[i].type);
			free(info->caches[i].size);
			free(info->caches[i].map);
		}
		free(info->caches);
		info->caches = NULL;
		info->nr_caches = 0;
		info->has_caches = 0;
		break;
	case PD_FEAT_MEM_TOPOLOGY:
		for (uint32_t i = 0; info->mem && i < info->nr_mem; i++)
			free(info->mem[i].ranges);
		free(info->mem);
		info->mem = NULL;
		info->nr_mem = 0;
		info->mem_bsize = 0;
		info->has_mem = 0;
		break;
	default:
		break;
	}
}

void pd_feature_forget(int feat, struct pd_header_info *info)
{
	char **slot = string_slot(feat, info);

	switch (feat) {
	case PD_FEAT_NRCPUS:
		info->has_nrcpus = 0;
		info->nr_cpus_avail = info->nr_cpus_online = 0;
		break;
	case PD_FEAT_TOTAL_MEM:
		info->has_total_mem = 0;
		info->total_mem_kb = 0;
		break;
	case PD_FEAT_CMDLINE:
		for (uint32_t i = 0; info->cmdline && i < info->nr_cmdline; i++)
			free(info->cmdline[i]);
		free(info->cmdline);
		info->cmdline = NULL;
		info->nr_cmdline = 0;
		break;
	case PD_FEAT_EVENT_DESC:
		for (uint32_t i = 0; info->descs && i < info->nr_descs; i++)
			free(info->descs[i].name);
		free(info->descs);
		info->descs = NULL;
		info->nr_descs = 0;
		break;
	case PD_FEAT_SAMPLE_TIME:
		info->has_sample_time = 0;
		info->first_sample_time = info->last_sample_time = 0;
		break;
	case PD_FEAT_CLOCKID:
		info->has_clockid = 0;
		info->clockid_res_ns = 0;
		break;
	case PD_FEAT_PMU_MAPPINGS:
		for (uint32_t i = 0; info->pmus && i < info->nr_pmus; i++)
			free(info->pmus[i].name);
		free(info->pmus);
		info->pmus = NULL;
		info->nr_pmus = 0;
		info->has_pmus = 0;
		break;
	case PD_FEAT_GROUP_DESC:
		for (uint32_t i = 0; info->groups && i < info->nr_groups; i++)
			free(info->groups[i].name);
		free(info->groups);
		info->groups = NULL;
		info->nr_groups = 0;
		info->has_groups = 0;
		break;
	case PD_FEAT_CPU_TOPOLOGY: case PD_FEAT_NUMA_TOPOLOGY: case PD_FEAT_CACHE:
	case PD_FEAT_MEM_TOPOLOGY:
		forget_topology(feat, info);
		break;
	case PD_FEAT_CLOCK_DATA:
		info->has_clock_data = 0;
		info->clock_id = 0;
		info->clock_tod_ns = info->clock_ref_ns = 0;
		break;
	case PD_FEAT_SYSCALL_MAP:
		if (info->has_syscalls)
			scmap_free(&info->syscalls);
		info->has_syscalls = 0;
		break;
	default:
		break;
	}
	if (slot) {
		free(*slot);
		*slot = NULL;
	}
}

int pd_feature_known(int feat)
{
	return (feat > 0 && feat < PD_FEAT_LAST_PERF) || feat == PD_FEAT_SYSCALL_MAP;
}

void pd_header_info_free(struct pd_header_info *info)
{
	static const int feats[] = {
		PD_FEAT_HOSTNAME, PD_FEAT_OSRELEASE, PD_FEAT_VERSION, PD_FEAT_ARCH,
		PD_FEAT_CPUDESC, PD_FEAT_CPUID, PD_FEAT_CMDLINE, PD_FEAT_EVENT_DESC,
		PD_FEAT_SYSCALL_MAP, PD_FEAT_PMU_MAPPINGS, PD_FEAT_GROUP_DESC,
		PD_FEAT_CPU_TOPOLOGY, PD_FEAT_NUMA_TOPOLOGY, PD_FEAT_CACHE, PD_FEAT_MEM_TOPOLOGY,
	};

	for (size_t i = 0; i < sizeof(feats) / sizeof(feats[0]); i++)
		pd_feature_forget(feats[i], info);
	memset(info, 0, sizeof(*info));
}
