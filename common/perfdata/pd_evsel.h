/* pd_evsel.h - one attr of a recording as the reader keeps it (perf's evsel). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_EVSEL_H
#define PD_EVSEL_H

#include <stddef.h>
#include <stdint.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_sample.h"

struct tep_event;
struct tp_decoder;

/* One attr of the recording (perf calls it an evsel). */
struct pd_evsel {
	unsigned char raw[PD_ATTR_SIZE_MAX];  /* the attr as stored, zero-extended */
	uint32_t raw_size;
	uint32_t type;
	uint64_t config, sample_type, flags;
	struct pd_sample_attr sattr;   /* the attr's sample layout, for every sample */
	uint64_t *ids;
	size_t nr_ids;
	char *name;                /* EVENT_DESC name, else "sys:event", else "unknown" */
	struct tep_event *tp;      /* tracepoint format, or NULL */
	uint64_t offset;           /* where the attr is in the input */
	struct tp_decoder *dec;    /* its format's decoder (shared by attrs of one format) */
	int bad_format;            /* libtraceevent failed on tp's fields, not only its
				    * print fmt: its samples are refused */
	int unwanted;              /* the consumer wants none of its samples (pd_consumer) */
};

#endif
