/* report_mem.c - the data_src column as perf 6.1 prints it (builtin-script.c
 * data_src__fprintf; the text: common/perfdata/pd_sample_text.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include "perfdata/pd_sample_text.h"
#include "report/report_mem.h"
#include "report/report_out.h"

void report_print_data_src(struct report_print *p, uint64_t data_src)
{
	static int maxlen;
	char text[100], out[100];   /* perf decodes into 100 bytes */
	int len;

	pd_data_src_text(data_src, text, sizeof(text));
	len = snprintf(out, sizeof(out), "%16llx %s", (unsigned long long)data_src, text);
	if (len > 99)
		len = 99;
	if (maxlen < len)
		maxlen = len;
	ro_left(p, out, (size_t)maxlen);
}
