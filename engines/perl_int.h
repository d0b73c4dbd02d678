/* perl_int.h - what the Perl engine's files share (perl.h users only). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERL_INT_H
#define PERL_INT_H

#include <EXTERN.h>
#include <perl.h>
#include <XSUB.h>
#include <stddef.h>

/* The event a script's $context stands for while its handler runs. */
struct pl_current {
	const unsigned char *raw;
	size_t size;
	int off_flags, off_preempt, off_lock_depth;
};

/* Perf::Trace::Context's bootstrap, registered by the engine's xs_init. */
XS(boot_Perf__Trace__Context);
/** pl_set_current - the pl_current scripts' $context must name */
void pl_set_current(pTHX_ struct pl_current *cur);

#endif
