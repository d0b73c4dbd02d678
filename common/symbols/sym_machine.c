/* sym_machine.c - perf's host machine for symbols: the kernel map, the
 * maps of each pid (MMAP/MMAP2/FORK as perf's machine__process_* do) and
 * the DSOs they map, resolved on demand with a one-entry cache. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "symbols/ksyms.h"
#include "symbols/sym_dso.h"
#include "symbols/sym_elf.h"
#include "symbols/elf_buildid.h"
#include "symbols/symbols.h"
#include "util/tb_err.h"

#define MISC_CPUMODE_MASK 7
#define MISC_KERNEL       1
#define MISC_USER         2
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

struct sym_machine {
	struct sym_opts o;
	char *symfs, *kallsyms, *vmlinux, *buildid_dir;

	struct sym_proc *procs;   /* open addressing by pid */
	size_t nr_slots, nr_procs;

	struct sym_dso **dso_hash;
	size_t dso_slots;
	struct sym_dso *dso_list; /* every dso, for freeing (via hnext chains) */

	/* the kernel: a map once the recording's MMAP of [kernel.kallsyms] came */
	int have_kmap, kloaded;
	uint64_t kstart, kend;
	char kref[64];            /* its reference symbol ("_text"), at address kref_addr */
	uint64_t kref_addr;
	uint64_t kdelta;          /* kallsyms address - recorded address (perf's kallsyms__delta) */
	unsigned char kbid[20];
	size_t kbid_len;
	int kbid_set;
	struct ksyms *ks;         /* kallsyms */
	/* kallsyms read ahead on a second thread from the kernel's MMAP on
	 * (sym_opts.prefetch_kernel), taken by kernel_load */
	pthread_t kpre_thread;
	int kpre_on, kpre_rc;
	struct ksyms *kpre;
	char kpre_path[4096], kpre_ref[64];
	struct sym_dso *kvm;      /* -k VMLINUX: its ELF symbols */
	char **kmod_names;        /* "[mod]" strings, one per module seen */
	size_t nr_kmods;

	/* the last user map hit */
	int32_t last_pid;
	struct sym_proc *last_proc;
	size_t last_map;
	int last_valid;
	uint32_t gen_seq, kgen;   /* sym_machine_gen: the last one given, the kernel's */

	char **warnings;
	size_t nr_warnings, next_warning;
	struct sym_load_ctx lctx;
};

static const char unknown_name[] = "[unknown]";
static const char kernel_name[] = "[kernel.kallsyms]";

/* ---- warnings ---- */

static void warn(struct sym_machine *m, const char *fmt, ...)
{
	char buf[512], **nw;
	va_list ap;

	if (m->nr_warnings >= 1000)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	nw = realloc(m->warnings, (m->nr_warnings + 1) * sizeof(*nw));
	if (!nw)
		return;
	m->warnings = nw;
	if ((nw[m->nr_warnings] = strdup(buf)))
		m->nr_warnings++;
}

const char *sym_machine_next_warning(struct sym_machine *m)
{
	if (!m || m->next_warning >= m->nr_warnings)
		return NULL;
	return m->warnings[m->next_warning++];
}

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
	m->nr_slots = 64;
	m->procs = calloc(m->nr_slots, sizeof(*m->procs));
	m->dso_slots = 256;
	m->dso_hash = calloc(m->dso_slots, sizeof(*m->dso_hash));
	if (fail || !m->procs || !m->dso_hash) {
		sym_machine_free(m);
		return NULL;
	}
	m->lctx.symfs = m->symfs ? m->symfs : "";
	m->lctx.buildid_dir = m->buildid_dir;
	m->lctx.demangle = !m->o.no_demangle;
	return m;
}

static void dso_free(struct sym_dso *d)
{
	sym_table_free(&d->tab);
	free(d->name);
	free(d);
}

static void kpre_start(struct sym_machine *m);
static struct ksyms *kpre_take(struct sym_machine *m, const char *path, int *rc);

void sym_machine_set_prefetch(struct sym_machine *m, int on)
{
	m->o.prefetch_kernel = on;
}

