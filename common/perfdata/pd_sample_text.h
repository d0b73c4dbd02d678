/* pd_sample_text.h - perf 6.1's words for sample fields: x86_64 register
 * names and the data source (union perf_mem_data_src) as text. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_SAMPLE_TEXT_H
#define PD_SAMPLE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/**
 * pd_reg_name - perf's name of x86_64 register @r (tools/perf/arch/x86
 * perf_reg_name): "AX" ... "R15", "XMM0" ... "XMM15" (two numbers each),
 * "unknown" for any other number.
 */
const char *pd_reg_name(unsigned r);

/**
 * pd_data_src_text - @data_src as perf_script__meminfo_scnprintf writes it
 * (util/mem-events.c): "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A".
 * Writes at most @size - 1 characters and a NUL into @buf (@size > 0), as
 * perf's scnprintf into a fixed buffer; returns the length written.
 */
size_t pd_data_src_text(uint64_t data_src, char *buf, size_t size);

#endif
