/* pd_nocomp.c - the writer half of pd_compressed.h for builds without zstd
 * (make tiny): pd_comp_init refuses, so trace-record -z says one line. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "perfdata/pd_compressed.h"

int pd_comp_init(struct pd_comp *c, int level, struct tb_err *err)
{
	memset(c, 0, sizeof(*c));
	c->level = level;
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
			  "-z: this build has no zstd (the tiny recorder): record without -z, "
			  "or with the full tracebox");
}

void pd_comp_free(struct pd_comp *c)
{
	memset(c, 0, sizeof(*c));
}

int pd_comp_records(struct pd_comp *c, const void *src, size_t n, struct bytebuf *out,
		    struct tb_err *err)
{
	(void)c, (void)src, (void)n, (void)out;
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "no zstd in this build");
}

void pd_comp_feature(unsigned char out[PD_COMP_FEATURE_SIZE], const struct pd_comp *c,
		     uint32_t mmap_len)
{
	(void)c, (void)mmap_len;
	memset(out, 0, PD_COMP_FEATURE_SIZE);
}
