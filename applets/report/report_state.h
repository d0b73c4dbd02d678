/* report_state.h - the printer's state and an address's resolution, shared by
 * the line printer (report_print.c) and its output buffer (report_out.h). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_STATE_H
#define REPORT_STATE_H

#include <stdint.h>
#include <stdio.h>
#include "report/report_fields.h"

struct pd_session;
struct rp_frame;
struct rp_hold;

struct rp_srcstate;
struct rp_who;
struct rp_name;

struct report_print {
	FILE *out;
	struct pd_session *session;
	int nsecs;             /* --ns: nanosecond timestamps */
	int latency;           /* -L: perf's latency_format columns */
	int name_width;        /* 0 until the first sample */
	struct rf_config rf;   /* the fields per event kind (report_fields.h) */
	int reltime, deltatime;
	unsigned long max_stack;
	uint64_t initial_time, previous_time;
	int told_dwarf;        /* said once that DWARF stacks are not unwound */
	char *buf, *pos, *end; /* the output buffer */
	/* while the kernel's symbols are read: what the buffer lets go, and
	 * the kernel frames to print among it (report_print.c) */
	struct rp_hold *hold;
	int hold_lost;         /* a hold ran out of memory: the output is short */
	/* DSOs perf would have loaded by now (it looked a symbol up in them):
	 * its brstackoff prints their addresses unadjusted (adjust_symbols) */
	const char *loaded[64];
	unsigned nr_loaded;
	int map_only;          /* the lookups now are perf's map-only ones */
	int track_loaded;      /* brstackoff is printed: keep loaded[] */
	unsigned long flushes; /* ro_flush calls: a line written whole has none */
	struct rp_frame *frames;   /* stack lines already printed (report_print.c) */
	size_t frames_heap;        /* bytes of its copies of longer lines */
	/* an unmapped user frame's line after its address, for unmapped_f's
	 * fields (report_print.c); unmapped_len 0: none kept */
	uint64_t unmapped_f;
	unsigned unmapped_len;
	char unmapped_text[48];
	struct rp_srcstate *src;   /* -F srccode: per thread (report_srccode.c) */
	size_t src_cap, nr_src;
	/* pieces of the line's start kept (report_head.c): per thread, per
	 * event, and the time's seconds as last printed */
	struct rp_who *who;
	struct rp_name *names;
	uint64_t time_secs;
	unsigned time_len;         /* 0: none kept */
	char time_text[32];
};

/* an address's symbol and DSO (symbols.h when built with it) */
struct rp_loc {
	const char *sym;        /* NULL: perf's [unknown] */
	uint64_t symoff;
	const char *dso;        /* never NULL */
	uint64_t map_ip;        /* the address as an offset in its DSO */
	int have_map;
	int is_kernel;          /* the kernel, a module, JIT code: printed as the address */
};

#endif
