/* pd_wbuild.h - the feature list trace-record writes (pd_wbuild.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_WBUILD_H
#define PD_WBUILD_H

#include "record/pd_wfeatures.h"
#include "tracepoint/syscall_map.h"

/**
 * pdw_features_build - every feature perf record 6.1 writes for a
 * recording, in bit order: TRACING_DATA (@td, taken over; none when NULL),
 * BUILD_ID (empty), HOSTNAME, OSRELEASE, VERSION (@version), ARCH, NRCPUS,
 * CPUDESC, CPUID, TOTAL_MEM, CMDLINE (@argv), EVENT_DESC (@attrs),
 * CPU_TOPOLOGY, NUMA_TOPOLOGY, PMU_MAPPINGS, CACHE, SAMPLE_TIME (zero until
 * pdw_features_sample_time), MEM_TOPOLOGY, BPF_PROG_INFO, BPF_BTF,
 * PMU_CAPS; then, when @scmap is not NULL, the syscall map (an entry the
 * writer puts in an EVENT_UPDATE record, not a feature section).
 * Returns 0 or TB_ERR_NOMEM.
 */
int pdw_features_build(struct pdw_features *f, unsigned char *td, size_t td_len,
		       const char *version, int argc, char **argv,
		       const struct pd_wattr *attrs, size_t nr_attrs,
		       const struct syscall_map *scmap);

#endif
