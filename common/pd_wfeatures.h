/* pd_wfeatures.h - build the feature payloads trace-record writes. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_WFEATURES_H
#define PD_WFEATURES_H

#include "pd_writer.h"
#include "syscall_map.h"

#define PDW_MAX_FEATURES 12

struct pdw_features {
	struct pd_wfeature f[PDW_MAX_FEATURES];   /* sorted by bit */
	size_t nr;
	unsigned char *owned[PDW_MAX_FEATURES];   /* buffers to free */
};

/**
 * pdw_features_build - TRACING_DATA (@td, taken over), HOSTNAME, OSRELEASE,
 * VERSION (@version), ARCH, NRCPUS, CMDLINE (@argv), EVENT_DESC (@attrs)
 * and, when @scmap is not NULL, the private SYSCALL_MAP.
 * Returns 0 or TB_ERR_NOMEM.
 */
int pdw_features_build(struct pdw_features *f, unsigned char *td, size_t td_len,
		       const char *version, int argc, char **argv,
		       const struct pd_wattr *attrs, size_t nr_attrs,
		       const struct syscall_map *scmap);
void pdw_features_free(struct pdw_features *f);

#endif
