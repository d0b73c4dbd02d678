/* tb_err.h - error codes and the error record common/ hands back to applets. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TB_ERR_H
#define TB_ERR_H

#include <stdint.h>

/* X-macro: one line per code, giving the enum and the message table
 * (libtraceevent's TEP_ERRORS idea). Codes start far from errno values. */
#define TB_ERRORS                                                     \
	TB_E(IO,          "I/O error")                                \
	TB_E(TRUNCATED,   "unexpected end of data")                   \
	TB_E(FORMAT,      "malformed data")                           \
	TB_E(UNSUPPORTED, "unsupported feature")                      \
	TB_E(NOMEM,       "out of memory")                            \
	TB_E(TRACEDATA,   "tracing data rejected")                    \
	TB_E(STOP,        "stopped by the consumer")                  \
	TB_E(FORKED,      "a forked copy cannot read on")

#define TB_E(name, msg) TB_ERR_##name,
enum tb_errcode {
	TB_ERR_BASE = -100000,
	TB_ERRORS
	TB_ERR_LAST
};
#undef TB_E

/* An error as common/ reports it: a code, where it happened, what it was. */
struct tb_err {
	int code;           /* enum tb_errcode, or 0 */
	int has_offset;     /* 1 when offset is meaningful */
	uint64_t offset;    /* byte offset in the input */
	char msg[256];      /* one line, no newline */
};

/**
 * tb_err_set - fill @e and return its code
 * @e: error record (may be NULL)
 * @code: TB_ERR_*
 * @offset: input offset, or TB_NO_OFFSET
 * @fmt: printf format for the detail text
 */
#define TB_NO_OFFSET UINT64_MAX
int tb_err_set(struct tb_err *e, int code, uint64_t offset, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/** tb_strerror - the generic message of an error code */
const char *tb_strerror(int code);

#endif
