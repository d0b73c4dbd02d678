/* tracing_data.h - the HEADER_TRACING_DATA payload: parsed into libtraceevent. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TRACING_DATA_H
#define TRACING_DATA_H

#include <stddef.h>
#include <stdint.h>
#include "util/tb_err.h"

struct tep_handle;

/* A format that libtraceevent took with a complaint (it still prints raw). */
struct td_warning {
	char system[64];
	char name[64];
	int tep_errno;      /* enum tep_errno */
};

struct td_result {
	struct tep_handle *tep;   /* owned by the caller: tep_free() */
	char version[16];
	int file_bigendian;
	int long_size;
	uint32_t page_size;
	unsigned nr_ftrace, nr_systems, nr_events;
	size_t parsed_size;       /* bytes the payload used */
	struct td_warning *warnings;  /* malloc'd, nr_warnings entries */
	unsigned nr_warnings;
	int *cut_ids;             /* malloc'd: events whose fields stop at a */
	unsigned nr_cut_ids;      /* field line libtraceevent could not read */
};

/**
 * td_parse - parse a tracing data payload
 * @buf, @size: the payload bytes (size is the bound: nothing past it is read)
 * @base: the payload's offset in its file, for error messages
 * @res: result; on success res->tep holds every event format
 * Returns 0 or a TB_ERR_* code with @err naming the offset and the problem.
 */
int td_parse(const unsigned char *buf, size_t size, uint64_t base,
	     struct td_result *res, struct tb_err *err);

/**
 * td_fields_cut - whether libtraceevent stopped at a field line of an event
 * @res: a result td_parse filled
 * @id: the event's tracepoint id
 * Such an event has only the fields before that line (perf 6.1 crashes on
 * its samples); one whose print fmt alone failed has them all. Returns 1
 * or 0.
 */
int td_fields_cut(const struct td_result *res, int id);

/**
 * td_result_free - release what td_parse left in a result
 * @res: a result td_parse filled (or failed on: it frees its own then)
 *
 * Frees the libtraceevent handle, the warnings and the ids and clears the pointers,
 * so a second call does nothing. Returns nothing; cannot fail.
 */
void td_result_free(struct td_result *res);

#endif
