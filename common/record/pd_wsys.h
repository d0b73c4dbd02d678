/* pd_wsys.h - the machine's features from /proc and /sys (pd_wsys.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_WSYS_H
#define PD_WSYS_H

#include "record/pd_wfeatures.h"

/** pdw_sys_features - the machine features (pd_wsys.c) whose bits lie in
 * [@bit_lo, @bit_hi], from /proc and /sys; 0 or TB_ERR_NOMEM */
int pdw_sys_features(struct pdw_features *f, int bit_lo, int bit_hi);

#endif
