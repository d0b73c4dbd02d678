/* td_write.h - build a HEADER_TRACING_DATA payload from tracefs, as perf record does. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TD_WRITE_H
#define TD_WRITE_H

#include <stddef.h>
#include "util/tb_err.h"

struct td_event_name {
	const char *system;
	const char *name;
};

/**
 * td_build - the tracing data for the recorded events, byte for byte what
 * perf 6.1's tracing_data_get() writes: "0.6", native endian and long
 * size, header_page, header_event, the ftrace formats whose name matches a
 * recorded event name, every recorded system (readdir order) with its
 * recorded events (readdir order, matched by name as perf matches them),
 * an empty kallsyms, printk_formats and saved_cmdlines.
 * @out: malloc'd payload; @len its size. Returns 0 or TB_ERR_*.
 */
int td_build(const char *tracefs, const struct td_event_name *evs, size_t nr,
	     unsigned char **out, size_t *len, struct tb_err *err);

#endif
