/* record_profile.c - what trace-record does for profiles as perf record
 * 6.1 does it: the sampling frequency or period (-F, -c, with perf's
 * checks and words), and the build ids of the files sampled (the
 * HEADER_BUILD_ID feature and perf's build-id cache). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "record/buildids.h"
#include "perfdata/pd_format.h"
#include "record/record_profile.h"
#include "tracepoint/tracefs.h"
#include "xfuncs.h"

#define DEFAULT_FREQ 4000          /* perf record's */

static unsigned long max_sample_rate(void)
{
	char line[64];

	if (file_first_line("/proc/sys/kernel/perf_event_max_sample_rate", line, sizeof(line)))
		return 0;
	return strtoul(line, NULL, 10);
}

int record_sampling(struct rec_opts *ro, const char *freq, unsigned long period)
{
	unsigned long max = max_sample_rate(), f = DEFAULT_FREQ;
	char *end;

	if (freq && period) {
		error_msg("cannot set frequency and period at the same time");
		return -1;
	}
	ro->period = period;
	ro->user_freq = freq != NULL;
	if (freq && !strcmp(freq, "max")) {
		f = max;     /* perf 6.1: util/record.c record_opts__config_freq */
		perf_msg("info: Using a maximum frequency rate of %lu Hz\n", f);
	} else if (freq) {
		f = strtoul(freq, &end, 10);
		if (!*freq || *end || !f) {
			error_msg("-F %s: not a frequency (a number of Hz, or max)", freq);
			return -1;
		}
	}
	if (max && f > max) {     /* perf 6.1: util/record.c record_opts__config_freq */
		if (freq)
			perf_msg("warning: Maximum frequency rate (%lu Hz) exceeded, throttling "
				"from %lu Hz to %lu Hz.\n"
				"         The limit can be raised via "
				"/proc/sys/kernel/perf_event_max_sample_rate.\n"
				"         The kernel will lower it when perf's interrupts take too long.\n"
				"         Use --strict-freq to disable this throttling, refusing to "
				"record.\n", max, f, max);
		else     /* perf 6.1: util/record.c record_opts__config_freq */
			perf_msg("Lowering default frequency rate from %lu to %lu.\n"
				"Please consider tweaking /proc/sys/kernel/perf_event_max_sample_rate.\n",
				f, max);
		f = max;
	}
	ro->freq = f;
	return 0;
}

int record_buildids(const struct dso_hits *hits, struct pdw_features *feats, int no_cache)
{
	struct bid_list l;
	unsigned char *payload;
	size_t len;
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME");
	char *d = NULL;
	int failed;

	if (bid_collect(hits, &l) || bid_feature(&l, &payload, &len)) {
		bid_list_free(&l);
		return -1;
	}
	if (pdw_features_replace(feats, PD_FEAT_BUILD_ID, payload, len)) {
		bid_list_free(&l);
		return -1;
	}
	if (!no_cache && (dir || home)) {
		d = dir ? xasprintf("%s", dir) : xasprintf("%s/.debug", home);
		failed = bid_cache(&l, d);
		if (failed)
			warn_msg("warning: %d of the %zu files sampled could not be put in the "
				 "build-id cache %s", failed, l.nr, d);
		free(d);
	}
	bid_list_free(&l);
	return 0;
}
