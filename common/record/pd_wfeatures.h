/* pd_wfeatures.h - build the feature payloads trace-record writes. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_WFEATURES_H
#define PD_WFEATURES_H

#include "record/pd_writer.h"

#define PDW_MAX_FEATURES 32

struct pdw_features {
	struct pd_wfeature f[PDW_MAX_FEATURES];   /* sorted by bit */
	size_t nr;
	unsigned char *owned[PDW_MAX_FEATURES];   /* buffers to free */
};

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
#endif
