/* sym_machine.c - perf's host machine for symbols: the maps of each pid
 * (MMAP/MMAP2/FORK as perf's machine__process_* do) and the DSOs they map,
 * resolved on demand with a one-entry cache; the kernel's map and symbols
 * are sym_kernel.c's. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "symbols/sym_dso.h"
#include "symbols/sym_dsopre.h"
#include "symbols/sym_dwarf.h"
#include "symbols/sym_srccache.h"
#include "symbols/sym_machine_int.h"
#include "symbols/symbols.h"
#include "util/tb_err.h"

#define MISC_CPUMODE_MASK 7
#define MISC_KERNEL       1
#define MISC_USER         2
#define MISC_GUEST_KERNEL 4
#define MISC_GUEST_USER   5
#define MISC_MMAP_DATA    (1u << 13)
#define PROT_EXEC_BIT     4
#define MAP_HUGETLB_BIT   0x40000

struct sym_map {
	uint64_t start, end;
	uint64_t pgoff;           /* map_ip = addr - start + pgoff; anon and no-dso
				   * maps (map_ip is the address) have pgoff = start */
	struct sym_dso *dso;
};

struct sym_proc {
	int32_t pid;
	int used;
	struct sym_map *maps;     /* sorted by start, never overlapping */
	size_t nr, cap;
	uint32_t gen;             /* sym_machine_gen: changes with the maps */
};

/* ---- creation ---- */

static char *dup_or_null(const char *s, int *fail)
{
	char *d;

	if (!s)
		return NULL;
	d = strdup(s);
	if (!d)
		*fail = 1;
	return d;
}

struct sym_machine *sym_machine_new(const struct sym_opts *o)
{
	struct sym_machine *m = calloc(1, sizeof(*m));
	int fail = 0;

	if (!m)
		return NULL;
	if (o)
		m->o = *o;
	m->symfs = dup_or_null(m->o.symfs, &fail);
	m->kallsyms = dup_or_null(m->o.kallsyms, &fail);
	m->vmlinux = dup_or_null(m->o.vmlinux, &fail);
	if (m->o.buildid_dir) {
		m->buildid_dir = dup_or_null(m->o.buildid_dir, &fail);
	} else if (m->symfs && m->symfs[0]) {
		/* perf's symbol__config_symfs: the build-id cache is DIR/.debug */
		size_t n = strlen(m->symfs) + sizeof("/.debug");

		m->buildid_dir = malloc(n);
		if (m->buildid_dir)
			snprintf(m->buildid_dir, n, "%s/.debug", m->symfs);
		else
			fail = 1;
	} else {
		const char *home = getenv("HOME");
		size_t n = strlen(home ? home : "") + sizeof("/.debug");

		m->buildid_dir = malloc(n);
		if (m->buildid_dir)
			snprintf(m->buildid_dir, n, "%s/.debug", home ? home : "");
		else
			fail = 1;
	}
	/* perf's symbol__init: a symfs that is "/" (after realpath) is no
	 * symfs, though its build-id cache stays DIR/.debug */
	if (m->symfs && m->symfs[0]) {
		char *real = realpath(m->symfs, NULL);

		if (real && !strcmp(real, "/"))
			m->symfs[0] = 0;
		free(real);
	}
	m->nr_slots = 64;
	m->procs = calloc(m->nr_slots, sizeof(*m->procs));
	m->dso_slots = 256;
	m->dso_hash = calloc(m->dso_slots, sizeof(*m->dso_hash));
	if (fail || !m->procs || !m->dso_hash) {
		sym_machine_free(m);
		return NULL;
	}
	if (sym_debuginfod_init(&m->di)) {
		sym_machine_free(m);
		return NULL;
	}
	m->lctx.di = m->di.nr ? &m->di : NULL;
	m->lctx.symfs = m->symfs ? m->symfs : "";
	m->lctx.buildid_dir = m->buildid_dir;
	m->lctx.demangle = m->o.no_demangle ? SYM_DEMANGLE_NONE :
			   m->o.verbose ? SYM_DEMANGLE_FULL : SYM_DEMANGLE_SHORT;
	return m;
}

