/* pd_features.h - the feature sections tracebox reads (strings, cpus, cmdline, event names). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_FEATURES_H
#define PD_FEATURES_H

#include <stddef.h>
#include <stdint.h>
#include "tracepoint/syscall_map.h"
#include "util/tb_err.h"

/* What `trace-report --header` shows; NULL/0 where the file lacks it. */
struct pd_header_info {
	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;
	int has_nrcpus;
	uint32_t nr_cpus_avail, nr_cpus_online;
	int has_total_mem;
	uint64_t total_mem_kb;
	char **cmdline;
	uint32_t nr_cmdline;
	/* EVENT_DESC: names, in attr order */
	struct pd_event_desc {
		char *name;
	} *descs;
	uint32_t nr_descs;
	/* HEADER_COMPRESSED (perf record -z): 5 x u32 */
	int has_compressed;
	uint32_t comp_ver, comp_type, comp_level, comp_ratio, comp_mmap_len;
	/* SAMPLE_TIME: first and last sample time (ns) */
	int has_sample_time;
	uint64_t first_sample_time, last_sample_time;
	/* PMU_MAPPINGS: nr_pmus {type, name} pairs */
	struct pd_pmu_mapping {
		uint32_t type;
		char *name;
	} *pmus;
	uint32_t nr_pmus;
	int has_pmus;
	/* CLOCKID (23): the clock's resolution in ns */
	int has_clockid;
	uint64_t clockid_res_ns;
	/* GROUP_DESC (17): groups of attrs, by the index of their leader */
	struct pd_group_desc {
		char *name;          /* "{anon_group}" when it has none */
		uint32_t leader, nr_members;
	} *groups;
	uint32_t nr_groups;
	int has_groups;
	/* CLOCK_DATA (29, version 1): the clock and one moment read on both
	 * it and the time of day (ns) */
	int has_clock_data;
	uint32_t clock_id;
	uint64_t clock_tod_ns, clock_ref_ns;
	/* the -I features: CPU_TOPOLOGY (13), NUMA_TOPOLOGY (14), CACHE (20),
	 * MEM_TOPOLOGY (22), as perf's process_* functions keep them */
	struct pd_topology {
		char **sockets, **dies, **threads;   /* sibling lists, as written */
		uint32_t nr_sockets, nr_dies, nr_threads;
		struct pd_cpu_ids { uint32_t core, die, socket; } *cpus;
		uint32_t nr_cpus;                   /* 0: the ids were not written */
		int has_dies;
	} topo;
	int has_topo;
	struct pd_numa_node { uint32_t node; uint64_t total, free; char *cpus; } *numa;
	uint32_t nr_numa;
	int has_numa;
	struct pd_cache { uint32_t level, line, sets, ways; char *type, *size, *map; } *caches;
	uint32_t nr_caches;
	int has_caches;
	struct pd_mem_node { uint64_t node, blocks; char *ranges; } *mem;
	uint64_t mem_bsize;
	uint32_t nr_mem;
	int has_mem;
	/* tracebox's private syscall map (feature bit 200, or an EVENT_UPDATE in pipe mode) */
	int has_syscalls;
	struct syscall_map syscalls;
};

void pd_header_info_free(struct pd_header_info *info);

/**
 * pd_feature_parse - parse one feature payload into @info
 * @feat: feature bit; bits tracebox does not use are accepted and ignored
 * @buf, @size: the payload, bounded
 * @base: its file offset, for messages
 * Returns 0 or TB_ERR_* with @err set.
 */
int pd_feature_parse(int feat, const unsigned char *buf, size_t size, uint64_t base,
		     struct pd_header_info *info, struct tb_err *err);

/**
 * pd_feature_forget - drop what @info holds of feature @feat (after a
 * damaged payload: a half-parsed list must not reach the header printer)
 */
void pd_feature_forget(int feat, struct pd_header_info *info);

/** pd_feature_name - perf's name of a feature bit ("hostname", ...), or NULL */
const char *pd_feature_name(int feat);

/** pd_feature_known - whether perf 6.1 or tracebox knows feature bit @feat
 * (1..31, and tracebox's syscall map); other set bits are skipped */
int pd_feature_known(int feat);

#endif
