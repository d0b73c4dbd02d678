/* sym_kernel.c - the kernel of the symbols machine: its map from the
 * recording's MMAP, its symbols from kallsyms (read ahead on a second
 * thread), the build-id cache or a vmlinux (-k), as perf 6.1's host
 * machine finds them, and kernel addresses resolved against them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbols/elf_buildid.h"
#include "symbols/ksyms.h"
#include "symbols/sym_dso.h"
#include "symbols/sym_elf.h"
#include "symbols/sym_machine_int.h"
#include "symbols/symbols.h"
#include "util/tb_err.h"

static void kpre_start(struct sym_machine *m, const char *ref);
static struct ksyms *kpre_take(struct sym_machine *m, const char *path, int *rc);

static const char *kmod_name(struct sym_machine *m, const char *mod);

/* A module's map, as perf's machine__process_kernel_mmap_event makes it:
 * the "[mod]" name from the record ("[mod]", or a path to mod.ko[.xz|.gz],
 * '-' read as '_'), replacing any map it overlaps. 0 or TB_ERR_NOMEM. */
static int module_mmap(struct sym_machine *m, const struct sym_mmap *mm)
{
	const char *f = mm->filename, *base = strrchr(f, '/');
	char mod[64];
	size_t n, k = 0;
	struct sym_kmap *t;

	base = base ? base + 1 : f;
	if (f[0] == '[') {
		n = strcspn(f + 1, "]");
		base = f + 1;
	} else {
		n = strcspn(base, ".");
	}
	if (!n || n >= sizeof(mod) || !mm->len)
		return 0;
	for (size_t i = 0; i < n; i++)
		mod[i] = base[i] == '-' ? '_' : base[i];
	mod[n] = 0;
	for (size_t i = 0; i < m->nr_kmaps; i++)      /* a reload replaces */
		if (m->kmaps[i].end <= mm->start || m->kmaps[i].start >= mm->start + mm->len)
			m->kmaps[k++] = m->kmaps[i];
	m->nr_kmaps = k;
	if (!(t = realloc(m->kmaps, (m->nr_kmaps + 1) * sizeof(*t))))
		return TB_ERR_NOMEM;
	m->kmaps = t;
	t[m->nr_kmaps].start = mm->start;
	t[m->nr_kmaps].end = mm->start + mm->len < mm->start ? UINT64_MAX : mm->start + mm->len;
	t[m->nr_kmaps].name = kmod_name(m, mod);
	t[m->nr_kmaps].ksym = 0;
	m->nr_kmaps++;
	m->kgen = ++m->gen_seq;
	return 0;
}

void sym_kernel_change(struct sym_machine *m)
{
	if (m->khook)
		m->khook(m->khook_ctx);
}

void sym_machine_set_kernel_hook(struct sym_machine *m, void (*fn)(void *ctx), void *ctx)
{
	m->khook = fn;
	m->khook_ctx = ctx;
}

int sym_kernel_mmap(struct sym_machine *m, const struct sym_mmap *mm)
{
	sym_kernel_change(m);
	if (strncmp(mm->filename, sym_kernel_name, sizeof(sym_kernel_name) - 2))
		return module_mmap(m, mm);
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
	snprintf(m->kref, sizeof(m->kref), "%s", mm->filename + sizeof(sym_kernel_name) - 1);
	m->kref_addr = mm->pgoff;
	kpre_start(m, m->kref);
	return 0;
}

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
		sym_machine_warn(m, "No kallsyms or vmlinux with build-id %s was found", hex);
	return NULL;
}

static void *kpre_main(void *arg)
{
	struct sym_machine *m = arg;

	m->kpre_rc = ksyms_load_path(m->kpre, m->kpre_path, &m->kpre_err);
	atomic_store(&m->kpre_done, 1);
	return NULL;
}

/* Start reading kallsyms on a second thread, for the reference symbol
 * @ref: it is the longest single wait of a profile's report (the kernel
 * formats 100,000+ lines) and the first kernel frame comes later. Nothing
 * happens if it cannot start. */