static void dso_free(struct sym_dso *d)
{
	sym_table_free(&d->tab);
	sym_dwarf_close(d->dw);
	sym_srccache_free(d);
	free(d->symsrc);
	free(d->name);
	free(d);
}

void sym_machine_set_prefetch(struct sym_machine *m, int on)
{
	m->o.prefetch_kernel = on;
}

void sym_machine_free(struct sym_machine *m)
{
	if (!m)
		return;
	sym_dsopre_stop(m->dpre);
	sym_machine_srcfiles_free(m);
	sym_debuginfod_free(&m->di);
	for (size_t i = 0; i < m->nr_slots && m->procs; i++)
		free(m->procs[i].maps);
	free(m->procs);
	for (size_t i = 0; i < m->dso_slots && m->dso_hash; i++) {
		struct sym_dso *d = m->dso_hash[i], *n;

		for (; d; d = n) {
			n = d->hnext;
			dso_free(d);
		}
	}
	free(m->dso_hash);
	free(m->resolved);
	if (m->kvm)
		dso_free(m->kvm);
	sym_kernel_free(m);
	if (m->code_path)             /* sym_code.c's open file */
		close(m->code_fd);
	free(m->code_path);
	sym_machine_warnings_free(m);
	free(m->symfs);
	free(m->kallsyms);
	free(m->vmlinux);
	free(m->buildid_dir);
	free(m);
}

/* ---- dsos, by name ---- */