void sym_machine_free(struct sym_machine *m)
{
	if (!m)
		return;
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
	if (m->kvm)
		dso_free(m->kvm);
	ksyms_free(kpre_take(m, "", &(int){ 0 }));
	ksyms_free(m->ks);
	for (size_t i = 0; i < m->nr_kmods; i++)
		free(m->kmod_names[i]);
	free(m->kmod_names);
	for (size_t i = 0; i < m->nr_warnings; i++)
		free(m->warnings[i]);
	free(m->warnings);
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

static int kernel_mmap(struct sym_machine *m, const struct sym_mmap *mm)
{
	if (strncmp(mm->filename, kernel_name, sizeof(kernel_name) - 2))
		return 0;       /* modules and extra kernel maps: not handled */
	m->kgen = ++m->gen_seq;
	m->have_kmap = 1;
	m->kstart = mm->start;
	m->kend = mm->start + mm->len < mm->start ? UINT64_MAX : mm->start + mm->len;
	if (mm->start == 0 && mm->len == 0)
		m->kend = UINT64_MAX;
	if (mm->build_id_len) {
		memcpy(m->kbid, mm->build_id, mm->build_id_len > 20 ? 20 : mm->build_id_len);
		m->kbid_len = mm->build_id_len > 20 ? 20 : mm->build_id_len;
		m->kbid_set = 1;
	}
	/* perf's map__set_kallsyms_ref_reloc_sym, unless kptr_restrict hid it */
	snprintf(m->kref, sizeof(m->kref), "%s", mm->filename + sizeof(kernel_name) - 1);
	m->kref_addr = mm->pgoff;
	kpre_start(m);
	return 0;
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

	if (cpumode == MISC_KERNEL || cpumode == 5 /* guest kernel */)
		return kernel_mmap(m, mm);
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
	if (m->o.verbose) {
		char hex[41];
		size_t n = id_len > 20 ? 20 : id_len;

		for (size_t i = 0; i < n; i++)
			snprintf(hex + 2 * i, 3, "%02x", id[i]);
		hex[2 * n] = 0;
		/* perf's __event_process_build_id (pr_debug) */
		warn(m, "build id event received for %s: %s [%zu]", filename, hex, n);
	}
	cpumode &= MISC_CPUMODE_MASK;
	if (cpumode == MISC_KERNEL || cpumode == 5) {
		/* the kernel's; modules have no maps here */
		if (!strcmp(filename, kernel_name)) {
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

/* ---- the kernel ---- */

static int file_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* the running kernel's build-id, from /sys/kernel/notes */
static size_t host_kernel_bid(unsigned char *out)
{
	unsigned char buf[4096];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	int len;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	if (n <= 0)
		return 0;
	len = buildid_notes(buf, (size_t)n, out);
	return len > 0 ? (size_t)len : 0;
}

static const char *kallsyms_path(struct sym_machine *m, char *buf, size_t n, int quiet)
{
	unsigned char hb[20];
	size_t hl;
	char hex[41];

	if (m->kallsyms)
		return m->kallsyms;
	if (m->symfs && m->symfs[0])
		return NULL;
	if (!m->kbid_set)
		return "/proc/kallsyms";
	hl = host_kernel_bid(hb);
	if (hl && hl == m->kbid_len && !memcmp(hb, m->kbid, hl))
		return "/proc/kallsyms";
	buildid_hex(m->kbid, (int)m->kbid_len, hex);
	snprintf(buf, n, "%s/[kernel.kallsyms]/%s/kallsyms", m->buildid_dir, hex);
	if (file_exists(buf))
		return buf;
	if (!quiet)
		warn(m, "No kallsyms or vmlinux with build-id %s was found", hex);
	return NULL;
}

static void *kpre_main(void *arg)
{
	struct sym_machine *m = arg;

	m->kpre_rc = ksyms_load_path(m->kpre, m->kpre_path);
	return NULL;
}

/* Start reading kallsyms on a second thread: it is the longest single
 * wait of a profile's report (the kernel formats 100,000+ lines) and the
 * first kernel frame comes later. Nothing happens if it cannot start. */
static void kpre_start(struct sym_machine *m)
{
	char buf[4096];
	const char *path;

	if (m->kpre_on || m->kloaded || m->vmlinux || !m->o.prefetch_kernel ||
	    !(path = kallsyms_path(m, buf, sizeof(buf), 1)) || strlen(path) >= sizeof(m->kpre_path))
		return;
	snprintf(m->kpre_path, sizeof(m->kpre_path), "%s", path);
	snprintf(m->kpre_ref, sizeof(m->kpre_ref), "%s", m->kref);
	if (!(m->kpre = ksyms_attach(NULL, m->kpre_path, NULL)))
		return;
	ksyms_set_ref(m->kpre, m->kpre_ref);
	if (pthread_create(&m->kpre_thread, NULL, kpre_main, m)) {
		ksyms_free(m->kpre);
		m->kpre = NULL;
		return;
	}
	m->kpre_on = 1;
}

/* Wait for the read-ahead; it serves if it read @path for the same reference
 * symbol. Returns its ksyms (and its load's result in *@rc), or NULL. */
static struct ksyms *kpre_take(struct sym_machine *m, const char *path, int *rc)
{
	struct ksyms *k;

	if (!m->kpre_on)
		return NULL;
	pthread_join(m->kpre_thread, NULL);
	m->kpre_on = 0;
	k = m->kpre;
	m->kpre = NULL;
	if (strcmp(path, m->kpre_path) || strcmp(m->kref, m->kpre_ref)) {
		ksyms_free(k);
		return NULL;
	}
	*rc = m->kpre_rc;
	return k;
}

static void kernel_load(struct sym_machine *m)
{
	char buf[4096];
	const char *path;
	int rc = -1;

	m->kloaded = 1;
	if (m->vmlinux) {
		struct sym_dso *d = calloc(1, sizeof(*d));

		if (!d || !(d->name = strdup(kernel_name))) {
			free(d);
			return;
		}
		d->short_name = d->name;
		d->kind = SYM_DSO_FILE;
		sym_table_init(&d->tab);
		m->kvm = d;
		{
			struct sym_vmlinux v = { .bid = m->kbid_set ? m->kbid : NULL,
						 .bid_len = m->kbid_set ? m->kbid_len : 0,
						 .ref = m->kref };

			if (sym_elf_load_kernel(m->vmlinux, &d->tab, &m->lctx, &v) <= 0) {
				if (m->lctx.warning[0])
					warn(m, "%s", m->lctx.warning);
			} else if (m->o.verbose) {
				warn(m, "Using %s for symbols", m->vmlinux);
			}
			/* perf: the kernel map becomes .text, moved as the
			 * recording's _text is from the vmlinux's (KASLR) */
			if (v.has_ref && m->kref_addr)
				m->kdelta = v.ref_value - m->kref_addr;
			if (v.has_text) {
				m->kstart = v.text_addr - m->kdelta;
				m->kend = v.text_addr + v.text_size - m->kdelta;
			}
		}
		m->lctx.warning[0] = 0;
		d->loaded = 1;
		return;
	}
	path = kallsyms_path(m, buf, sizeof(buf), 0);
	if (!path) {
		ksyms_free(kpre_take(m, "", &rc));
		return;
	}
	if (!(m->ks = kpre_take(m, path, &rc))) {
		m->ks = ksyms_attach(NULL, path, NULL);
		if (!m->ks)
			return;
		ksyms_set_ref(m->ks, m->kref);
		rc = ksyms_load_path(m->ks, path);
	}
	if (rc < 0) {
		warn(m, "%s: cannot read kernel symbols", path);
	} else if (m->kref_addr && m->kref[0]) {
		/* perf's kallsyms__delta: the file's reference symbol against the
		 * recording's; without it perf uses no kernel symbols */
		uint64_t a;

		if (ksyms_ref(m->ks, &a)) {
			warn(m, "%s: no %s symbol to relate it to the recording's kernel map, "
			     "kernel symbols not used", path, m->kref);
			ksyms_free(m->ks);
			m->ks = NULL;
			return;
		}
		m->kdelta = a - m->kref_addr;
	}
	if (m->ks && m->o.verbose)
		warn(m, "Using %s for symbols", path);     /* perf's dso__load_kernel_sym */
	if (m->ks) {
		/* perf's map__fixup_start/end: the kernel map spans its symbols */
		uint64_t first, last;

		if (ksyms_range(m->ks, &first, &last) == 0) {
			m->kstart = first - m->kdelta;
			m->kend = last - m->kdelta;
		}
	}
}

static const char *kmod_name(struct sym_machine *m, const char *mod)
{
	char buf[128], **nn;

	snprintf(buf, sizeof(buf), "[%s]", mod);
	for (size_t i = 0; i < m->nr_kmods; i++)
		if (!strcmp(m->kmod_names[i], buf))
			return m->kmod_names[i];
	nn = realloc(m->kmod_names, (m->nr_kmods + 1) * sizeof(*nn));
	if (!nn)
		return kernel_name;
	m->kmod_names = nn;
	if (!(nn[m->nr_kmods] = strdup(buf)))
		return kernel_name;
	return nn[m->nr_kmods++];
}

static void resolve_kernel(struct sym_machine *m, uint64_t addr, struct sym_loc *out)
{
	uint64_t start, end;
	const char *name, *mod = NULL;

	if (!m->have_kmap)
		return;
	if (addr < m->kstart || addr >= m->kend)
		return;
	/* perf finds the map, then loads it (which may move its bounds) */
	if (!m->kloaded)
		kernel_load(m);
	out->have_map = 1;
	out->is_kernel = 1;
	out->dso = kernel_name;
	out->dso_short = kernel_name;
	out->map_ip = addr;
	out->map_start = m->kstart;
	out->map_end = m->kend;
	if (m->kbid_set) {
		out->build_id = m->kbid;
		out->build_id_len = m->kbid_len;
	}
	if (m->kvm) {
		const struct sym_entry *e;

		if (addr < m->kstart || addr >= m->kend) {    /* outside .text */
			memset(out, 0, sizeof(*out));
			out->dso = out->dso_short = unknown_name;
			return;
		}
		e = sym_table_find(&m->kvm->tab, addr + m->kdelta);
		if (e) {
			out->sym = sym_table_name(&m->kvm->tab, e);
			out->sym_start = e->start - m->kdelta;
			out->sym_end = sym_end(e) - m->kdelta;
			out->binding = sym_bind(e);
		}
	} else if (m->ks && (name = ksyms_lookup_range(m->ks, addr + m->kdelta, &start, &end,
						       &mod))) {
		out->sym = name;
		out->sym_start = start - m->kdelta;
		out->sym_end = end - m->kdelta;
		out->binding = ksyms_binding(m->ks, addr + m->kdelta);
		if (mod) {
			out->dso = kmod_name(m, mod);
			out->dso_short = out->dso;
		}
	}
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

int sym_machine_resolve(struct sym_machine *m, int32_t pid, uint16_t cpumode,
			uint64_t addr, struct sym_loc *out)
{
	const struct sym_map *map;
	struct sym_dso *d;
	const struct sym_entry *e;

	memset(out, 0, sizeof(*out));
	out->dso = unknown_name;
	out->dso_short = unknown_name;
	cpumode &= MISC_CPUMODE_MASK;
	if (cpumode == MISC_KERNEL) {
		resolve_kernel(m, addr, out);
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
		int r = sym_dso_load(d, &m->lctx);

		if (m->lctx.warning[0]) {
			warn(m, "%s", m->lctx.warning);
			m->lctx.warning[0] = 0;
		}
		if (r)
			return r;
	}
	e = sym_table_find(&d->tab, out->map_ip);
	if (e) {
		if (!(out->sym = sym_table_shown(&d->tab, e)) && errno == ENOMEM)
			return TB_ERR_NOMEM;
		if (!out->sym)
			goto symoff;      /* its file changed since: [unknown] */
		out->sym_start = e->start;
		out->sym_end = sym_end(e);
		out->binding = sym_bind(e);
	}
symoff:
	/* perf's __symbol__fprintf_symname_offs */
	if (out->sym)
		out->symoff = out->map_ip < out->sym_end ? out->map_ip - out->sym_start :
			      out->map_ip - out->map_start - out->sym_start;
	return 0;
}
