/* report_callchain.h - a sample's callchain and ip as perf script 6.1 prints them, with symbols. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_CALLCHAIN_H
#define REPORT_CALLCHAIN_H

#include <stdint.h>
#include <stdio.h>

struct sym_machine;
struct pd_sample;

/* what to print of each frame: perf's EVSEL__PRINT_* options */
enum {
	CC_IP          = 1 << 0,   /* the address (user frames: the dso offset, as perf) */
	CC_SYM         = 1 << 1,   /* the symbol, or [unknown] */
	CC_DSO         = 1 << 2,   /* " (dso)" */
	CC_SYMOFF      = 1 << 3,   /* "+0x<off>" after the symbol */
	CC_ONELINE     = 1 << 4,   /* frames separated by ' ', no newline (perf's oneline) */
	CC_UNKNOWN_AS_ADDR = 1 << 5, /* an unknown symbol as "[0x<addr>]" */
	CC_ARROW       = 1 << 6,   /* " <-" before every frame but the first (callindent) */
};

#define CC_DEFAULT_MAX_STACK 127   /* perf's PERF_MAX_STACK_DEPTH, perf script's default */

struct cc_opts {
	unsigned print;            /* CC_* bits; perf script's default: IP|SYM|SYMOFF|DSO */
	unsigned max_stack;        /* frames at most (markers do not count); --max-stack */
	int left_align;            /* spaces before each frame (perf's left_alignment) */
};

/** cc_opts_default - perf script's defaults for a -g recording */
void cc_opts_default(struct cc_opts *o);

/**
 * cc_print_callchain - print @smp's callchain, one "\t<ip> <sym>+<off> (<dso>)\n"
 * per frame with the defaults, walking it as perf's thread__resolve_callchain
 * does: entries start in user mode, PERF_CONTEXT_KERNEL/USER/HV switch the
 * mode of the entries after them, any other context marker discards the
 * whole chain. @pid is the sample's pid; @m may be NULL (all unknown).
 * Prints nothing for a sample without a callchain. The caller prints the
 * newline before and the blank line after, as perf's process_event does.
 * Returns the frames printed.
 */
unsigned cc_print_callchain(FILE *fp, struct sym_machine *m, const struct pd_sample *smp,
			    const struct cc_opts *o);

/**
 * cc_print_ip - "<ip> <sym>+<off> (<dso>)" for a sample's own ip, as perf's
 * sample__fprintf_sym without a callchain: "%16lx" of the address itself.
 * @cpumode: the record's header.misc & 7.
 */
void cc_print_ip(FILE *fp, struct sym_machine *m, int32_t pid, uint16_t cpumode, uint64_t ip,
		 const struct cc_opts *o);

#endif
