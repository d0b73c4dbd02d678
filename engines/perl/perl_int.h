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

/*
 * A handler's argument SVs, kept per tracepoint and set again for each
 * event (perl_args.c), where perf makes new ones: reused only while no
 * script can tell.
 */
/** perl_holds_iv - @sv is a plain integer of value @v (nothing else set) */
int perl_holds_iv(SV *sv, IV v);
/** perl_holds_str - @sv is a plain string of the @len bytes at @s */
int perl_holds_str(SV *sv, const char *s, size_t len);
/** perl_empty_array_ref - @sv is the only reference to an empty plain
 * array only it holds: what a new [] would be */
int perl_empty_array_ref(SV *sv);
/** perl_args_release - after the call: each of the @nr @args a script
 * kept a reference to (\$_[i], or $_[7]'s array), made read-only or put
 * magic on (tie) is left to it and replaced by a new SV (@args[0] set to
 * @name again); a reference one holds is let go (@args[7]: but for the
 * plain callchain array). May run a script's DESTROY: call it guarded. */
void perl_args_release(pTHX_ SV **args, size_t nr, const char *name);
/** perl_args_settled - nothing for perl_args_release to do (no script code
 * to run: it need not be guarded) */
int perl_args_settled(pTHX_ SV **args, size_t nr, const char *name);

#endif
