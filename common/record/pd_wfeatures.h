/* pd_wfeatures.h - build the feature payloads trace-record writes. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_WFEATURES_H
#define PD_WFEATURES_H

#include "record/pd_writer.h"
#include "tracepoint/syscall_map.h"

#define PDW_MAX_FEATURES 32

struct pdw_features {
	struct pd_wfeature f[PDW_MAX_FEATURES];   /* sorted by bit */
	size_t nr;
	unsigned char *owned[PDW_MAX_FEATURES];   /* buffers to free */
};

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
void pdw_features_free(struct pdw_features *f);
/** pdw_features_sample_time - fill SAMPLE_TIME (ns, perf's clock) */
void pdw_features_sample_time(struct pdw_features *f, uint64_t first, uint64_t last);
/** pdw_features_add - add feature @bit in bit order, taking over @data (freed
 * even on failure); pdw_features_add_string - a perf_header_string feature */
int pdw_features_add(struct pdw_features *f, int bit, unsigned char *data, size_t len);
int pdw_features_add_string(struct pdw_features *f, int bit, const char *s);
/** pdw_features_replace - feature @bit's payload becomes @data (taken
 * over; the old one freed), or it is added; 0 or TB_ERR_NOMEM */
int pdw_features_replace(struct pdw_features *f, int bit, unsigned char *data, size_t len);
/** pdw_features_remove - drop feature @bit (perf record -B drops BUILD_ID) */
void pdw_features_remove(struct pdw_features *f, int bit);
/** pdw_sys_features - the machine features (pd_wsys.c) whose bits lie in
 * [@bit_lo, @bit_hi], from /proc and /sys; 0 or TB_ERR_NOMEM */
int pdw_sys_features(struct pdw_features *f, int bit_lo, int bit_hi);

#endif
