/* event_names.h - perf's names of the hardware and software events (cpu-clock, page-faults, cycles...). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EVENT_NAMES_H
#define EVENT_NAMES_H

#include <stdint.h>

struct evname {
	uint32_t type;          /* PERF_TYPE_HARDWARE or PERF_TYPE_SOFTWARE */
	uint64_t config;        /* PERF_COUNT_HW_* / PERF_COUNT_SW_* */
	const char *name;       /* perf's canonical name ("page-faults" for "faults") */
};

/**
 * evname_lookup - the event perf 6.1 calls @name (its aliases too: "faults",
 * "cs", "migrations", "cpu-cycles", "branches", "idle-cycles-frontend"...)
 * @name: the name, without modifiers
 * @out: filled when found
 * Returns 0, or -1 when @name is no hardware or software event perf knows.
 */
int evname_lookup(const char *name, struct evname *out);

#endif
