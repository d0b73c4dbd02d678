/* record_profile.h - trace-record's profiling options (-F, -c) and its build-id pass, as perf record's. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RECORD_PROFILE_H
#define RECORD_PROFILE_H

#include "record/dso_hits.h"
#include "record/pd_wfeatures.h"
#include "record/recorder.h"

/**
 * record_sampling - -F FREQ (a number or "max") and -c PERIOD into @ro, with
 * perf's checks against /proc/sys/kernel/perf_event_max_sample_rate and
 * perf's messages. Returns 0, or -1 after a message.
 */
int record_sampling(struct rec_opts *ro, const char *freq, unsigned long period);
/**
 * record_buildids - at the end of a recording: the build ids of the files
 * @hits saw sampled into the BUILD_ID feature of @feats, and, unless
 * @no_cache, into perf's build-id cache ($PERF_BUILDID_DIR, else
 * $HOME/.debug). Returns 0, or -1 when out of memory.
 */
int record_buildids(const struct dso_hits *hits, struct pdw_features *feats, int no_cache);

#endif
