/* report_out.c - the output buffer's formatted write (the rest of the
 * buffer's helpers are inline in report_out.h). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdarg.h>
#include <stdio.h>
#include "report/report_out.h"

void ro_printf(struct report_print *p, const char *fmt, ...)
{
	va_list ap;
	int n;

	ro_room(p, 512);
	va_start(ap, fmt);
	n = vsnprintf(p->pos, (size_t)(p->end - p->pos), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < (size_t)(p->end - p->pos)) {
		p->pos += n;
		return;
	}
	ro_flush(p);
	va_start(ap, fmt);
	vfprintf(p->out, fmt, ap);
	va_end(ap);
}
