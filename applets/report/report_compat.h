/* report_compat.h - perf script 6.1's options that tracebox takes for compatibility: what each does on the recordings this machine makes. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_COMPAT_H
#define REPORT_COMPAT_H

#include "args.h"
#include "perfdata/pd_session.h"

struct perf_compat {
	/* accepted; they change nothing without the data they are about
	 * (guests, AUX traces, LBR, source lines, dlfilters) */
	int all_cpus, force, show_info, demangle, demangle_kernel, no_demangle_kernel;
	int full_source_path, guest_code, inline_, no_inline, show_kernel_path;
	int show_on_off, show_text_poke;
	unsigned long addr_range, max_blocks;
	struct opt_list dlargs;
	const char *dlfilter, *graph_function, *guestkallsyms, *guestmodules;
	const char *guestmount, *guestvmlinux, *stop_bt;
	/* with a behaviour of their own */
	int debug_mode, list, list_dlfilters, stitch_lbr, latency, show_round, dump_unsorted;
	int per_event_dump;
	const char *gen_lang, *itrace, *switch_on, *switch_off, *symbols, *dsos;
	const char *insn_trace, *call_trace, *call_ret_trace, *xed;
};

/* The table entries, spliced into trace-report's option table. */
#define REPORT_COMPAT_OPTS(pc) \
	{ 'a', "all-cpus", OPT_FLAG, &(pc).all_cpus, NULL, "perf's record option: accepted, no effect" }, \
	{ 'd', "debug-mode", OPT_FLAG, &(pc).debug_mode, NULL, \
	  "check the samples' time order instead of printing them ('Misordered timestamps: N')" }, \
	{ 'f', "force", OPT_FLAG, &(pc).force, NULL, "accepted (perf: do not check the file's owner)" }, \
	{ 'g', "gen-script", OPT_STR, &(pc).gen_lang, "LANG", \
	  "write perf-script.py or perf-script.pl, as trace-gen does" }, \
	{ 'I', "show-info", OPT_FLAG, &(pc).show_info, NULL, \
	  "with --header: the CPU, NUMA, cache and memory topology in full" }, \
	{ 'L', "Latency", OPT_FLAG, &(pc).latency, NULL, \
	  "perf's latency format: comm in 8 columns, the cpu as a bare number" }, \
	{ 'l', "list", OPT_FLAG, &(pc).list, NULL, "list the canned scripts, as perf script -l" }, \
	{ 'S', "symbols", OPT_STR, &(pc).symbols, "SYM[,SYM...]", \
	  "only samples whose symbol is one of these (or at one of these hex addresses)" }, \
	{ 0, "addr-range", OPT_UINT, &(pc).addr_range, "N", \
	  "with -S ADDR: samples in [ADDR, ADDR+N)" }, \
	{ 0, "demangle", OPT_FLAG, &(pc).demangle, NULL, "demangle C++ names (the default)" }, \
	{ 0, "demangle-kernel", OPT_FLAG, &(pc).demangle_kernel, NULL, "accepted" }, \
	{ 0, "no-demangle-kernel", OPT_FLAG, &(pc).no_demangle_kernel, NULL, "accepted" }, \
	{ 0, "dlarg", OPT_LIST, &(pc).dlargs, "ARG", "an argument for --dlfilter's object (repeat it)" }, \
	{ 0, "dlfilter", OPT_STR, &(pc).dlfilter, "FILE", \
	  "filter samples with perf's dlfilter API in FILE (the dynamic build)" }, \
	{ 0, "list-dlfilters", OPT_FLAG, &(pc).list_dlfilters, NULL, "list dlfilters (there are none)" }, \
	{ 0, "dsos", OPT_STR, &(pc).dsos, "DSO[,DSO...]", \
	  "only samples in these DSOs (short or full names)" }, \
	{ 0, "full-source-path", OPT_FLAG, &(pc).full_source_path, NULL, "accepted" }, \
	{ 0, "graph-function", OPT_STR, &(pc).graph_function, "SYM[,SYM...]", \
	  "only calls into and returns from these (instruction traces: none here, so no sample)" }, \
	{ 0, "guest-code", OPT_FLAG, &(pc).guest_code, NULL, "accepted" }, \
	{ 0, "guestkallsyms", OPT_STR, &(pc).guestkallsyms, "FILE", "accepted" }, \
	{ 0, "guestmodules", OPT_STR, &(pc).guestmodules, "FILE", "accepted" }, \
	{ 0, "guestmount", OPT_STR, &(pc).guestmount, "DIR", "accepted" }, \
	{ 0, "guestvmlinux", OPT_STR, &(pc).guestvmlinux, "FILE", "accepted" }, \
	{ 0, "inline", OPT_FLAG, &(pc).inline_, NULL, "accepted" }, \
	{ 0, "no-inline", OPT_FLAG, &(pc).no_inline, NULL, "accepted" }, \
	{ 0, "itrace", OPT_OPTSTR, &(pc).itrace, "OPTS", \
	  "instruction trace options, checked as perf checks them (no AUX data here)" }, \
	{ 0, "insn-trace", OPT_OPTSTR, &(pc).insn_trace, "raw", \
	  "perf's -F +insn,-event,-period --ns (instruction traces decoded: none here)" }, \
	{ 0, "call-trace", OPT_OPTSTR, &(pc).call_trace, "...", \
	  "perf's -F -ip,-addr,-event,-period,+callindent --ns" }, \
	{ 0, "call-ret-trace", OPT_OPTSTR, &(pc).call_ret_trace, "...", \
	  "perf's -F -ip,-addr,-event,-period,+callindent,+flags --ns" }, \
	{ 0, "max-blocks", OPT_UINT, &(pc).max_blocks, "N", "accepted" }, \
	{ 0, "show-kernel-path", OPT_FLAG, &(pc).show_kernel_path, NULL, "accepted" }, \
	{ 0, "show-on-off-events", OPT_FLAG, &(pc).show_on_off, NULL, \
	  "print the --switch-on/--switch-off samples too" }, \
	{ 0, "per-event-dump", OPT_FLAG, &(pc).per_event_dump, NULL, \
	  "print each event's samples into INPUT.EVENT.dump" }, \
	{ 0, "show-round-events", OPT_FLAG, &(pc).show_round, NULL, \
	  "print a line per FINISHED_ROUND record, every record in file order (unsorted)" }, \
	{ 0, "dump-unsorted-raw-trace", OPT_FLAG, &(pc).dump_unsorted, NULL, \
	  "-D, every record in file order (unsorted)" }, \
	{ 0, "show-text-poke-events", OPT_FLAG, &(pc).show_text_poke, NULL, "accepted" }, \
	{ 0, "stitch-lbr", OPT_FLAG, &(pc).stitch_lbr, NULL, \
	  "warns, as perf does, without LBR call stacks" }, \
	{ 0, "xed", OPT_OPTSTR, &(pc).xed, "...", \
	  "pipe the output through 'xed -F insn: -A -64 | less', as perf does" }, \
	{ 0, "stop-bt", OPT_STR, &(pc).stop_bt, "SYM[,SYM...]", "accepted" }, \
	{ 0, "switch-on", OPT_STR, &(pc).switch_on, "EVENT", \
	  "print nothing until an EVENT sample (perf's evswitch)" }, \
	{ 0, "switch-off", OPT_STR, &(pc).switch_off, "EVENT", \
	  "print nothing after an EVENT sample (until --switch-on's)" }

/**
 * report_compat_early - the options that need no recording (-l,
 * --list-dlfilters, a bad --itrace): prints, and returns an exit status;
 * -1 to go on.
 */
int report_compat_early(const struct perf_compat *pc);

/**
 * report_compat_xed - --xed: stdout becomes a pipe into perf's command
 * (sh -c "xed -F insn: -A -64 | less"), waited for at exit. 0, or -1
 * after saying why.
 */
int report_compat_xed(void);

/**
 * report_compat_fields - the -F lists --insn-trace, --call-trace and
 * --call-ret-trace stand for, put before @fields' own, and whether they
 * ask for --ns. Returns 0, or an exit status after printing (a bad
 * --insn-trace argument).
 */
int report_compat_fields(const struct perf_compat *pc, struct opt_list *fields, int *nsecs);

/**
 * report_compat_check - the checks perf makes once the recording is open
 * (--stitch-lbr without LBR stacks: a warning). Prints; returns an exit
 * status, or -1 to go on.
 */
int report_compat_check(const struct perf_compat *pc, struct pd_session *s);

#endif
