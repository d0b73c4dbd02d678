/* sym_debuginfod.h - a debuginfod client of our own: build-ids to debug files and executables, with a deadline and a size cap per request. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_DEBUGINFOD_H
#define SYM_DEBUGINFOD_H

#include <stddef.h>

#define SYM_DI_SERVERS 8

struct di_server;

struct sym_debuginfod {
	struct di_server *servers[SYM_DI_SERVERS];
	size_t nr;                /* 0: DEBUGINFOD_URLS unset or empty */
	int timeout_ms;
	size_t max_size;
	char warning[400];        /* the first problem, for the machine to queue */
};

/** sym_debuginfod_init - the servers of DEBUGINFOD_URLS (http:// only),
 * DEBUGINFOD_TIMEOUT and DEBUGINFOD_MAXSIZE. 0, or -1 on ENOMEM. */
int sym_debuginfod_init(struct sym_debuginfod *di);
void sym_debuginfod_free(struct sym_debuginfod *di);

/**
 * sym_debuginfod_fetch - the @kind ("debuginfo" or "executable") of
 * build-id @bid: from the cache ($DEBUGINFOD_CACHE_PATH, else
 * $XDG_CACHE_HOME/debuginfod_client, else ~/.cache/debuginfod_client, as
 * elfutils' client keeps it: BUILDID/KIND), else from each server in turn.
 * Only an ELF file of that build-id is kept. A server that fails (down,
 * past the deadline, a bad answer) is not asked again, and the first such
 * failure is left in di->warning. Returns 0 with the file's path in @out,
 * or -1.
 */
int sym_debuginfod_fetch(struct sym_debuginfod *di, const unsigned char *bid, size_t len,
			 const char *kind, char *out, size_t n);

#endif
