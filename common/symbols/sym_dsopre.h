/* sym_dsopre.h - the symbols of a recording's DSOs read ahead on a thread of their own. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef SYM_DSOPRE_H
#define SYM_DSOPRE_H

#include <stddef.h>
#include "symbols/sym_dso.h"
#include "symbols/sym_elf.h"

struct sym_dsopre;

/**
 * sym_dsopre_start - read @n DSOs' symbols on a new thread, in @dsos'
 * order, as sym_dso_load would read them with @c (whose debuginfod must be
 * NULL: the thread asks no server). The thread works on copies of their
 * names and build-ids; each DSO is marked (d->pre) for sym_dsopre_take.
 * NULL when the thread cannot start: then nothing is marked.
 */
struct sym_dsopre *sym_dsopre_start(struct sym_dso *const *dsos, size_t n,
				    const struct sym_load_ctx *c);
/**
 * sym_dsopre_take - @d's symbols as the thread read them, moved into @d,
 * after waiting while the thread reads them: 1, with the load's warning
 * (if any) in @warning unless that holds one already. 0 when the
 * thread has not come to @d yet (it then skips it), ran out of memory on
 * it, or @d's build-id changed since (an MMAP2 gave it one): load it
 * yourself. Clears d->pre.
 */
int sym_dsopre_take(struct sym_dsopre *p, struct sym_dso *d, char *warning, size_t n);
/** sym_dsopre_done - the thread has been through its list (for tests: a
 * take then finds every DSO it did not skip read) */
int sym_dsopre_done(struct sym_dsopre *p);
/** sym_dsopre_stop - end the thread (after the DSO it is reading) and free what was not taken */
void sym_dsopre_stop(struct sym_dsopre *p);

#endif
