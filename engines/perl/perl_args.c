/* perl_args.c - the argument SVs a tracepoint's handler gets, reused from
 * event to event only while no script can tell them from perf's new ones. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "perl/perl_int.h"

#define VALUE_FLAGS (SVf_IOK | SVf_NOK | SVf_POK | SVf_ROK | SVp_IOK | SVp_NOK | SVp_POK)

int perl_holds_iv(SV *sv, IV v)
{
	return (SvFLAGS(sv) & (VALUE_FLAGS | SVs_GMG | SVs_SMG | SVf_READONLY)) ==
		(SVf_IOK | SVp_IOK) && !SvIsUV(sv) && SvIVX(sv) == v;
}

int perl_holds_str(SV *sv, const char *s, size_t len)
{
	return (SvFLAGS(sv) & (VALUE_FLAGS | SVs_GMG | SVs_SMG | SVf_READONLY | SVf_UTF8)) ==
		(SVf_POK | SVp_POK) && SvCUR(sv) == len && !memcmp(SvPVX(sv), s, len);
}

int perl_empty_array_ref(SV *sv)
{
	SV *av;

	if ((SvFLAGS(sv) & (VALUE_FLAGS | SVs_GMG | SVs_SMG | SVf_READONLY)) != SVf_ROK)
		return 0;
	av = SvRV(sv);
	return SvTYPE(av) == SVt_PVAV && !SvOBJECT(av) && !SvMAGICAL(av) && !SvREADONLY(av) &&
		SvREFCNT(av) == 1 && AvFILLp((AV *)av) < 0;
}

/* what a script can put on an argument that setting its value keeps:
 * read-only (Internals::SvREADONLY: setting it croaks, outside any eval),
 * tie, pos(), a weak reference's back-reference */
#define KEPT_FLAGS (SVf_READONLY | SVf_PROTECT | SVs_GMG | SVs_SMG | SVs_RMG)

/* what $common_callchain holds when the script left it alone: an array */
static int plain_array(SV *sv)
{
	return SvTYPE(sv) == SVt_PVAV && !SvOBJECT(sv) && !SvMAGICAL(sv);
}

/* an argument the script holds, marked or made read-only: replaced */
static int held(SV *a)
{
	return SvREFCNT(a) != 1 || (SvFLAGS(a) & KEPT_FLAGS);
}

/* an argument holding a reference to let go now, as perf's arguments go
 * after the call (an object's DESTROY runs then): what a script stored in
 * $_[i], an array field's array, a callchain with frames or what a script
 * pushed on it; not $_[7]'s empty array, reused */
static int holds_ref(SV *a, size_t i)
{
	return SvROK(a) && (i != 7 || !plain_array(SvRV(a)) || AvFILLp((AV *)SvRV(a)) >= 0);
}

int perl_args_settled(pTHX_ SV **args, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++)
		if (held(args[i]) || holds_ref(args[i], i))
			return 0;
	return perl_holds_str(args[0], name, strlen(name));
}

void perl_args_release(pTHX_ SV **args, size_t nr, const char *name)
{
	for (size_t i = 0; i < nr; i++) {
		if (held(args[i])) {
			SvREFCNT_dec(args[i]);
			args[i] = i ? newSV(0) : newSVpv(name, 0);
		} else if (holds_ref(args[i], i)) {
			sv_set_undef(args[i]);
		}
	}
	if (!perl_holds_str(args[0], name, strlen(name)))
		sv_setpv(args[0], name);
}
