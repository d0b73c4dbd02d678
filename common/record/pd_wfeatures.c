/* pd_wfeatures.c - the feature payloads of a recording, encoded as perf 6.1
 * encodes them (perf-data-format.md section 5.1). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_format.h"
#include "record/pd_wfeatures.h"

int pdw_features_add(struct pdw_features *f, int bit, unsigned char *data, size_t len)
{
	if (!data)
		return TB_ERR_NOMEM;
	size_t at = f->nr;

	if (f->nr == PDW_MAX_FEATURES) {
		free(data);
		return TB_ERR_NOMEM;
	}
	/* in bit order, where the writer wants them */
	while (at > 0 && f->f[at - 1].bit > bit)
		at--;
	memmove(&f->f[at + 1], &f->f[at], (f->nr - at) * sizeof(f->f[0]));
	memmove(&f->owned[at + 1], &f->owned[at], (f->nr - at) * sizeof(f->owned[0]));
	f->owned[at] = data;
	f->f[at].bit = bit;
	f->f[at].data = data;
	f->f[at].len = len;
	f->nr++;
	return 0;
}

int pdw_features_add_string(struct pdw_features *f, int bit, const char *s)
{
	unsigned char *b = malloc(pd_header_string_size(s));

	return b ? pdw_features_add(f, bit, b, pd_header_string(b, s)) : TB_ERR_NOMEM;
}

void pdw_features_sample_time(struct pdw_features *f, uint64_t first, uint64_t last)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->f[i].bit == PD_FEAT_SAMPLE_TIME) {
			memcpy(f->owned[i], &first, 8);
			memcpy(f->owned[i] + 8, &last, 8);
		}
}

int pdw_features_replace(struct pdw_features *f, int bit, unsigned char *data, size_t len)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->f[i].bit == bit) {
			free(f->owned[i]);
			f->owned[i] = data;
			f->f[i].data = data;
			f->f[i].len = len;
			return 0;
		}
	return pdw_features_add(f, bit, data, len);
}

void pdw_features_remove(struct pdw_features *f, int bit)
{
	for (size_t i = 0; i < f->nr; i++)
		if (f->f[i].bit == bit) {
			free(f->owned[i]);
			memmove(&f->f[i], &f->f[i + 1], (f->nr - i - 1) * sizeof(f->f[0]));
			memmove(&f->owned[i], &f->owned[i + 1], (f->nr - i - 1) * sizeof(f->owned[0]));
			f->nr--;
			return;
		}
}

void pdw_features_free(struct pdw_features *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->owned[i]);
	memset(f, 0, sizeof(*f));
}