static void kpre_start(struct sym_machine *m, const char *ref)
{
	char buf[4096];
	const char *path;
	sigset_t all, old;
	int started;

	if (m->kpre_on || m->kloaded || m->vmlinux || !m->o.prefetch_kernel ||
	    !(path = kallsyms_path(m, buf, sizeof(buf), 1)) || strlen(path) >= sizeof(m->kpre_path))
		return;
	snprintf(m->kpre_path, sizeof(m->kpre_path), "%s", path);
	snprintf(m->kpre_ref, sizeof(m->kpre_ref), "%s", ref);
	if (!(m->kpre = ksyms_attach(NULL, m->kpre_path, NULL)))
		return;
	ksyms_set_ref(m->kpre, m->kpre_ref);
	memset(&m->kpre_err, 0, sizeof(m->kpre_err));
	atomic_store(&m->kpre_done, 0);
	/* signals go to the thread that prints */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	started = pthread_create(&m->kpre_thread, NULL, kpre_main, m) == 0;
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (!started) {
		ksyms_free(m->kpre);
		m->kpre = NULL;
		return;
	}
	m->kpre_on = 1;
}

int sym_machine_kernel_pending(struct sym_machine *m)
{
	return m->kpre_on && !m->kloaded && !m->o.one_thread && !atomic_load(&m->kpre_done);
}