static size_t hash_str(const char *s)
{
	size_t h = 5381;

	while (*s)
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static struct sym_dso *dso_find(struct sym_machine *m, const char *name)
{
	struct sym_dso *d = m->dso_hash[hash_str(name) & (m->dso_slots - 1)];

	for (; d; d = d->hnext)
		if (!strcmp(d->name, name))
			return d;
	return NULL;
}

static struct sym_dso *dso_findnew(struct sym_machine *m, const char *name, enum sym_dso_kind kind)
{
	struct sym_dso *d = dso_find(m, name);
	size_t h;
	const char *slash;

	if (d)
		return d;
	d = calloc(1, sizeof(*d));
	if (!d || !(d->name = strdup(name))) {
		free(d);
		return NULL;
	}
	slash = strrchr(d->name, '/');
	d->short_name = slash ? slash + 1 : d->name;
	d->kind = kind;
	d->seq = m->dso_seq++;
	if (kind == SYM_DSO_NONE)
		d->loaded = 1;
	sym_table_init(&d->tab);
	h = hash_str(name) & (m->dso_slots - 1);
	d->hnext = m->dso_hash[h];
	m->dso_hash[h] = d;
	return d;
}

static void set_bid(struct sym_dso *d, const unsigned char *id, size_t len)
{
	if (len > sizeof(d->bid))
		len = sizeof(d->bid);
	memcpy(d->bid, id, len);
	d->bid_len = len;
	d->has_bid = len > 0;
}

/* ---- per-pid maps ---- */

static struct sym_proc *proc_find(struct sym_machine *m, int32_t pid, int create)
{
	size_t mask = m->nr_slots - 1, i = ((uint32_t)pid * 2654435761u) & mask;

	while (m->procs[i].used) {
		if (m->procs[i].pid == pid)
			return &m->procs[i];
		i = (i + 1) & mask;
	}
	if (!create)
		return NULL;
	if ((m->nr_procs + 1) * 2 > m->nr_slots) {
		size_t ns = m->nr_slots * 2;
		struct sym_proc *np = calloc(ns, sizeof(*np));

		if (!np)
			return NULL;
		for (size_t j = 0; j < m->nr_slots; j++) {
			size_t k;

			if (!m->procs[j].used)
				continue;
			k = ((uint32_t)m->procs[j].pid * 2654435761u) & (ns - 1);
			while (np[k].used)
				k = (k + 1) & (ns - 1);
			np[k] = m->procs[j];
		}
		free(m->procs);
		m->procs = np;
		m->nr_slots = ns;
		m->last_valid = 0;
		return proc_find(m, pid, create);
	}
	m->procs[i].used = 1;
	m->procs[i].pid = pid;
	m->procs[i].gen = ++m->gen_seq;
	m->nr_procs++;
	m->last_valid = 0;
	return &m->procs[i];
}

static int maps_reserve(struct sym_proc *p, size_t more)
{
	if (p->nr + more > p->cap) {
		size_t cap = p->cap ? p->cap * 2 : 16;
		struct sym_map *nm;

		while (cap < p->nr + more)
			cap *= 2;
		nm = realloc(p->maps, cap * sizeof(*nm));
		if (!nm)
			return -1;
		p->maps = nm;
		p->cap = cap;
	}
	return 0;
}

/* index of the first map ending after @addr */
static size_t maps_lower(const struct sym_proc *p, uint64_t addr)
{
	size_t lo = 0, hi = p->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (p->maps[mid].end <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* perf's maps__fixup_overlappings then maps__insert: what the new map
 * covers is cut out of older maps, keeping their parts before and after. */
static int maps_insert(struct sym_proc *p, const struct sym_map *nm)
{
	size_t i, j, first;
	struct sym_map before = { 0 }, after = { 0 };
	int has_before = 0, has_after = 0;

	if (maps_reserve(p, 3))
		return -1;
	first = maps_lower(p, nm->start);
	for (j = first; j < p->nr && p->maps[j].start < nm->end; j++) {
		const struct sym_map *o = &p->maps[j];

		if (j == first && o->start < nm->start) {
			before = *o;
			before.end = nm->start;
			has_before = 1;
		}
		if (o->end > nm->end) {
			after = *o;
			after.start = nm->end;
			after.pgoff += nm->end - o->start;
			has_after = 1;
		}
	}
	/* replace maps[first, j) by before?, new, after? */
	{
		size_t nrep = (size_t)has_before + 1 + (size_t)has_after;
		size_t tail = p->nr - j;

		memmove(&p->maps[first + nrep], &p->maps[j], tail * sizeof(*p->maps));
		i = first;
		if (has_before)
			p->maps[i++] = before;
		p->maps[i++] = *nm;
		if (has_after)
			p->maps[i++] = after;
		p->nr = first + nrep + tail;
	}
	return 0;
}

static int is_anon(const char *f, uint32_t flags)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14) || (flags & MAP_HUGETLB_BIT);
}

static int is_no_dso(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

static int is_vdso(const char *f)
{
	return !strcmp(f, "[vdso]") || !strcmp(f, "[vdso32]") || !strcmp(f, "[vdsox32]");
}

/* ---- the DSOs' symbols read ahead ---- */

static int by_seq(const void *a, const void *b)
{
	const struct sym_dso *x = *(struct sym_dso *const *)a, *y = *(struct sym_dso *const *)b;

	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* From sym_machine_read_ahead or the first MMAP on, the build-id list's
 * files (the header came before): read on a thread of their own, in the
 * list's order, when the kernel's symbols are read ahead too, more than
 * one thread is allowed (sym_opts.one_thread: by CPUs and --threads) and
 * no server is to be asked. */
static void dpre_start(struct sym_machine *m)
{
	struct sym_dso **list;
	size_t n = 0;

	m->dpre_tried = 1;
	if (!m->o.prefetch_kernel || m->o.one_thread || m->lctx.di)
		return;
	list = malloc(m->dso_seq * sizeof(*list));
	for (size_t i = 0; list && i < m->dso_slots; i++)
		for (struct sym_dso *d = m->dso_hash[i]; d; d = d->hnext)
			if (d->kind == SYM_DSO_FILE && d->has_bid && !d->loaded)
				list[n++] = d;
	if (n) {
		qsort(list, n, sizeof(*list), by_seq);
		m->dpre = sym_dsopre_start(list, n, &m->lctx);
	}
	free(list);
}

void sym_machine_read_ahead(struct sym_machine *m)
{
	if (!m)
		return;
	sym_kernel_read_ahead(m);
	if (!m->dpre_tried)
		dpre_start(m);
}

int sym_machine_dso_load(struct sym_machine *m, struct sym_dso *d)
{
	if (d->pre && sym_dsopre_take(m->dpre, d, m->lctx.warning, sizeof(m->lctx.warning)))
		return 0;
	return sym_dso_load(d, &m->lctx);
}

int sym_machine_mmap(struct sym_machine *m, const struct sym_mmap *mm)
{
	struct sym_map nm = { 0 };
	struct sym_proc *p;
	const char *fname = mm->filename ? mm->filename : "";
	char jit[64];
	uint32_t prot = mm->prot;
	int anon, no_dso;
	uint16_t cpumode = mm->misc & MISC_CPUMODE_MASK;

	if (!m->dpre_tried)
		dpre_start(m);
	/* perf script without --guest: a guest kernel's MMAP goes to the
	 * host's kernel maps, a guest user's to the process's */
	if (cpumode == MISC_KERNEL || cpumode == MISC_GUEST_KERNEL)
		return sym_kernel_mmap(m, mm);
	if (mm->len == 0)
		return 0;
	if (!(mm->misc & MISC_MMAP_DATA) && mm->flags == 0 && mm->prot == 0)
		prot = PROT_EXEC_BIT;   /* MMAP (v1): perf assumes PROT_EXEC */
	anon = is_anon(fname, mm->flags);
	no_dso = is_no_dso(fname);
	if ((anon || no_dso) && (prot & PROT_EXEC_BIT)) {
		snprintf(jit, sizeof(jit), "/tmp/perf-%d.map", (int)mm->pid);
		fname = jit;
	}
	nm.start = mm->start;
	nm.end = mm->start + mm->len < mm->start ? UINT64_MAX : mm->start + mm->len;
	nm.pgoff = mm->pgoff;
	if (is_vdso(fname)) {
		nm.pgoff = 0;
		nm.dso = dso_findnew(m, "[vdso]", SYM_DSO_VDSO);
	} else if (fname == jit) {
		nm.dso = dso_findnew(m, fname, SYM_DSO_JIT);
	} else if (anon || no_dso) {
		nm.dso = dso_findnew(m, fname, SYM_DSO_NONE);
	} else {
		nm.dso = dso_findnew(m, fname, SYM_DSO_FILE);
	}
	if (!nm.dso)
		return TB_ERR_NOMEM;
	if (anon || no_dso)
		nm.pgoff = nm.start;    /* perf's identity__map_ip */
	if (mm->build_id_len && !nm.dso->loaded)
		set_bid(nm.dso, mm->build_id, mm->build_id_len);
	p = proc_find(m, mm->pid, 1);
	if (!p || maps_insert(p, &nm))
		return TB_ERR_NOMEM;
	p->gen = ++m->gen_seq;
	m->last_valid = 0;
	return 0;
}

int sym_machine_fork(struct sym_machine *m, int32_t pid, int32_t ppid, int32_t tid, int32_t ptid,
		     int clone_maps)
{
	struct sym_proc *child, *parent;

	if (pid == ppid)
		return 0;       /* a thread: it shares its process's maps */
	child = proc_find(m, pid, 1);
	if (!child)
		return TB_ERR_NOMEM;
	child->nr = 0;
	child->gen = ++m->gen_seq;
	parent = clone_maps ? proc_find(m, ppid, 0) : NULL;
	if (parent && parent->nr) {
		if (maps_reserve(child, parent->nr))
			return TB_ERR_NOMEM;
		memcpy(child->maps, parent->maps, parent->nr * sizeof(*parent->maps));
		child->nr = parent->nr;
	}
	m->last_valid = 0;
	return 0;
}

int sym_machine_exit(struct sym_machine *m, int32_t pid, int32_t tid)
{
	/* perf marks the thread dead; later samples still find its maps */
	return 0;
}

int sym_machine_buildid(struct sym_machine *m, int32_t pid, uint16_t cpumode,
			const char *filename, const unsigned char *id, size_t id_len)
{
	struct sym_dso *d;

	if (!filename || !id || !id_len)
		return 0;
	/* perf's __event_process_build_id: the space by the cpumode (unknown
	 * and hypervisor have none), the machine by the pid: -1 the host's,
	 * any other a guest's, which perf keeps apart */
	cpumode &= MISC_CPUMODE_MASK;
	if (cpumode != MISC_KERNEL && cpumode != MISC_USER && cpumode != MISC_GUEST_KERNEL &&
	    cpumode != MISC_GUEST_USER)
		return 0;
	if (m->o.verbose) {
		char hex[41];
		size_t n = id_len > 20 ? 20 : id_len;

		for (size_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		hex[2 * n] = 0;
		/* perf's __event_process_build_id (pr_debug) */
		sym_machine_warn(m, "build id event received for %s: %s [%zu]", filename, hex, n);
	}
	if (pid != -1)
		return 0;
	if (cpumode == MISC_KERNEL || cpumode == MISC_GUEST_KERNEL) {
		/* the kernel's; modules have no maps here */
		if (!strcmp(filename, sym_kernel_name)) {
			sym_kernel_change(m);     /* it picks the kallsyms file */
			memcpy(m->kbid, id, id_len > 20 ? 20 : id_len);
			m->kbid_len = id_len > 20 ? 20 : id_len;
			m->kbid_set = 1;
		}
		return 0;
	}
	d = dso_findnew(m, filename, is_vdso(filename) ? SYM_DSO_VDSO : SYM_DSO_FILE);
	if (!d)
		return TB_ERR_NOMEM;
	if (!d->loaded)
		set_bid(d, id, id_len);
	return 0;
}

/* ---- resolving ---- */

static const struct sym_map *find_map(struct sym_machine *m, int32_t pid, uint64_t addr)
{
	struct sym_proc *p;
	size_t i;

	if (m->last_valid && m->last_pid == pid) {
		const struct sym_map *lm = &m->last_proc->maps[m->last_map];

		if (addr >= lm->start && addr < lm->end)
			return lm;
		p = m->last_proc;
	} else {
		p = proc_find(m, pid, 0);
		if (!p)
			return NULL;
	}
	i = maps_lower(p, addr);
	if (i >= p->nr || p->maps[i].start > addr)
		return NULL;
	m->last_valid = 1;
	m->last_pid = pid;
	m->last_proc = p;
	m->last_map = i;
	return &p->maps[i];
}

uint32_t sym_machine_gen(struct sym_machine *m, int32_t pid, uint16_t cpumode)
{
	const struct sym_proc *p;

	cpumode &= MISC_CPUMODE_MASK;
	if (cpumode == MISC_KERNEL)
		return m->kgen;
	if (cpumode != MISC_USER)
		return 0;
	if (m->last_valid && m->last_pid == pid)
		return m->last_proc->gen;
	p = proc_find(m, pid, 0);
	return p ? p->gen : 0;
}

int sym_machine_map_of(struct sym_machine *m, int32_t pid, uint64_t addr, const void **dso,
		       uint64_t *map_ip, uint64_t *map_start)
{
	const struct sym_map *map = find_map(m, pid, addr);

	if (!map)
		return 0;
	*dso = map->dso;
	*map_ip = addr - map->start + map->pgoff;
	*map_start = map->start;
	return 1;
}

struct sym_dso *sym_machine_dso_at(struct sym_machine *m, int32_t pid, uint64_t addr,
				   uint64_t *map_ip)
{
	const struct sym_map *map = find_map(m, pid, addr);

	if (!map || !map->dso)
		return NULL;
	*map_ip = addr - map->start + map->pgoff;
	return map->dso;
}

/*
 * Addresses already resolved, as stacks repeat them: a kernel address's
 * whole answer while the kernel's maps stay (kgen), a user address's
 * symbol by its DSO and its address in it (the DSO's symbols stay once
 * loaded). Direct-mapped, 4,096 slots (some 600 KB); callgrind on
 * stackcollapse.py over the report-stacks profile: 450 instructions an
 * address to 180.
 */
#define RESOLVED_BITS 12
struct sym_resolved {
	const void *dso;          /* NULL: a kernel address */
	uint64_t addr;            /* kernel: the address; user: in the DSO */
	uint32_t kgen;
	int used;
	struct sym_loc l;         /* user: sym, sym_start, sym_end, binding only */
};

static struct sym_resolved *resolved_slot(struct sym_machine *m, const void *dso, uint64_t addr)
{
	uint64_t h = (addr ^ (uint64_t)(uintptr_t)dso * 0xff51afd7ed558ccdULL) *
		     0x9e3779b97f4a7c15ULL;

	if (!m->resolved && !(m->resolved = calloc(1u << RESOLVED_BITS, sizeof(*m->resolved))))
		return NULL;
	return &m->resolved[h >> (64 - RESOLVED_BITS)];
}

static void kernel_resolve(struct sym_machine *m, uint64_t addr, struct sym_loc *out)
{
	struct sym_resolved *r;

	sym_kernel_change(m);     /* what was held comes first (report_print.c) */
	r = resolved_slot(m, NULL, addr);
	if (r && r->used && !r->dso && r->addr == addr && r->kgen == m->kgen) {
		*out = r->l;
		return;
	}
	sym_kernel_resolve(m, addr, out);
	if (r)
		*r = (struct sym_resolved){ .addr = addr, .kgen = m->kgen, .used = 1, .l = *out };
}

int sym_machine_resolve(struct sym_machine *m, int32_t pid, uint16_t cpumode,
			uint64_t addr, struct sym_loc *out)
{
	const struct sym_map *map;
	struct sym_dso *d;
	const struct sym_entry *e;
	struct sym_resolved *k;

	memset(out, 0, sizeof(*out));
	out->dso = sym_unknown_name;
	out->dso_short = sym_unknown_name;
	cpumode &= MISC_CPUMODE_MASK;
	if (cpumode == MISC_KERNEL) {
		kernel_resolve(m, addr, out);
		goto symoff;
	}
	if (cpumode != MISC_USER)
		return 0;
	map = find_map(m, pid, addr);
	if (!map)
		return 0;
	d = map->dso;
	out->have_map = 1;
	out->dso = d->name;
	out->dso_short = d->short_name;
	out->map_start = map->start;
	out->map_end = map->end;
	if (d->has_bid) {
		out->build_id = d->bid;
		out->build_id_len = d->bid_len;
	}
	out->map_ip = addr - map->start + map->pgoff;
	if (!d->loaded) {
		int r = sym_machine_dso_load(m, d);

		if (m->di.warning[0] && !m->di_told) {
			m->di_told = 1;
			sym_machine_warn(m, "%s", m->di.warning);
		}
		if (m->lctx.warning[0]) {
			sym_machine_warn(m, "%s", m->lctx.warning);
			m->lctx.warning[0] = 0;
		}
		if (r)
			return r;
	}
	k = resolved_slot(m, d, out->map_ip);
	if (k && k->used && k->dso == d && k->addr == out->map_ip) {
		out->sym = k->l.sym;
		out->sym_start = k->l.sym_start;
		out->sym_end = k->l.sym_end;
		out->binding = k->l.binding;
		goto symoff;
	}
	e = sym_table_find(&d->tab, out->map_ip);
	if (e) {
		if (!(out->sym = sym_table_shown(&d->tab, e)) && errno == ENOMEM)
			return TB_ERR_NOMEM;
		if (out->sym) {   /* else its file changed since: [unknown] */
			out->sym_start = e->start;
			out->sym_end = sym_end(e);
			out->binding = sym_bind(e) & ~SYM_FLAGS;    /* a flag of ours */
		}
	}
	if (k && (!e || out->sym))        /* a file that changed is asked again */
		*k = (struct sym_resolved){ .dso = d, .addr = out->map_ip, .used = 1, .l = *out };
symoff:
	/* perf's __symbol__fprintf_symname_offs */
	if (out->sym)
		out->symoff = out->map_ip < out->sym_end ? out->map_ip - out->sym_start :
			      out->map_ip - out->map_start - out->sym_start;
	return 0;
}
