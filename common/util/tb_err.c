/* tb_err.c - filling the error record and naming error codes. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdarg.h>
#include <stdio.h>
#include "util/tb_err.h"

#define TB_E(name, msg) msg,
static const char *const tb_messages[] = { TB_ERRORS };
#undef TB_E

int tb_err_set(struct tb_err *e, int code, uint64_t offset, const char *fmt, ...)
{
	va_list ap;

	if (!e)
		return code;
	e->code = code;
	e->has_offset = offset != TB_NO_OFFSET;
	e->offset = e->has_offset ? offset : 0;
	va_start(ap, fmt);
	vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
	va_end(ap);
	return code;
}

const char *tb_strerror(int code)
{
	if (code <= TB_ERR_BASE || code >= TB_ERR_LAST)
		return "unknown error";
	return tb_messages[code - TB_ERR_BASE - 1];
}
