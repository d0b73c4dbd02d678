/* sym_srcline.c - source lines and inline frames of resolved addresses, from each DSO's DWARF, in the forms perf 6.1 prints them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "symbols/sym_dso.h"
#include "symbols/sym_dwarf.h"
#include "symbols/sym_elf.h"
#include "symbols/sym_machine_int.h"
#include "symbols/sym_srccache.h"

#define MISC_USER 2

/* The DWARF of @d, looked for once: in the file its symbols came from
 * (perf's symsrc_filename), else the DSO's own file under --symfs. */
static struct sym_dwarf *dso_dwarf(struct sym_machine *m, struct sym_dso *d)
{
	char path[4200];

	if (d->dw_tried)
		return d->dw;
	d->dw_tried = 1;
	if (d->kind != SYM_DSO_FILE || d->name[0] != '/')
		return NULL;
	if (!d->loaded && sym_machine_dso_load(m, d))
		return NULL;
	if (d->symsrc) {
		d->dw = sym_dwarf_open(d->symsrc);
	} else {
		snprintf(path, sizeof(path), "%s%s", m->symfs ? m->symfs : "", d->name);
		d->dw = sym_dwarf_open(path);
	}
	return d->dw;
}

/* a PLT entry's name ("puts@plt", "@plt"): made up from the relocations,
 * no symbol of the file's for addr2line */
static int is_plt(const char *sym)
{
	size_t n = strlen(sym);

	return n >= 4 && !strcmp(sym + n - 4, "@plt");
}

/* "FILE:LINE", the file's basename unless --full-source-path */
static void put_line(const struct sym_machine *m, char *buf, size_t n,
		     const struct sym_dwarf_frame *f)
{
	const char *file = f->file, *slash = strrchr(file, '/');

	if (!m->o.full_source_path) {
		snprintf(buf, n, "%s:%u", slash ? slash + 1 : file, f->line);
		return;
	}
	/* the whole name: a relative one under its compile unit's directory */
	snprintf(buf, n, "%s%s%s:%u", f->dir ? f->dir : "", f->dir ? "/" : "", file, f->line);
}

/* the DWARF's line at @off: e->line (NULL: none) */
static int fill_line(struct sym_machine *m, struct sym_dwarf *dw, uint64_t off,
		     struct sym_srcent *e)
{
	struct sym_dwarf_frame f;
	char buf[4200];

	e->line = NULL;
	if (dw && sym_dwarf_frames(dw, off, &f, 1) && f.file) {
		put_line(m, buf, sizeof(buf), &f);
		if (!(e->line = strdup(buf)))
			return -1;
	}
	e->state |= SRC_HAVE_LINE;
	return 0;
}

/* addr2line -i's records at @off, as perf 6.1 turns them into inline frames
 * of the symbol @sym: e->inl */
static int fill_inlines(struct sym_machine *m, struct sym_dwarf *dw, uint64_t off, const char *sym,
			struct sym_srcent *e)
{
	struct sym_dwarf_frame f[SYM_INLINE_MAX];
	size_t n = dw ? sym_dwarf_frames(dw, off, f, SYM_INLINE_MAX) : 0;
	char buf[4200];

	/* none: addr2line names the symbol, with "??:?" for its line */
	if (!(e->inl = calloc(n ? n : 1, sizeof(*e->inl))))
		return -1;
	e->nr_inl = n ? n : 1;
	for (size_t i = 0; i < n; i++) {
		/* no function around the line: addr2line names the symbol */
		const char *name = f[i].name ? f[i].name : sym;
		char *dem = NULL;

		/* demangled as the symbols are (perf's dso__demangle_sym) */
		if (f[i].name && m->lctx.demangle != SYM_DEMANGLE_NONE)
			dem = m->lctx.demangle == SYM_DEMANGLE_FULL ? sym_elf_demangle_full(name)
								   : sym_elf_demangle(name);
		/* the real function keeps its symbol; any other name is a
		 * stand-in symbol of the same start (perf's new_inline_sym) */
		e->inl[i].inlined = strcmp(dem ? dem : name, sym) != 0;
		if (e->inl[i].inlined)
			e->inl[i].name = dem ? dem : strdup(name);
		else
			free(dem);
		/* its own line: the address's for the innermost, the call's
		 * for each function inlined into */
		if (f[i].file) {
			put_line(m, buf, sizeof(buf), &f[i]);
			e->inl[i].line = strdup(buf);
		}
		if ((e->inl[i].inlined && !e->inl[i].name) || (f[i].file && !e->inl[i].line))
			return -1;
	}
	e->state |= SRC_HAVE_INL;
	return 0;
}

static void inl_clear(struct sym_srcent *e)
{
	for (size_t k = 0; k < e->nr_inl; k++) {
		free(e->inl[k].name);
		free(e->inl[k].line);
	}
	free(e->inl);
	e->inl = NULL;
	e->nr_inl = 0;
	e->state &= ~SRC_HAVE_INL;
}

