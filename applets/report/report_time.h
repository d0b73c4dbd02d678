/* report_time.h - trace-report --time's ranges, parsed and tested as perf
 * script 6.1 does (util/time-utils.c); used by report_filter.c. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_TIME_H
#define REPORT_TIME_H

#include <stddef.h>
#include <stdint.h>

struct pd_header_info;

struct report_range {
	uint64_t start, end;      /* ns; 0: open */
};

/**
 * report_time_ranges - perf_time__parse_strs: @str is "START,STOP" (seconds
 * with up to 9 decimals, either side may be empty), or several such ranges
 * separated by spaces, in increasing order, without overlap
 * @v: room for @size ranges (the number of commas in @str is enough)
 * Returns the number of ranges, or -1 when @str is not valid.
 */
int report_time_ranges(const char *str, struct report_range *v, int size);
/**
 * report_time_percent - perf_time__percent_parse_str: "P%" (the first slice
 * of P%), "P%/N" (the Nth slice) or "A%-B%", the last two in comma lists,
 * against the recording's sample times @first and @last. A range's end is
 * exclusive (one ns before the next range's start) except at @last.
 * Returns the number of ranges, or -1 when @str is not valid.
 */
int report_time_percent(const char *str, struct report_range *v, int size, uint64_t first,
			uint64_t last);
/**
 * report_time_skipped - perf_time__ranges_skip_sample: whether a sample at
 * @t falls outside the @n ranges @v (never when @n is 0 or @t is 0)
 */
int report_time_skipped(const struct report_range *v, int n, uint64_t t);

/**
 * report_tod - perf's tod_scnprintf: the sample time @t on the time of day,
 * by the recording's CLOCK_DATA, "YYYY-MM-DD HH:MM:SS.uuuuuu" (nanoseconds
 * with @nsecs) in the local zone; "disabled" without clock data
 */
void report_tod(char *buf, size_t n, const struct pd_header_info *h, uint64_t t, int nsecs);

#endif
