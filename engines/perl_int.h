/* perl_int.h - what the Perl engine's files share (perl.h users only). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PERL_INT_H
#define PERL_INT_H

#include <EXTERN.h>
#include <perl.h>
#include <XSUB.h>
#include "ec_sample.h"
#include "engine_core.h"

/* Perf::Trace::Context's bootstrap, registered by the engine's xs_init. */
XS(boot_Perf__Trace__Context);
/** pl_set_current - the current event scripts' $context must name */
void pl_set_current(pTHX_ struct ec_current *cur);

#endif
