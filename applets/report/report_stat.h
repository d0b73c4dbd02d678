/* report_stat.h - trace-report's counter table for `perf stat record` data. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_STAT_H
#define REPORT_STAT_H

#include "perfdata/pd_stat.h"

/**
 * report_stat_table - perf script's table for one attr of a STAT_ROUND
 * (the column header before the first): CPU, THREAD, VAL, ENA, RUN, TIME,
 * EVENT per CPU and thread; nothing for the round's end. A pd_consumer
 * stat_round callback (@ctx unused).
 */
int report_stat_table(void *ctx, const struct pd_stat_round *r);

#endif
