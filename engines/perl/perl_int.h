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
/* The payload (perl_payload.c): Tracebox::payload_fd, registered by xs_init */
void perl_payload_xs(pTHX);
/**
 * perl_payload_boot - a memfd holding the program that puts the payload's
 * hook last in @INC, for perl_parse as "/dev/fd/N" (perl opens such a name
 * itself: a bare chroot has no /dev/null for -e): the fd, or -1
 */
int perl_payload_boot(void);
/** perl_payload_hook - the same hook, run in a started interpreter: 0, or -1 ($@ set) */
int perl_payload_hook(pTHX);
/** perl_payload_run - run carried script @path as do FILE would: -1 when the
 * payload has no such file, else 0 with $@ set if it died */
int perl_payload_run(pTHX_ const char *path);
/** perl_set_current - the current event scripts' $context must name */
void perl_set_current(pTHX_ struct ec_current *cur);

#endif
