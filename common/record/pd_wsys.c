/* pd_wsys.c - the machine-description features perf record 6.1 writes
 * (CPUDESC, CPUID, TOTAL_MEM, CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS,
 * CACHE, MEM_TOPOLOGY, and the empty BUILD_ID, BPF and PMU_CAPS sections),
 * read from /proc and /sys. Encodings: perf-data-format.md section 5.1;
 * perf's tools dereference some of them (data convert --to-json prints
 * CPUDESC and CPUID unchecked), so every one is written, empty if need be. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "util/bytebuf.h"
#include "perfdata/pd_format.h"
#include "record/pd_wsys.h"
#include "tracepoint/tracefs.h"

#define SYS_CPU  "/sys/devices/system/cpu"
#define SYS_NODE "/sys/devices/system/node"

static long read_long(const char *path, long dflt)
{
	char b[64];

	return file_first_line(path, b, sizeof(b)) ? dflt : strtol(b, NULL, 0);
}

/* The value of "@key : value" in /proc/cpuinfo, whitespace squeezed. */
static int cpuinfo(const char *key, char *out, size_t cap)
{
	FILE *f = fopen("/proc/cpuinfo", "r");
	char line[512];
	size_t kl = strlen(key);
	int found = -1;

	if (!f)
		return -1;
	while (found && fgets(line, sizeof(line), f)) {
		char *v = line + kl, *o = out;

		if (strncmp(line, key, kl) || (v[0] != ' ' && v[0] != '\t' && v[0] != ':'))
			continue;
		v = strchr(v, ':');
		if (!v)
			continue;
		for (v++; *v == ' ' || *v == '\t'; v++)
			;
		for (; *v && *v != '\n' && (size_t)(o - out) + 1 < cap; v++)
			if (!(isspace((unsigned char)*v) && (o == out || o[-1] == ' ')))
				*o++ = isspace((unsigned char)*v) ? ' ' : *v;
		while (o > out && o[-1] == ' ')
			o--;
		*o = 0;
		found = 0;
	}
	fclose(f);
	return found;
}

static int add_bytes(struct pdw_features *f, int bit, struct bytebuf *b)
{
	unsigned char *p;

	if (b->oom)
		return TB_ERR_NOMEM;
	p = malloc(b->len ? b->len : 1);
	if (!p)
		return TB_ERR_NOMEM;
	memcpy(p, b->p, b->len);
	return pdw_features_add(f, bit, p, b->len);
}

static void put_str(struct bytebuf *b, const char *s)
{
	unsigned char tmp[4 + 4096 + 64];

	if (strlen(s) > 4096)
		s = "";
	bb_put(b, tmp, pd_header_string(tmp, s));
}

static void put_u32(struct bytebuf *b, uint32_t v) { bb_put(b, &v, 4); }
static void put_u64(struct bytebuf *b, uint64_t v) { bb_put(b, &v, 8); }

/* perf's cpuid string: "vendor,family,model,stepping" on x86, MIDR on arm64. */
static void cpuid_string(char *out, size_t cap)
{
	char v[128], fam[32], mod[32], step[32];

	if (!cpuinfo("vendor_id", v, sizeof(v)) && !cpuinfo("cpu family", fam, sizeof(fam)) &&
	    !cpuinfo("model", mod, sizeof(mod)) && !cpuinfo("stepping", step, sizeof(step))) {
		snprintf(out, cap, "%s,%s,%s,%s", v, fam, mod, step);
		return;
	}
	if (!file_first_line(SYS_CPU "/cpu0/regs/identification/midr_el1", out, cap))
		return;
	snprintf(out, cap, "unknown");
}

/* Append @s to the list @l (of @n) unless there; returns the new count. */
static size_t add_unique(char (*l)[256], size_t n, size_t cap, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(l[i], s))
			return n;
	if (n < cap)
		snprintf(l[n++], 256, "%s", s);
	return n;
}

#define MAX_LISTS 256

static int cpu_topology(struct pdw_features *f, long nr_avail)
{
	static char pkg[MAX_LISTS][256], core[MAX_LISTS][256], die[MAX_LISTS][256];
	size_t np = 0, nc = 0, nd = 0;
	struct bytebuf b = { 0 };
	char path[256], line[256];
	int r;

	for (long c = 0; c < nr_avail; c++) {
		snprintf(path, sizeof(path), SYS_CPU "/cpu%ld/topology/package_cpus_list", c);
		if (!file_first_line(path, line, sizeof(line)))
			np = add_unique(pkg, np, MAX_LISTS, line);
		snprintf(path, sizeof(path), SYS_CPU "/cpu%ld/topology/core_cpus_list", c);
		if (!file_first_line(path, line, sizeof(line)))
			nc = add_unique(core, nc, MAX_LISTS, line);
		snprintf(path, sizeof(path), SYS_CPU "/cpu%ld/topology/die_cpus_list", c);
		if (!file_first_line(path, line, sizeof(line)))
			nd = add_unique(die, nd, MAX_LISTS, line);
	}
	put_u32(&b, (uint32_t)np);
	for (size_t i = 0; i < np; i++)
		put_str(&b, pkg[i]);
	put_u32(&b, (uint32_t)nc);
	for (size_t i = 0; i < nc; i++)
		put_str(&b, core[i]);
	for (long c = 0; c < nr_avail; c++) {
		snprintf(path, sizeof(path), SYS_CPU "/cpu%ld/topology/core_id", c);
		put_u32(&b, (uint32_t)read_long(path, -1));
		snprintf(path, sizeof(path), SYS_CPU "/cpu%ld/topology/physical_package_id", c);
		put_u32(&b, (uint32_t)read_long(path, -1));
	}
	if (nd) {
		put_u32(&b, (uint32_t)nd);
		for (size_t i = 0; i < nd; i++)
			put_str(&b, die[i]);
		for (long c = 0; c < nr_avail; c++) {
			snprintf(path, sizeof(path), SYS_CPU "/cpu%ld/topology/die_id", c);
			put_u32(&b, (uint32_t)read_long(path, -1));
		}
	}
	r = add_bytes(f, PD_FEAT_CPU_TOPOLOGY, &b);
	bb_free(&b);
	return r;
}

