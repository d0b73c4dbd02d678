/* report_extra.h - the sample fields perf script prints around the ip:
 * addr, data_src, weight, registers, branch stacks, BPF output, page sizes. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_EXTRA_H
#define REPORT_EXTRA_H

#include <stddef.h>
#include <stdint.h>
#include "report/report_fields.h"

struct report_print;
struct pd_event;

/** the fields between the event name (or trace text) and the ip: of these */
#define RF_MID_FIELDS (RF_ADDR | RF_DATA_SRC | RF_WEIGHT | RF_INS_LAT)
void report_print_fields_mid(struct report_print *p, const struct pd_event *ev, uint64_t f);
/** the fields after the ip (or stack), before the newline: of these */
#define RF_TAIL_FIELDS (RF_IREGS | RF_UREGS | RF_BRSTACK | RF_BRSTACKSYM | RF_BRSTACKOFF | \
			RF_BPF_OUTPUT | RF_INSN | RF_INSNLEN | RF_PHYS_ADDR | RF_DATA_PAGE_SIZE | \
			RF_CODE_PAGE_SIZE)
void report_print_fields_tail(struct report_print *p, const struct pd_event *ev, uint64_t f);

/** report_branch_type - util/branch.c get_branch_type: the name of a branch
 * entry's type (its flags' type, or new_type for PERF_BR_EXTEND_ABI), "" for none */
const char *report_branch_type(uint64_t flags);
/** report_page_size_name - perf's get_page_size_name: "N/A" for 0, else
 * the size in B, K, M or G ("4K"), into @buf */
const char *report_page_size_name(char *buf, size_t size, uint64_t n);

#endif
