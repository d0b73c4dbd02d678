/* ksyms.h - kernel symbols from /proc/kallsyms, resolved the way perf's host machine does. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef KSYMS_H
#define KSYMS_H

#include <stddef.h>
#include <stdint.h>
#include "util/tb_err.h"

struct tep_handle;
struct ksyms;

/*
 * perf 6.1 resolves %pS/%ps arguments of tracepoints with the symbols of
 * the machine it runs on (it skips the kallsyms the recording carries), so
 * tracebox does too, loading the table on the first address it needs.
 * ksyms_attach() installs the resolver on @tep; @path is normally
 * "/proc/kallsyms". While *@gate is 0 (perf has no kernel map yet) nothing
 * resolves. The table is freed with ksyms_free().
 */
struct ksyms *ksyms_attach(struct tep_handle *tep, const char *path, const uint64_t *gate);
void ksyms_free(struct ksyms *k);

/** ksyms_load_text - parse kallsyms text (for tests); returns symbols kept or -1 */
int ksyms_load_text(struct ksyms *k, const char *text, size_t len);
/** ksyms_lookup - the symbol containing @addr: name, start in *start, module in *mod */
const char *ksyms_lookup(struct ksyms *k, uint64_t addr, uint64_t *start, const char **mod);

/**
 * ksyms_load_path - parse the kallsyms file @path (a regular file, or
 * procfs's): the symbols kept, or -1 when it is unreadable, not a regular
 * file or too large, with @err (may be NULL) saying why when it was not read
 */
int ksyms_load_path(struct ksyms *k, const char *path, struct tb_err *err);
/** ksyms_lookup_range - ksyms_lookup, also giving the symbol's end */
const char *ksyms_lookup_range(struct ksyms *k, uint64_t addr, uint64_t *start, uint64_t *end,
			       const char **mod);
/** ksyms_binding - the ELF binding perf gives the symbol ksyms_lookup_range
 * finds for @addr (kallsyms 'W' weak 2, upper case global 1, else local 0),
 * -1 when there is none */
int ksyms_binding(struct ksyms *k, uint64_t addr);
/** ksyms_range - the kernel's (not modules') first symbol start and last symbol end; 0 or -1 */
int ksyms_range(const struct ksyms *k, uint64_t *first, uint64_t *last_end);
/** ksyms_set_ref - before loading: note where the function @name (kept by the caller) starts */
void ksyms_set_ref(struct ksyms *k, const char *name);
/** ksyms_ref - where it starts (perf's kallsyms__get_function_start); 0, or -1 if not listed */
int ksyms_ref(const struct ksyms *k, uint64_t *addr);

#endif