/* The numbers of "/sys/devices/system/node/online" ("0-1,3"), at most @cap. */
static size_t online_nodes(int *nodes, size_t cap)
{
	char line[256], *p = line;
	size_t n = 0;

	if (file_first_line(SYS_NODE "/online", line, sizeof(line)))
		return 0;
	while (*p && n < cap) {
		long a = strtol(p, &p, 10), z = a;

		if (*p == '-')
			z = strtol(p + 1, &p, 10);
		for (long i = a; i <= z && n < cap; i++)
			nodes[n++] = (int)i;
		if (*p != ',')
			break;
		p++;
	}
	return n;
}

static uint64_t node_meminfo(int node, const char *key)
{
	char path[128], line[256], k[64];
	unsigned long long v = 0;
	FILE *f;

	snprintf(path, sizeof(path), SYS_NODE "/node%d/meminfo", node);
	snprintf(k, sizeof(k), " %s:", key);
	f = fopen(path, "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *at = strstr(line, k);

		if (at && sscanf(at + strlen(k), "%llu", &v) == 1)
			break;
	}
	fclose(f);
	return v;
}

static int numa_topology(struct pdw_features *f)
{
	int nodes[MAX_LISTS];
	size_t n = online_nodes(nodes, MAX_LISTS);
	struct bytebuf b = { 0 };
	char path[128], cpus[256];
	int r;

	put_u32(&b, (uint32_t)n);
	for (size_t i = 0; i < n; i++) {
		uint32_t node = (uint32_t)nodes[i];
		uint64_t total = node_meminfo(nodes[i], "MemTotal");
		uint64_t free_kb = node_meminfo(nodes[i], "MemFree");

		bb_put(&b, &node, 4);
		bb_put(&b, &total, 8);
		bb_put(&b, &free_kb, 8);
		snprintf(path, sizeof(path), SYS_NODE "/node%d/cpulist", nodes[i]);
		if (file_first_line(path, cpus, sizeof(cpus)))
			cpus[0] = 0;
		put_str(&b, cpus);
	}
	r = add_bytes(f, PD_FEAT_NUMA_TOPOLOGY, &b);
	bb_free(&b);
	return r;
}

static int pmu_mappings(struct pdw_features *f)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct bytebuf b = { 0 };
	struct dirent *e;
	uint32_t nr = 0;
	char path[512];
	int r;

	put_u32(&b, 0);
	while (d && (e = readdir(d))) {
		long type;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", e->d_name);
		if ((type = read_long(path, -1)) < 0)
			continue;
		put_u32(&b, (uint32_t)type);
		put_str(&b, e->d_name);
		nr++;
	}
	if (d)
		closedir(d);
	if (!b.oom)
		memcpy(b.p, &nr, 4);
	r = add_bytes(f, PD_FEAT_PMU_MAPPINGS, &b);
	bb_free(&b);
	return r;
}

/* The caches of every CPU, each level/type/sharing once. */
static int caches(struct pdw_features *f, long nr_avail)
{
	static char seen[MAX_LISTS][256];
	struct bytebuf b = { 0 };
	size_t nseen = 0;
	uint32_t nr = 0;
	int r;

	put_u32(&b, 1);
	put_u32(&b, 0);
	for (long c = 0; c < nr_avail; c++) {
		for (int i = 0; i < 16; i++) {
			char dir[128], path[192], type[64], size[64], map[128], key[256];
			long level;

			snprintf(dir, sizeof(dir), SYS_CPU "/cpu%ld/cache/index%d", c, i);
			snprintf(path, sizeof(path), "%s/level", dir);
			if ((level = read_long(path, -1)) < 0)
				break;
			snprintf(path, sizeof(path), "%s/type", dir);
			if (file_first_line(path, type, sizeof(type)))
				type[0] = 0;
			snprintf(path, sizeof(path), "%s/size", dir);
			if (file_first_line(path, size, sizeof(size)))
				size[0] = 0;
			snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
			if (file_first_line(path, map, sizeof(map)))
				map[0] = 0;
			snprintf(key, sizeof(key), "%ld %s %s", level, type, map);
			if (add_unique(seen, nseen, MAX_LISTS, key) == nseen)
				continue;
			nseen++;
			put_u32(&b, (uint32_t)level);
			snprintf(path, sizeof(path), "%s/coherency_line_size", dir);
			put_u32(&b, (uint32_t)read_long(path, 0));
			snprintf(path, sizeof(path), "%s/number_of_sets", dir);
			put_u32(&b, (uint32_t)read_long(path, 0));
			snprintf(path, sizeof(path), "%s/ways_of_associativity", dir);
			put_u32(&b, (uint32_t)read_long(path, 0));
			put_str(&b, type);
			put_str(&b, size);
			put_str(&b, map);
			nr++;
		}
	}
	if (!b.oom)
		memcpy(b.p + 4, &nr, 4);
	r = add_bytes(f, PD_FEAT_CACHE, &b);
	bb_free(&b);
	return r;
}

