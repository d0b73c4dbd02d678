/* test_time.c - trace-report --time (applets/report/report_time.c) against
 * perf 6.1's util/time-utils.c: the START,STOP lists, the percent forms and
 * where each range ends. perf's rule for A%-B% and P%/N (set_percent_time):
 * start = first + round(A * total), end = first + round(B * total) - 1
 * unless that end is the last sample's time, so that two ranges that meet
 * ("0%-50%,50%-100%") never hold the same sample twice. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "unit.h"
#include "report/report_time.h"

#define FIRST 1000000000ULL    /* the recording's first and last sample, in ns */
#define LAST  1000001000ULL    /* 1000 ns later: 1% is 10 ns */

static int pct(const char *s, struct report_range *v, int size)
{
	memset(v, 0xa5, sizeof(*v) * (size_t)size);
	return report_time_percent(s, v, size, FIRST, LAST);
}

static void test_percent(void)
{
	struct report_range v[4];

	T_EQ(pct("0%-50%", v, 4), 1, "A%%-B%%: one range");
	T_EQ(v[0].start, FIRST, "0%%: the first sample's time");
	T_EQ(v[0].end, FIRST + 499, "50%%: the end is exclusive (first + 500 - 1)");
	T_EQ(pct("50%-100%", v, 4), 1, "50%%-100%%");
	T_EQ(v[0].start, FIRST + 500, "50%%: the start is inclusive");
	T_EQ(v[0].end, LAST, "100%%: the end is the last sample's time, not one before");

	T_EQ(pct("0%-50%,50%-100%", v, 4), 2, "two ranges that meet");
	T(v[0].end < v[1].start, "they do not overlap: %" PRIu64 " < %" PRIu64, v[0].end, v[1].start);
	T_EQ(v[1].start - v[0].end, 1, "and leave no gap");

	T_EQ(pct("10%-10%", v, 4), 1, "an empty range");
	T_EQ(v[0].end, v[0].start, "A == B: the end stays at the start (no end before it)");

	T_EQ(pct("25%/2", v, 4), 1, "P%%/N");
	T_EQ(v[0].start, FIRST + 250, "25%%/2 starts at 25%%");
	T_EQ(v[0].end, FIRST + 499, "25%%/2 ends before 50%%");
	T_EQ(pct("25%", v, 4), 1, "P%%: the first slice");
	T_EQ(v[0].start, FIRST, "25%% starts at the first sample");
	T_EQ(v[0].end, FIRST + 249, "25%% ends before 25%%");
	T_EQ(pct("50%/2", v, 4), 1, "the last slice");
	T_EQ(v[0].end, LAST, "the last slice ends at the last sample");

	T_EQ(pct("12.5%-37.5%", v, 4), 1, "fractions of a percent");
	T_EQ(v[0].start, FIRST + 125, "12.5%% (rounded as perf rounds)");
	T_EQ(v[0].end, FIRST + 374, "37.5%% - 1");

	T_EQ(pct("0%-150%", v, 4), -1, "above 100%%: invalid");
	T_EQ(pct("50%", v, 4) == 1 && pct("50", v, 4) == -1, 1, "P without %% is invalid");
	T_EQ(pct("10%-", v, 4), -1, "a dash without an end is invalid (perf: NULL)");
	T_EQ(pct("10%-20%,30%-40%,50%-60%", v, 2), -1, "more ranges than room");
	T_EQ(pct("x%-20%", v, 4), -1, "not a number");
}

static void test_ranges(void)
{
	struct report_range v[4];

	T_EQ(report_time_ranges("1.5,2.000000001", v, 4), 1, "START,STOP");
	T_EQ(v[0].start, 1500000000ULL, "1.5 s");
	T_EQ(v[0].end, 2000000001ULL, "2.000000001 s: the end as given (inclusive)");
	T_EQ(report_time_ranges(",3", v, 4), 1, ",STOP");
	T_EQ(v[0].start, 0, "an open start");
	T_EQ(report_time_ranges("3,", v, 4), 1, "START,");
	T_EQ(v[0].end, 0, "an open end");
	T_EQ(report_time_ranges("1,2 3,4", v, 4), 2, "two ranges, space-separated");
	T_EQ(v[1].start, 3000000000ULL, "the second's start");
	T_EQ(report_time_ranges("3,4 1,2", v, 4), -1, "ranges out of order are invalid");
	T_EQ(report_time_ranges("2,1", v, 4), -1, "STOP before START is invalid");
	T_EQ(report_time_ranges("1.0123456789,2", v, 4), -1, "ten decimals are invalid");
	T_EQ(report_time_ranges("5", v, 4), -1, "no comma is invalid");
}

static void test_skipped(void)
{
	struct report_range one = { FIRST, FIRST + 499 };
	struct report_range two[2] = { { FIRST, FIRST + 99 }, { FIRST + 200, 0 } };

	T(!report_time_skipped(&one, 0, FIRST - 1), "no ranges: nothing skipped");
	T(!report_time_skipped(&one, 1, 0), "a sample without a time is never skipped");
	T(report_time_skipped(&one, 1, FIRST - 1), "before the start: skipped");
	T(!report_time_skipped(&one, 1, FIRST), "at the start: kept");
	T(!report_time_skipped(&one, 1, FIRST + 499), "at the end: kept");
	T(report_time_skipped(&one, 1, FIRST + 500), "one ns past the end: skipped");
	T(!report_time_skipped(two, 2, FIRST + 99), "several ranges: the first's end kept");
	T(report_time_skipped(two, 2, FIRST + 100), "between them: skipped");
	T(!report_time_skipped(two, 2, UINT64_MAX), "an open end keeps everything after");
}

int main(void)
{
	test_percent();
	test_ranges();
	test_skipped();
	return done();
}
