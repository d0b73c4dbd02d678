/* report_dlfilter.c - --dlfilter FILE: perf 6.1's dlfilter API
 * (<perf/perf_dlfilter.h>, linux-perf): the object's start() and stop(),
 * filter_event_early() before perf's filters and filter_event() after them
 * (a non-zero return drops the sample), and the perf_dlfilter_fns it calls
 * back (resolve_ip, resolve_addr, args, resolve_address, insn, srcline,
 * attr, object_code). The filter may print: the printer's buffer goes out
 * before each call, so its text lands where perf's does. The static build
 * cannot load a shared object and says so. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report/report_dlfilter.h"
#include "xfuncs.h"

#ifdef TRACEBOX_DYNAMIC
#include <dlfcn.h>
#include <perf/perf_dlfilter.h>
#include "perfdata/pd_evsel.h"
#include "perfdata/pd_format.h"
#include "symbols/symbols.h"

struct report_dlfilter {
	void *handle, *data;
	int (*start)(void **data, void *ctx);
	int (*stop)(void *data, void *ctx);
	int (*early)(void *data, const struct perf_dlfilter_sample *s, void *ctx);
	int (*event)(void *data, const struct perf_dlfilter_sample *s, void *ctx);
	char **args;
	int nargs;
	struct pd_session *session;
	/* the sample being filtered, for the callbacks */
	const struct pd_event *ev;
	struct perf_dlfilter_al ip_al, addr_al;
	int have_ip_al, have_addr_al;
	unsigned char insn[16];
};

/* Fill @al for @addr in the current sample's process. 0, or -1. */
static int resolve(struct report_dlfilter *f, uint64_t addr, struct perf_dlfilter_al *al)
{
	struct sym_machine *m = pd_session_symbols(f->session);
	const struct pd_sample *smp = f->ev->sample;
	uint16_t mode = addr >= (1ULL << 63) ? 1 : f->ev->misc & 7;
	struct sym_loc l;
	uint32_t size = al->size;

	memset(al, 0, sizeof(*al) < size ? sizeof(*al) : size);
	al->size = size;
	if (!m || sym_machine_resolve(m, smp->pid, mode, addr, &l))
		return -1;
	al->sym = l.sym;
	al->symoff = (uint32_t)l.symoff;
	al->addr = l.map_ip;
	al->sym_start = l.sym_start;
	al->sym_end = l.sym_end;
	al->dso = l.have_map ? l.dso : NULL;
	al->sym_binding = (uint8_t)l.binding;
	al->is_64_bit = sizeof(void *) == 8;
	al->is_kernel_ip = l.is_kernel;
	al->buildid_size = (uint32_t)l.build_id_len;
	al->buildid = (uint8_t *)l.build_id;
	return 0;
}

static const struct perf_dlfilter_al *cb_resolve_ip(void *ctx)
{
	struct report_dlfilter *f = ctx;

	if (!f->ev)
		return NULL;
	if (!f->have_ip_al) {
		f->ip_al.size = sizeof(f->ip_al);
		resolve(f, f->ev->sample->ip, &f->ip_al);
		f->ip_al.comm = f->ev->comm;
		f->have_ip_al = 1;
	}
	return &f->ip_al;
}

/* perf's sample_addr_correlates_sym: page faults' addresses are code or data */
static int addr_correlates(const struct pd_evsel *e)
{
	return (e->sample_type & PD_S_ADDR) && e->type == PD_TYPE_SOFTWARE &&
	       (e->config == 2 || e->config == 5 || e->config == 6);
}

static const struct perf_dlfilter_al *cb_resolve_addr(void *ctx)
{
	struct report_dlfilter *f = ctx;

	if (!f->ev || !addr_correlates(f->ev->evsel))
		return NULL;
	if (!f->have_addr_al) {
		f->addr_al.size = sizeof(f->addr_al);
		resolve(f, f->ev->sample->addr, &f->addr_al);
		f->have_addr_al = 1;
	}
	return &f->addr_al;
}

static char **cb_args(void *ctx, int *dlargc)
{
	struct report_dlfilter *f = ctx;

	if (dlargc)
		*dlargc = f->nargs;
	return f->args;
}

static __s32 cb_resolve_address(void *ctx, __u64 address, struct perf_dlfilter_al *al)
{
	struct report_dlfilter *f = ctx;

	if (!f->ev || !al || al->size < offsetof(struct perf_dlfilter_al, filtered))
		return -1;
	return resolve(f, address, al);
}

static const __u8 *cb_insn(void *ctx, __u32 *length)
{
	struct report_dlfilter *f = ctx;
	struct sym_machine *m = pd_session_symbols(f->session);
	size_t n = 0;

	if (f->ev && m)
		n = sym_machine_fetch_insn(m, f->ev->sample->pid, f->ev->misc & 7,
					   f->ev->sample->ip, f->insn);
	*length = (__u32)n;
	return n ? f->insn : NULL;
}

/* perf's dlfilter__srcline: the source file and line of the sample's ip
 * (get_srcline_split: the DWARF's, innermost), NULL and 0 where unknown */
static const char *cb_srcline(void *ctx, __u32 *line_number)
{
	struct report_dlfilter *f = ctx;
	struct sym_machine *m = f->ev ? pd_session_symbols(f->session) : NULL;
	const char *file = NULL;
	unsigned line = 0;

	if (m)
		file = sym_machine_srcfile(m, f->ev->sample->pid, f->ev->misc & 7, f->ev->sample->ip,
					   &line);
	*line_number = file ? line : 0;
	return file;
}

static struct perf_event_attr *cb_attr(void *ctx)
{
	struct report_dlfilter *f = ctx;
	static struct perf_event_attr copy;

