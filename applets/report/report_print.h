/* report_print.h - trace-report's default output: one perf-script line per event. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_PRINT_H
#define REPORT_PRINT_H

#include <stdint.h>
#include <stdio.h>
#include "report/report_fields.h"

struct pd_session;
struct pd_event;

struct report_print {
	FILE *out;
	struct pd_session *session;
	int nsecs;             /* --ns: nanosecond timestamps */
	int name_width;        /* 0 until the first sample */
	struct rf_config rf;   /* the fields per event kind (report_fields.h) */
	int reltime, deltatime;
	unsigned long max_stack;
	uint64_t initial_time, previous_time;
	int told_dwarf;        /* said once that DWARF stacks are not unwound */
	char *buf, *pos, *end; /* the output buffer */
	/* DSOs perf would have loaded by now (it looked a symbol up in them):
	 * its brstackoff prints their addresses unadjusted (adjust_symbols) */
	const char *loaded[64];
	unsigned nr_loaded;
	int map_only;          /* the lookups now are perf's map-only ones */
	int track_loaded;      /* brstackoff is printed: keep loaded[] */
	unsigned long flushes; /* ro_flush calls: a line written whole has none */
	struct rp_frame *frames;   /* stack lines already printed (report_print.c) */
};

/* an address's symbol and DSO (symbols.h when built with it) */
struct rp_loc {
	const char *sym;        /* NULL: perf's [unknown] */
	uint64_t symoff;
	const char *dso;        /* never NULL */
	uint64_t map_ip;        /* the address as an offset in its DSO */
	int have_map;
};
void rp_resolve(struct report_print *p, int32_t pid, uint16_t cpumode, uint64_t addr,
		struct rp_loc *l);
/** rp_loaded - whether perf would have loaded @dso's symbols by now */
int rp_loaded(const struct report_print *p, const char *dso);

/** report_print_init - perf's default fields for @s (no -F) */
int report_print_init(struct report_print *p, struct pd_session *s, FILE *out, int nsecs);
/**
 * report_print_setup - the options that shape the lines, before the first sample
 * @fields: the -F arguments, in order (may be 0 of them)
 * @no_callchain: -G; @max_stack: --max-stack (127 by default)
 * Returns 0, or -1 after printing perf's message for a bad combination.
 */
int report_print_setup(struct report_print *p, const char **fields, int nr_fields,
		       int reltime, int deltatime, int no_callchain, unsigned long max_stack);
/** report_print_sample - pd_consumer callback: print one event */
int report_print_sample(void *ctx, const struct pd_event *ev);
/** report_print_flush - write out what is buffered: another printer (the
 * --show-*-events records, -D) is about to write to the same FILE */
void report_print_flush(void *p);
/** report_print_finish - write out what is buffered; frees the buffer. 0 or -1 */
int report_print_finish(struct report_print *p);

#endif
