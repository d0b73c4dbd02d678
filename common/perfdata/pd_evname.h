/* pd_evname.h - the name perf 6.1 gives an attr without an EVENT_DESC name. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_EVNAME_H
#define PD_EVNAME_H

#include <stddef.h>

/**
 * pd_evname - perf's evsel__name for a perf_event_attr (128 bytes,
 * zero-extended): "cycles", "cpu-clock:u", "raw 0x1cd:ppp", "mem:0x10:rw",
 * "L1-dcache-load-misses", ... with perf's modifier suffix
 * @buf, @cap: where the NUL-terminated name goes (truncated to fit)
 * Tracepoints get "unknown tracepoint" (their name comes from the format).
 */
void pd_evname(const unsigned char *attr, char *buf, size_t cap);

#endif
