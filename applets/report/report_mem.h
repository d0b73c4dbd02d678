/* report_mem.h - perf script's data_src column (util/mem-events.c decoding). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_MEM_H
#define REPORT_MEM_H

#include <stdint.h>

struct report_print;

/** report_print_data_src - "%16lx |OP ...|LVL ...|SNP ...|TLB ...|LCK ...|BLK ..." padded
 * to the widest so far, as perf's data_src__fprintf */
void report_print_data_src(struct report_print *p, uint64_t data_src);

#endif
