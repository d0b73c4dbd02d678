/* report_resolve.c - an address's symbol and DSO for the printed lines, and
 * which DSOs perf would have loaded symbols for by then (report_resolve.h). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include "perfdata/pd_session.h"
#include "report/report_resolve.h"
#include "symbols/symbols.h"

int rp_loaded(const struct report_print *p, const char *dso)
{
	for (unsigned i = 0; i < p->nr_loaded; i++)
		if (p->loaded[i] == dso || !strcmp(p->loaded[i], dso))
			return 1;
	return p->nr_loaded == 64;
}

int rp_resolve_full(struct report_print *p, int32_t pid, uint16_t cpumode, uint64_t addr,
		    struct rp_loc *l, struct sym_loc *sl)
{
	struct sym_machine *m = pd_session_symbols(p->session);

	if (m && !sym_machine_resolve(m, pid, cpumode, addr, sl)) {
		l->sym = sl->sym;
		l->symoff = sl->symoff;
		l->dso = sl->dso;
		l->map_ip = sl->map_ip;
		l->have_map = sl->have_map;
		l->is_kernel = sl->is_kernel;
		if (p->track_loaded && l->have_map && !p->map_only && !rp_loaded(p, l->dso) &&
		    p->nr_loaded < 64)
			p->loaded[p->nr_loaded++] = l->dso;
		return 1;
	}
	l->sym = NULL;
	l->symoff = 0;
	l->dso = "[unknown]";
	l->map_ip = addr;
	l->have_map = 0;
	l->is_kernel = 0;
	return 0;
}

void rp_resolve(struct report_print *p, int32_t pid, uint16_t cpumode, uint64_t addr,
		struct rp_loc *l)
{
	struct sym_loc sl;

	rp_resolve_full(p, pid, cpumode, addr, l, &sl);
}