void sym_kernel_read_ahead(struct sym_machine *m)
{
	/* the reference symbol perf records ("[kernel.kallsyms]_text"); the
	 * kernel's MMAP, when it names another, makes kpre_take drop this */
	kpre_start(m, m->have_kmap ? m->kref : "_text");
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

/* the kernel's symbols from its vmlinux (-k) or kallsyms; its map then
 * spans them (perf's map__fixup_start/end) */
static void kernel_load_symbols(struct sym_machine *m)
{
	char buf[4096];
	const char *path;
	int rc = -1;
	struct tb_err kerr = { 0 };

	m->kloaded = 1;
	if (m->vmlinux) {
		struct sym_dso *d = calloc(1, sizeof(*d));

		if (!d || !(d->name = strdup(sym_kernel_name))) {
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
					sym_machine_warn(m, "%s", m->lctx.warning);
			} else if (m->o.verbose) {
				sym_machine_warn(m, "Using %s for symbols", m->vmlinux);
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
		rc = ksyms_load_path(m->ks, path, &kerr);
	} else {
		kerr = m->kpre_err;
	}
	if (rc < 0 && kerr.code) {          /* not a regular file, too large, unreadable */
		sym_machine_warn(m, "%s, kernel symbols not used", kerr.msg);
	} else if (rc < 0) {
		sym_machine_warn(m, "%s: cannot read kernel symbols", path);
	} else if (m->kref_addr) {
		/* perf's kallsyms__delta: the file's reference symbol against the
		 * recording's; without it perf uses no kernel symbols. A kernel
		 * map naming none ("[kernel.kallsyms]") with an address has the
		 * empty name, which no symbol has: none either, as in perf */
		uint64_t a;

		if (ksyms_ref(m->ks, &a)) {
			sym_machine_warn(m, "%s: no %s%s%s symbol to relate it to the recording's kernel "
					 "map, kernel symbols not used", path, m->kref[0] ? "" : "(",
					 m->kref[0] ? m->kref : "unnamed", m->kref[0] ? "" : ")");
			ksyms_free(m->ks);
			m->ks = NULL;
			return;
		}
		m->kdelta = a - m->kref_addr;
	}
	if (m->ks && m->o.verbose)
		sym_machine_warn(m, "Using %s for symbols", path);     /* perf's dso__load_kernel_sym */
	if (m->ks) {
		/* perf's map__fixup_start/end: the kernel map spans its symbols */
		uint64_t first, last;

		if (ksyms_range(m->ks, &first, &last) == 0) {
			m->kstart = first - m->kdelta;
			m->kend = last - m->kdelta;
		}
	}
}

/* kernel_load_symbols, once; a move of the kernel's map makes what was
 * looked up before it stale (an address past the recording's map that a
 * KSYMBOL or module map named is the kernel's now, as in perf) */
static void kernel_load(struct sym_machine *m)
{
	uint64_t start = m->kstart, end = m->kend;

	kernel_load_symbols(m);
	if (m->kstart != start || m->kend != end)
		m->kgen = ++m->gen_seq;
}

static const char *kmod_name(struct sym_machine *m, const char *mod)
{
	char buf[128];
	const char *k;

	snprintf(buf, sizeof(buf), "[%s]", mod);
	return (k = strset_add(&m->knames, buf)) ? k : sym_kernel_name;
}

/* the module or KSYMBOL map holding @addr, or NULL */
static struct sym_kmap *kmap_at(struct sym_machine *m, uint64_t addr)
{
	for (size_t i = 0; i < m->nr_kmaps; i++)
		if (addr >= m->kmaps[i].start && addr < m->kmaps[i].end)
			return &m->kmaps[i];
	return NULL;
}

/*
 * perf 6.1's machine__process_ksymbol: code the kernel made at run time
 * outside its map (BPF programs, trampolines) is a map of the record's
 * name and length, its one symbol of that name, until an unregister
 * record removes the map holding its address. A register inside a known
 * map adds nothing here (perf adds a symbol at that map's start); an
 * unregister inside the kernel's map is passed over (perf drops the
 * symbol at the kernel's start).
 */
int sym_machine_ksymbol(struct sym_machine *m, uint64_t addr, uint32_t len, int unregister,
			const char *name)
{
	struct sym_kmap *km, *t;
	int in_kernel;

	sym_kernel_change(m);
	km = kmap_at(m, addr);
	in_kernel = m->have_kmap && addr >= m->kstart && addr < m->kend;
	if (unregister) {
		if (!km)
			return 0;
		memmove(km, km + 1, (size_t)(m->kmaps + --m->nr_kmaps - km) * sizeof(*km));
		m->kgen = ++m->gen_seq;
		return 0;
	}
	if (km || in_kernel || !len)
		return 0;
	if (!(t = realloc(m->kmaps, (m->nr_kmaps + 1) * sizeof(*t))))
		return TB_ERR_NOMEM;
	m->kmaps = t;
	t += m->nr_kmaps;
	if (!(t->name = strset_add(&m->knames, name)))
		return TB_ERR_NOMEM;
	t->start = addr;
	t->end = addr + len < addr ? UINT64_MAX : addr + len;
	t->ksym = 1;
	m->nr_kmaps++;
	m->kgen = ++m->gen_seq;
	return 0;
}

/* An address in a module's or KSYMBOL map @km: a module's symbol from
 * kallsyms (the module's own lines, "[mod]"), a KSYMBOL map's its own; the
 * map's name as the DSO. */
static void kmap_resolve(struct sym_machine *m, const struct sym_kmap *km, uint64_t addr,
			 struct sym_loc *out)
{
	uint64_t start, end;
	const char *name, *mod = NULL;

	out->have_map = 1;
	out->is_kernel = 1;
	out->dso = out->dso_short = km->name;
	/* perf's module and KSYMBOL maps are relative, as a .ko's symbols */
	out->map_ip = addr - km->start;
	out->map_start = km->start;
	out->map_end = km->end;
	if (km->ksym) {         /* loaded as it came: kallsyms not read for it */
		/* its one symbol is the whole map */
		out->sym = km->name;
		out->sym_start = 0;
		out->sym_end = km->end - km->start;
		out->binding = 0;
		return;
	}
	if (!m->kloaded)
		kernel_load(m);
	if (m->ks && (name = ksyms_lookup_range(m->ks, addr + m->kdelta, &start, &end, &mod)) &&
	    mod && !strcmp(kmod_name(m, mod), km->name)) {
		out->sym = name;
		out->sym_start = start - m->kdelta - km->start;
		out->sym_end = end - m->kdelta - km->start;
		out->binding = ksyms_binding(m->ks, addr + m->kdelta);
	}
}

void sym_kernel_resolve(struct sym_machine *m, uint64_t addr, struct sym_loc *out)
{
	uint64_t start, end;
	const char *name, *mod = NULL;

	if (!m->have_kmap || addr < m->kstart || addr >= m->kend) {
		const struct sym_kmap *km = kmap_at(m, addr);

		/* without the kernel's MMAP, KSYMBOL maps are still perf's maps */
		if (km && (m->have_kmap || km->ksym))
			kmap_resolve(m, km, addr, out);
		return;
	}
	/* perf finds the map, then loads it (which may move its bounds) */
	if (!m->kloaded)
		kernel_load(m);
	out->have_map = 1;
	out->is_kernel = 1;
	out->dso = sym_kernel_name;
	out->dso_short = sym_kernel_name;
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
			out->dso = out->dso_short = sym_unknown_name;
			return;
		}
		e = sym_table_find(&m->kvm->tab, addr + m->kdelta);
		if (e) {
			out->sym = sym_table_name(&m->kvm->tab, e);
			out->sym_start = e->start - m->kdelta;
			out->sym_end = sym_end(e) - m->kdelta;
			out->binding = sym_bind(e) & ~SYM_FLAGS;
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

void sym_kernel_free(struct sym_machine *m)
{
	ksyms_free(kpre_take(m, "", &(int){ 0 }));
	ksyms_free(m->ks);
	strset_free(&m->knames);
	free(m->kmaps);
}
