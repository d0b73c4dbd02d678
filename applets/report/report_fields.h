/* report_fields.h - which columns trace-report prints per event kind: perf
 * script 6.1's defaults, its -F language and its checks against the attrs. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_FIELDS_H
#define REPORT_FIELDS_H

#include <stdint.h>

struct pd_session;
struct pd_evsel;

/* the fields, in perf's order (builtin-script.c enum perf_output_field) */
enum {
	RF_COMM = 1ULL << 0, RF_TID = 1ULL << 1, RF_PID = 1ULL << 2, RF_TIME = 1ULL << 3,
	RF_CPU = 1ULL << 4, RF_EVNAME = 1ULL << 5, RF_TRACE = 1ULL << 6, RF_IP = 1ULL << 7,
	RF_SYM = 1ULL << 8, RF_DSO = 1ULL << 9, RF_ADDR = 1ULL << 10, RF_SYMOFFSET = 1ULL << 11,
	RF_SRCLINE = 1ULL << 12, RF_PERIOD = 1ULL << 13, RF_IREGS = 1ULL << 14,
	RF_BRSTACK = 1ULL << 15, RF_BRSTACKSYM = 1ULL << 16, RF_DATA_SRC = 1ULL << 17,
	RF_WEIGHT = 1ULL << 18, RF_BPF_OUTPUT = 1ULL << 19, RF_CALLINDENT = 1ULL << 20,
	RF_INSN = 1ULL << 21, RF_INSNLEN = 1ULL << 22, RF_BRSTACKINSN = 1ULL << 23,
	RF_BRSTACKOFF = 1ULL << 24, RF_SYNTH = 1ULL << 25, RF_PHYS_ADDR = 1ULL << 26,
	RF_UREGS = 1ULL << 27, RF_METRIC = 1ULL << 28, RF_MISC = 1ULL << 29,
	RF_SRCCODE = 1ULL << 30,
};
#define RF_IPC            (1ULL << 31)
#define RF_TOD            (1ULL << 32)
#define RF_DATA_PAGE_SIZE (1ULL << 33)
#define RF_CODE_PAGE_SIZE (1ULL << 34)
#define RF_INS_LAT        (1ULL << 35)
#define RF_BRSTACKINSNLEN (1ULL << 36)
#define RF_MACHINE_PID    (1ULL << 37)
#define RF_VCPU           (1ULL << 38)

/* perf's output types: attr.type below 6, then synthesized, then the rest */
enum { RF_T_HW, RF_T_SW, RF_T_TRACE, RF_T_HW_CACHE, RF_T_RAW, RF_T_BREAK, RF_T_SYNTH,
       RF_T_OTHER, RF_NR_TYPES };

struct rf_type {
	int user_set, wildcard_set;
	uint64_t fields, invalid, user_set_fields, user_unset_fields;
};

struct rf_config {
	struct rf_type t[RF_NR_TYPES];
	int print_flags;       /* -F flags */
	int use_callchain;     /* set by rf_check: print stacks under the line */
	int verbose;           /* -v: say which default fields the samples lack */
};

/** rf_type_of - the output type of an attr.type */
int rf_type_of(uint32_t attr_type);
/** rf_init - perf 6.1's default fields */
void rf_init(struct rf_config *c);
/**
 * rf_parse - apply one -F argument, as perf's parse_output_fields
 * Prints perf's messages (warnings and the error) on stderr.
 * Returns 0, or -1 on an invalid argument.
 */
int rf_parse(struct rf_config *c, const char *arg);
/**
 * rf_check - after the recording's attrs are known: drop default fields its
 * samples lack, refuse asked-for ones they lack (perf's messages), decide
 * whether stacks are printed (@no_callchain: -G)
 * Returns 0, or -1 after printing why.
 */
int rf_check(struct rf_config *c, struct pd_session *s, int no_callchain);
/** rf_unsupported_note - print, once per run, the fields asked for that
 * need DWARF line info or a disassembler */
void rf_unsupported_note(const struct rf_config *c);

/**
 * rf_misc_letters - -F misc's letters (perf_sample__fprintf_start): the
 * cpumode's K U H G g, then for record @type MMAP's data (M), COMM's exec
 * (E), SWITCH's out (S, p when preempted). Returns how many went to @out.
 */
size_t rf_misc_letters(unsigned misc, uint32_t type, char out[8]);

#endif
