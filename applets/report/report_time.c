/* report_time.c - trace-report --time: perf script 6.1's time ranges
 * (util/time-utils.c): "START,STOP" lists in seconds, the percent forms P%,
 * P%/N and A%-B% against the recording's first and last sample times, and
 * the test of one sample's time against them. Pure: no session, no output. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <time.h>
#include "perfdata/pd_features.h"
#include "report/report_time.h"

/* parse_nsec_time: SEC[.FRACTION], at most 9 fraction digits. */
static int parse_nsec(const char *str, uint64_t *t)
{
	char *end;
	uint64_t sec, ns = 0;

	errno = 0;
	sec = strtoull(str, &end, 10);
	if ((*end != '.' && *end) || errno)
		return -1;
	if (*end == '.') {
		const char *f = end + 1;
		size_t len = strlen(f);

		if (len > 9)
			return -1;
		for (size_t i = 0; i < 9; i++) {
			if (i < len && !isdigit((unsigned char)f[i]))
				return -1;
			ns = ns * 10 + (i < len ? (uint64_t)(f[i] - '0') : 0);
		}
	}
	*t = sec * 1000000000ULL + ns;
	return 0;
}

/* "START,STOP" (either may be empty). */
static int parse_range(char *str, struct report_range *r)
{
	char *comma = strchr(str, ',');

	r->start = r->end = 0;
	if (comma)
		*comma++ = 0;
	if (*str && parse_nsec(str, &r->start))
		return -1;
	if (comma && *comma && parse_nsec(comma, &r->end))
		return -1;
	return r->end && r->end < r->start ? -1 : 0;
}

/* perf_time__parse_strs: ranges separated by spaces, each with its comma. */
int report_time_ranges(const char *ostr, struct report_range *v, int size)
{
	char *str = strdup(ostr), *p, *arg;
	int num = 0, i, rc = -1;

	if (!str)
		return -1;
	for (const char *c = ostr; *c; c++)
		num += *c == ',';
	if (!num || num > size)
		goto out;
	for (i = 0, p = str; i < num - 1; i++) {
		arg = p;
		p = strchr(p, ',') + 1;
		while (isspace((unsigned char)*p))
			p++;
		while (*p && !isspace((unsigned char)*p))
			if (*p++ == ',')
				goto out;
		if (*p)
			*p++ = 0;
		if (parse_range(arg, &v[i]))
			goto out;
	}
	if (parse_range(p, &v[i]))
		goto out;
	for (i = 0; i < num - 1; i++)
		if (v[i].end >= v[i + 1].start)
			goto out;
	rc = num;
out:
	free(str);
	return rc;
}

static int parse_pct(char *str, double *pct)
{
	char *c = strchr(str, '%'), *end;

	if (!c)
		return -1;
	*c = 0;
	*pct = strtod(str, &end);
	if (end != str + strlen(str))
		return -1;
	*pct /= 100.0;
	return 0;
}

/* set_percent_time */
static int pct_range(struct report_range *r, double a, double b, uint64_t first, uint64_t last)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -1;
	r->start = first + (uint64_t)round(a * (double)total);
	r->end = first + (uint64_t)round(b * (double)total);
	if (r->end > r->start && r->end != last)
		r->end -= 1;
	return 0;
}

/* "P%/N": the Nth slice of P% */
static int pct_slash(char *str, struct report_range *r, uint64_t first, uint64_t last)
{
	char *slash = strchr(str, '/'), *end;
	double pct;
	long n;

	if (!slash)
		return -1;
	*slash = 0;
	if (parse_pct(str, &pct))
		return -1;
	n = strtol(slash + 1, &end, 10);
	if (*end || pct <= 0.0)
		return -1;
	return pct_range(r, pct * (double)(n - 1), pct * (double)n, first, last);
}

/* "A%-B%" */
static int pct_dash(char *str, struct report_range *r, uint64_t first, uint64_t last)
{
	char *dash = strchr(str, '-');
	double a, b;

	if (!dash)
		return -1;    /* perf reads a missing end as NULL: an error too */
	*dash = 0;
	if (parse_pct(str, &a) || parse_pct(dash + 1, &b))
		return -1;
	return pct_range(r, a, b, first, last);
}

/* perf_time__percent_parse_str */
int report_time_percent(const char *ostr, struct report_range *v, int size, uint64_t first,
			uint64_t last)
{
	int (*split)(char *, struct report_range *, uint64_t, uint64_t);
	char *str, *p, *comma;
	int n = 0;
	size_t len = strlen(ostr);

	memset(v, 0, sizeof(*v) * (size_t)size);
	if (strchr(ostr, '/'))
		split = pct_slash;
	else if (strchr(ostr, '-'))
		split = pct_dash;
	else {
		/* "P%": the first slice; the % must be last */
		if (!len || ostr[len - 1] != '%' || strchr(ostr, '%') != ostr + len - 1)
			return -1;
		str = malloc(len + 3);
		if (!str)
			return -1;
		memcpy(str, ostr, len);
		strcpy(str + len, "/1");
		n = pct_slash(str, &v[0], first, last) ? -1 : 1;
		free(str);
		return n;
	}
	str = strdup(ostr);
	if (!str)
		return -1;
	for (p = str; p < str + len; p = comma + 1) {
		if (n >= size) {
			n = -1;
			break;
		}
		comma = strchr(p, ',');
		if (comma)
			*comma = 0;
		if (split(p, &v[n], first, last)) {
			n = -1;
			break;
		}
		n++;
		if (!comma)
			break;
	}
	free(str);
	return n;
}

/* perf_time__ranges_skip_sample */
int report_time_skipped(const struct report_range *v, int n, uint64_t t)
{
	if (!n || t == 0)
		return 0;
	if (n == 1)
		return (v[0].start && t < v[0].start) ||
		       (v[0].end && t > v[0].end);
	for (int i = 0; i < n; i++)
		if (t >= v[i].start && (t <= v[i].end || !v[i].end))
			return 0;
	return 1;
}

void report_tod(char *buf, size_t n, const struct pd_header_info *h, uint64_t t, int nsecs)
{
	uint64_t tod = h->clock_tod_ns;
	char date[64];
	struct tm tm;
	time_t sec;

	if (!h->has_clock_data) {
		snprintf(buf, n, "disabled");
		return;
	}
	if (t > h->clock_ref_ns)
		tod += t - h->clock_ref_ns;
	else
		tod -= h->clock_ref_ns - t;
	sec = (time_t)(tod / 1000000000ULL);
	if (!localtime_r(&sec, &tm) || !strftime(date, sizeof(date), "%Y-%m-%d %H:%M:%S", &tm))
		snprintf(buf, n, "failed");
	else if (nsecs)
		snprintf(buf, n, "%s.%09lu", date, (unsigned long)(tod % 1000000000ULL));
	else
		snprintf(buf, n, "%s.%06lu", date, (unsigned long)(tod % 1000000000ULL / 1000));
}
