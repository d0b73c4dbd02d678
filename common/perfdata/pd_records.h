/* pd_records.h - what opening a recording takes from the record loop (pd_records.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PD_RECORDS_H
#define PD_RECORDS_H

#include "perfdata/pd_session_int.h"

/** pd_session_read_pipe_headers - a pipe stream's header records (attrs,
 * features, tracing data) up to its first data record; 0 or an error */
int pd_session_read_pipe_headers(struct pd_session *s, struct tb_err *err);
/** pd_session_buildids - the BUILD_ID feature's entries given to the symbols */
int pd_session_buildids(struct pd_session *s, const unsigned char *buf, size_t size);

#endif
