/* record_callgraph.h - trace-record's --call-graph and --user-regs, as perf record 6.1 reads them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef RECORD_CALLGRAPH_H
#define RECORD_CALLGRAPH_H

#include <stddef.h>
#include <stdint.h>

struct rec_callgraph {
	int callchain;          /* a stack per sample: fp or dwarf */
	int dwarf;              /* dwarf: user registers and a stack dump, for the reader to unwind */
	uint64_t stack_size;    /* dwarf: the dump's bytes (8192; rounded up to 8) */
	uint64_t regs_user;     /* perf's user register mask (dwarf: every register) */
};

/**
 * rec_callgraph_parse - -g (@g), --call-graph @mode ("fp", "dwarf",
 * "dwarf,SIZE"; NULL: not given) and --user-regs @regs (perf's register
 * names, any case, comma-separated; NULL: not given) into @out.
 * 0; -2 with perf's words in @why (its callchain errors), -1 with ours.
 */
int rec_callgraph_parse(int g, const char *mode, const char *regs, struct rec_callgraph *out,
			char *why, size_t why_size);

#endif