/* One node's memory blocks as perf's bitmap: u64 nbits, then the words. */
static void mem_node(struct bytebuf *b, int node)
{
	char path[128];
	unsigned max = 0, m;
	uint64_t *words;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), SYS_NODE "/node%d", node);
	d = opendir(path);
	while (d && (e = readdir(d)))
		if (sscanf(e->d_name, "memory%u", &m) == 1 && m > max && m < (1u << 24))
			max = m;
	words = calloc(max / 64 + 1, 8);
	if (d)
		rewinddir(d);
	while (d && words && (e = readdir(d)))
		if (sscanf(e->d_name, "memory%u", &m) == 1 && m <= max)
			words[m / 64] |= 1ULL << (m % 64);
	if (d)
		closedir(d);
	put_u64(b, (uint64_t)node);
	put_u64(b, (uint64_t)max + 1);
	put_u64(b, (uint64_t)max + 1);
	if (words)
		bb_put(b, words, (max / 64 + 1) * 8);
	else
		b->oom = 1;
	free(words);
}

static int mem_topology(struct pdw_features *f)
{
	int nodes[MAX_LISTS];
	size_t n = online_nodes(nodes, MAX_LISTS);
	struct bytebuf b = { 0 };
	char line[64];
	int r;

	put_u64(&b, 1);
	put_u64(&b, file_first_line("/sys/devices/system/memory/block_size_bytes", line, sizeof(line)) ?
			    0 : strtoull(line, NULL, 16));
	put_u64(&b, (uint64_t)n);
	for (size_t i = 0; i < n; i++)
		mem_node(&b, nodes[i]);
	r = add_bytes(f, PD_FEAT_MEM_TOPOLOGY, &b);
	bb_free(&b);
	return r;
}

/* A u32 0 payload (an empty list), as perf writes BPF_* and PMU_CAPS here. */
static int empty_list(struct pdw_features *f, int bit)
{
	unsigned char *p = calloc(1, 4);

	return p ? pdw_features_add(f, bit, p, 4) : TB_ERR_NOMEM;
}

int pdw_sys_features(struct pdw_features *f, int bit_lo, int bit_hi)
{
	long nr_avail = sysconf(_SC_NPROCESSORS_CONF);
	char s[512];
	unsigned char *p;
	uint64_t mem;
	int r = 0;

	for (int bit = bit_lo; bit <= bit_hi && !r; bit++) {
		switch (bit) {
		case PD_FEAT_BUILD_ID:       /* no build ids: no DSO is sampled */
			p = malloc(1);
			r = p ? pdw_features_add(f, bit, p, 0) : TB_ERR_NOMEM;
			break;
		case PD_FEAT_CPUDESC:
			if (cpuinfo("model name", s, sizeof(s)))
				snprintf(s, sizeof(s), "unknown");
			r = pdw_features_add_string(f, bit, s);
			break;
		case PD_FEAT_CPUID:
			cpuid_string(s, sizeof(s));
			r = pdw_features_add_string(f, bit, s);
			break;
		case PD_FEAT_TOTAL_MEM:
			mem = (uint64_t)sysconf(_SC_PHYS_PAGES) * (uint64_t)sysconf(_SC_PAGESIZE) / 1024;
			p = malloc(8);
			if (p)
				memcpy(p, &mem, 8);
			r = p ? pdw_features_add(f, bit, p, 8) : TB_ERR_NOMEM;
			break;
		case PD_FEAT_CPU_TOPOLOGY:  r = cpu_topology(f, nr_avail); break;
		case PD_FEAT_NUMA_TOPOLOGY: r = numa_topology(f); break;
		case PD_FEAT_PMU_MAPPINGS:  r = pmu_mappings(f); break;
		case PD_FEAT_CACHE:         r = caches(f, nr_avail); break;
		case PD_FEAT_MEM_TOPOLOGY:  r = mem_topology(f); break;
		case PD_FEAT_BPF_PROG_INFO:
		case PD_FEAT_BPF_BTF:
		case PD_FEAT_PMU_CAPS:      r = empty_list(f, bit); break;
		default:                    break;
		}
	}
	return r;
}