	if (!f->ev)
		return NULL;
	/* the attr as read, at most the struct this header knows */
	memset(&copy, 0, sizeof(copy));
	memcpy(&copy, f->ev->evsel->raw, sizeof(copy) < sizeof(f->ev->evsel->raw) ?
	       sizeof(copy) : sizeof(f->ev->evsel->raw));
	return &copy;
}

static __s32 cb_object_code(void *ctx, __u64 ip, void *buf, __u32 len)
{
	struct report_dlfilter *f = ctx;
	struct sym_machine *m = pd_session_symbols(f->session);
	int is64;

	if (!f->ev || !m)
		return -1;
	return (__s32)sym_machine_read_code(m, f->ev->sample->pid, f->ev->misc & 7, ip, buf, len,
					    &is64);
}

int report_dlfilter_open(struct report_dlfilter **out, const char *path, char **args, int nargs,
			 struct pd_session *s)
{
	struct report_dlfilter *f = calloc(1, sizeof(*f));
	struct perf_dlfilter_fns *fns;
	int r;

	if (!f) {
		error_msg("out of memory");
		return 1;
	}
	f->handle = dlopen(path, RTLD_NOW);
	if (!f->handle) {
		free(f);
		/* perf 6.1: util/dlfilter.c dlfilter__open (pr_err) */
		perf_msg("dlopen failed for: '%s'\n", path);
		return 255;
	}
	f->start = (int (*)(void **, void *))dlsym(f->handle, "start");
	f->stop = (int (*)(void *, void *))dlsym(f->handle, "stop");
	f->early = (int (*)(void *, const struct perf_dlfilter_sample *, void *))
		   dlsym(f->handle, "filter_event_early");
	f->event = (int (*)(void *, const struct perf_dlfilter_sample *, void *))
		   dlsym(f->handle, "filter_event");
	fns = dlsym(f->handle, "perf_dlfilter_fns");
	if (fns) {
		memset(fns, 0, sizeof(*fns));
		fns->resolve_ip = cb_resolve_ip;
		fns->resolve_addr = cb_resolve_addr;
		fns->args = cb_args;
		fns->resolve_address = cb_resolve_address;
		fns->insn = cb_insn;
		fns->srcline = cb_srcline;
		fns->attr = cb_attr;
		fns->object_code = cb_object_code;
	}
	f->args = args;
	f->nargs = nargs;
	f->session = s;
	*out = f;
	/* a start() that fails ends the run with its value as the status, as
	 * perf's cmd_script returns it (stop() still runs, at the close) */
	if (f->start && (r = f->start(&f->data, f)))
		return r & 0xff ? r & 0xff : 1;
	return 0;
}

static int call(struct report_dlfilter *f, const struct pd_event *ev,
		int (*fn)(void *, const struct perf_dlfilter_sample *, void *))
{
	const struct pd_sample *smp = ev->sample;
	struct perf_dlfilter_sample d = {
		.size = sizeof(d), .ins_lat = smp->ins_lat, .p_stage_cyc = smp->p_stage_cyc,
		.ip = smp->ip, .pid = smp->pid, .tid = smp->tid, .time = smp->time,
		.addr = smp->addr, .id = smp->id, .stream_id = smp->stream_id,
		.period = smp->period, .weight = smp->weight, .transaction = smp->transaction,
		.cpu = (__s32)smp->cpu, .data_src = smp->data_src, .phys_addr = smp->phys_addr,
		.data_page_size = smp->data_page_size, .code_page_size = smp->code_page_size,
		.cgroup = smp->cgroup, .cpumode = ev->misc & 7,
		.addr_correlates_sym = (__u8)addr_correlates(ev->evsel), .misc = ev->misc,
		.raw_size = smp->raw ? smp->raw_size : 0, .raw_data = smp->raw,
		.brstack_nr = smp->branches ? smp->nr_branches : 0,
		.brstack = (const struct perf_branch_entry *)smp->branches,
		.raw_callchain_nr = smp->callchain ? smp->nr_callchain : 0,
		.raw_callchain = (const __u64 *)smp->callchain, .event = ev->evsel->name,
	};
	int r;

	if (!fn)
		return 0;
	f->ev = ev;
	f->have_ip_al = f->have_addr_al = 0;
	r = fn(f->data, &d, f);
	f->ev = NULL;
	return r != 0;
}

int report_dlfilter_early(struct report_dlfilter *f, const struct pd_event *ev)
{
	return call(f, ev, f->early);
}

int report_dlfilter_event(struct report_dlfilter *f, const struct pd_event *ev)
{
	return call(f, ev, f->event);
}

void report_dlfilter_close(struct report_dlfilter *f)
{
	if (!f)
		return;
	if (f->stop)
		f->stop(f->data, f);
	fflush(stdout);
	dlclose(f->handle);
	free(f);
}

#else /* the static build */

int report_dlfilter_open(struct report_dlfilter **out, const char *path, char **args, int nargs,
			 struct pd_session *s)
{
	(void)args; (void)nargs; (void)s;
	*out = NULL;
	error_msg("--dlfilter %s: this static build cannot load a shared object; use the dynamic "
		  "build (make dynamic, then build/dyn/tracebox)", path);
	return 1;
}

int report_dlfilter_early(struct report_dlfilter *f, const struct pd_event *ev)
{
	(void)f; (void)ev;
	return 0;
}

int report_dlfilter_event(struct report_dlfilter *f, const struct pd_event *ev)
{
	(void)f; (void)ev;
	return 0;
}

void report_dlfilter_close(struct report_dlfilter *f)
{
	(void)f;
}

#endif
