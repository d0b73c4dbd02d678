/* perl_context.c - Perf::Trace::Context as XS compiled into the binary:
 * common_pc, common_flags, common_lock_depth of the current event. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "perl/perl_int.h"

#define CURRENT_KEY "tracebox::context"

/* Where the engine keeps the current event: per interpreter, in
 * PL_modglobal, so a $context from a script is checked, not trusted. */
void perl_set_current(pTHX_ struct ec_current *cur)
{
	(void)hv_store(PL_modglobal, CURRENT_KEY, sizeof(CURRENT_KEY) - 1,
		       newSViv(PTR2IV(cur)), 0);
}

static struct ec_current *current(pTHX_ SV *ctx)
{
	SV **sv = hv_fetch(PL_modglobal, CURRENT_KEY, sizeof(CURRENT_KEY) - 1, 0);

	if (!sv || !SvIOK(*sv) || !SvOK(ctx) || SvIV(ctx) != SvIV(*sv))
		Perl_croak(aTHX_ "Perf::Trace::Context: not the context of the current event");
	return INT2PTR(struct ec_current *, SvIV(*sv));
}

/* One common field of the current event: the body of the three XSUBs. */
#define COMMON_XSUB(fn, field)				\
	XS(XS_##fn);								\
	XS(XS_##fn)								\
	{									\
		dXSARGS;							\
		struct ec_current *c;						\
										\
		if (items != 1)							\
			Perl_croak(aTHX_ "Usage: Perf::Trace::Context::" #fn "(context)"); \
		c = current(aTHX_ ST(0));					\
		XSRETURN_IV(ec_context_int(c, field));		\
	}

COMMON_XSUB(common_pc, EC_PC)      /* the preempt count: perf's "pc" */
COMMON_XSUB(common_flags, EC_FLAGS)
COMMON_XSUB(common_lock_depth, EC_LOCK_DEPTH)   /* 0 on kernels without it */

XS(boot_Perf__Trace__Context)
{
	dXSARGS;
	(void)items;
	/* prototype "$", as perf's: "common_pc $context, ..." takes one */
	newXS_flags("Perf::Trace::Context::common_pc", XS_common_pc, __FILE__, "$", 0);
	newXS_flags("Perf::Trace::Context::common_flags", XS_common_flags, __FILE__, "$", 0);
	newXS_flags("Perf::Trace::Context::common_lock_depth", XS_common_lock_depth,
		    __FILE__, "$", 0);
	XSRETURN_YES;
}
