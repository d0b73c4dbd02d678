/* pd_unwind.c - the session's --call-graph dwarf samples delivered with their user stacks unwound (perf's thread__resolve_callchain: the recorded kernel part, then the unwound user part). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_format.h"
#include "perfdata/pd_session.h"
#include "perfdata/pd_session_int.h"
#include "unwind/unwind.h"

#define PERF_CONTEXT_USER ((uint64_t)-512)
#define UNWIND_MAX 127           /* perf's PERF_MAX_STACK_DEPTH */

void pd_session_set_unwind(struct pd_session *s, int on)
{
	s->unwind_off = !on;
}

int pd_session_unwind_arch_unknown(const struct pd_session *s)
{
	return s->unwind_failed;
}

void pd_session_unwind_free(struct pd_session *s)
{
	unw_free(s->unw);
	s->unw = NULL;
	free(s->chain);
	s->chain = NULL;
	s->chain_cap = 0;
}

int pd_session_unwound(struct pd_session *s, const struct pd_sample *smp, struct pd_sample *out)
{
	struct unw_sample us;
	size_t need, n;

	if (s->unwind_off || s->unwind_failed || !s->sym || !smp->user_regs ||
	    !smp->user_regs_abi || !smp->user_stack_dyn_size)
		return 0;       /* perf's bail-out: nothing captured */
	if (!s->unw && !(s->unw = unw_new(s->sym, s->pipe ? NULL : s->info.arch))) {
		s->unwind_failed = 1;     /* an arch whose registers we do not know */
		return 0;
	}
	need = (size_t)smp->nr_callchain + 1 + UNWIND_MAX;
	if (need > s->chain_cap) {
		uint64_t *c = realloc(s->chain, need * sizeof(*c));

		if (!c)
			return TB_ERR_NOMEM;
		s->chain = c;
		s->chain_cap = need;
	}
	for (uint64_t i = 0; i < smp->nr_callchain; i++)
		s->chain[i] = pd_u64(smp->callchain + 8 * i);
	n = (size_t)smp->nr_callchain;
	us = (struct unw_sample){ .pid = smp->pid, .tid = smp->tid,
				  .regs_abi = smp->user_regs_abi, .regs_mask = smp->user_regs_mask,
				  .regs = smp->user_regs, .stack = smp->user_stack,
				  .stack_size = smp->user_stack_dyn_size };
	s->chain[n] = PERF_CONTEXT_USER;
	n += unw_stack(s->unw, &us, s->chain + n + 1, UNWIND_MAX) + 1;
	*out = *smp;
	out->callchain = (const unsigned char *)s->chain;
	out->nr_callchain = n;
	return 1;
}
