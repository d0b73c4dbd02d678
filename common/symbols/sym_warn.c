/* sym_warn.c - the one-line warnings the symbols machine queues for the
 * applet (sym_machine_next_warning), and the dso names both halves print. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/sym_machine_int.h"

const char sym_unknown_name[] = "[unknown]";
const char sym_kernel_name[] = "[kernel.kallsyms]";

void sym_machine_warn(struct sym_machine *m, const char *fmt, ...)
{
	char buf[512], **nw;
	va_list ap;

	if (m->nr_warnings >= 1000)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	nw = realloc(m->warnings, (m->nr_warnings + 1) * sizeof(*nw));
	if (!nw)
		return;
	m->warnings = nw;
	if ((nw[m->nr_warnings] = strdup(buf)))
		m->nr_warnings++;
}

const char *sym_machine_next_warning(struct sym_machine *m)
{
	if (!m || m->next_warning >= m->nr_warnings)
		return NULL;
	return m->warnings[m->next_warning++];
}

void sym_machine_warnings_free(struct sym_machine *m)
{
	for (size_t i = 0; i < m->nr_warnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
	m->warnings = NULL;
	m->nr_warnings = m->next_warning = 0;
}
