/* tracefs.h - finding tracefs and reading its files (never writing them). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef TRACEFS_H
#define TRACEFS_H

#include <stddef.h>
#include "util/tb_err.h"

/**
 * tracefs_find - the tracefs mount point from /proc/mounts (tracefs, or
 * debugfs's tracing/), written to @buf. Returns 0 or TB_ERR_UNSUPPORTED.
 */
int tracefs_find(char *buf, size_t len, struct tb_err *err);

/**
 * tracefs_read - the whole of a tracefs file (which cannot be stat'ed for
 * size), NUL-terminated, in a malloc'd buffer. Returns 0 or TB_ERR_IO.
 */
int tracefs_read(const char *path, char **out, size_t *len, struct tb_err *err);

/**
 * file_first_line - the first line of @path (tracefs, /proc, /sys), its
 * newline cut, into @buf of @len bytes. Returns 0, or -1 when the file
 * cannot be read or is empty.
 */
int file_first_line(const char *path, char *buf, size_t len);

/**
 * tracefs_event_id - the id of SYSTEM:EVENT, or a negative TB_ERR_* with
 * @err saying the event does not exist.
 */
long tracefs_event_id(const char *tracefs, const char *sys, const char *event,
		      struct tb_err *err);

/**
 * tracefs_list_events - call @fn for every "system:event" this kernel
 * offers that matches @glob (fnmatch; NULL for all), sorted.
 * Returns the number listed or a negative TB_ERR_*.
 */
long tracefs_list_events(const char *tracefs, const char *glob,
			 void (*fn)(void *ctx, const char *name), void *ctx,
			 struct tb_err *err);

#endif
