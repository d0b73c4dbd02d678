/* report_head.h - the start of a sample's line (comm, pid, cpu, time) and its event name column. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_HEAD_H
#define REPORT_HEAD_H

#include <stdint.h>
#include "report/report_state.h"

struct pd_event;

/** rp_head - perf_sample__fprintf_start: comm, pid/tid, cpu, misc, time
 * of the fields @f asked for */
void rp_head(struct report_print *p, const struct pd_event *ev, uint64_t f);
/** rp_name - the event's name right-aligned in p->name_width, then ": " */
void rp_name(struct report_print *p, const struct pd_event *ev);
/** rp_head_free - what rp_head and rp_name keep */
void rp_head_free(struct report_print *p);

#endif