static void entry_clear(struct sym_srcent *e)
{
	free(e->line);
	inl_clear(e);
	memset(e, 0, sizeof(*e));
}

/* the user file DSO of @addr and its cache entry for the address (or
 * @tmp, cleared, when the cache has no room); NULL for any other address */
static struct sym_srcent *entry_at(struct sym_machine *m, int32_t pid, uint16_t cpumode,
				   uint64_t addr, struct sym_srcent *tmp, struct sym_dso **d,
				   uint64_t *map_ip)
{
	struct sym_srcent *e;

	if ((cpumode & 7) != MISC_USER || !(*d = sym_machine_dso_at(m, pid, addr, map_ip)) ||
	    (*d)->kind != SYM_DSO_FILE || (*d)->name[0] != '/')
		return NULL;
	e = sym_srccache_slot(*d, *map_ip);
	if (e)
		return e;
	memset(tmp, 0, sizeof(*tmp));
	return tmp;
}

const char *sym_machine_srcline(struct sym_machine *m, int32_t pid, uint16_t cpumode,
				uint64_t addr, const struct sym_loc *l)
{
	struct sym_srcent tmp, *e;
	struct sym_dso *d;
	uint64_t map_ip;
	int known = 0;

	if (!l->have_map)
		return NULL;     /* perf prints none for an address of no map */
	e = entry_at(m, pid, cpumode, addr, &tmp, &d, &map_ip);
	/* the line at the address itself: addr2line's first record */
	if (e && ((e->state & SRC_HAVE_LINE) || !fill_line(m, dso_dwarf(m, d), map_ip, e)) &&
	    e->line) {
		snprintf(m->srcline, sizeof(m->srcline), "%s", e->line);
		known = 1;
	}
	if (e == &tmp)
		entry_clear(&tmp);
	if (known)
		return m->srcline;
	/* addr2line's "??:?" for an address in a function it knows: perf's
	 * "??:0", which map__fprintf_srcline leaves out; its "DSO[ADDR]" where
	 * addr2line knows nothing, and for the kernel's addresses */
	if (l->sym && !is_plt(l->sym) && !l->is_kernel && l->dso[0] != '[')
		return NULL;
	snprintf(m->srcline, sizeof(m->srcline), "%s[%" PRIx64 "]", l->dso_short,
		 l->is_kernel ? addr : l->map_ip);
	return m->srcline;
}

const char *sym_machine_srcfile(struct sym_machine *m, int32_t pid, uint16_t cpumode,
				uint64_t addr, unsigned *line)
{
	struct sym_dwarf_frame f;
	struct sym_dwarf *dw;
	struct sym_dso *d;
	uint64_t map_ip;

	if ((cpumode & 7) != MISC_USER || !(d = sym_machine_dso_at(m, pid, addr, &map_ip)) ||
	    d->kind != SYM_DSO_FILE || d->name[0] != '/' || !(dw = dso_dwarf(m, d)) ||
	    !sym_dwarf_frames(dw, map_ip, &f, 1) || !f.file)
		return NULL;
	snprintf(m->srcfile, sizeof(m->srcfile), "%s%s%s", f.dir ? f.dir : "", f.dir ? "/" : "",
		 f.file);
	*line = f.line;
	return m->srcfile;
}

size_t sym_machine_inlines(struct sym_machine *m, int32_t pid, uint16_t cpumode, uint64_t addr,
			   const struct sym_loc *l, struct sym_inline *out, size_t max)
{
	struct sym_srcent tmp, *e;
	struct sym_dso *d;
	uint64_t map_ip;
	size_t n = 0;

	if (m->o.no_inline || !l->sym || is_plt(l->sym) || !max ||
	    !(e = entry_at(m, pid, cpumode, addr, &tmp, &d, &map_ip)))
		return 0;
	if (!(e->state & SRC_HAVE_INL) && fill_inlines(m, dso_dwarf(m, d), map_ip, l->sym, e)) {
		inl_clear(e);         /* out of memory: worked out anew next time */
		goto out;
	}
	if (max > SYM_INLINE_MAX)
		max = SYM_INLINE_MAX;
	for (n = 0; n < e->nr_inl && n < max; n++) {
		const struct sym_srcinl *in = &e->inl[n];

		out[n].inlined = in->inlined;
		out[n].name = in->inlined ? in->name : l->sym;
		out[n].srcline = in->line ? in->line : "??:0";
		if (e == &tmp) {          /* copied: tmp goes below */
			snprintf(m->inl_names[n], sizeof(m->inl_names[n]), "%s", out[n].name);
			snprintf(m->inl_lines[n], sizeof(m->inl_lines[n]), "%s", out[n].srcline);
			out[n].name = m->inl_names[n];
			out[n].srcline = m->inl_lines[n];
		}
	}
out:
	if (e == &tmp)
		entry_clear(&tmp);
	return n;
}
