/* report_resolve.h - an address's symbol and DSO for the printed lines. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_RESOLVE_H
#define REPORT_RESOLVE_H

#include <stdint.h>
#include "report/report_state.h"

/** rp_resolve - the symbol and DSO of @addr in @pid's maps (@cpumode's) */
void rp_resolve(struct report_print *p, int32_t pid, uint16_t cpumode, uint64_t addr,
		struct rp_loc *l);
/** rp_resolve_full - rp_resolve, and the machine's whole answer in @sl;
 * 1 when the machine answered (@sl set), 0 without symbols */
struct sym_loc;
int rp_resolve_full(struct report_print *p, int32_t pid, uint16_t cpumode, uint64_t addr,
		    struct rp_loc *l, struct sym_loc *sl);
/** rp_loaded - whether perf would have loaded @dso's symbols by now */
int rp_loaded(const struct report_print *p, const char *dso);

#endif
