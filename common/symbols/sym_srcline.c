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
	if (!d->loaded && sym_dso_load(d, &m->lctx))
		return NULL;
	if (d->symsrc) {
		d->dw = sym_dwarf_open(d->symsrc);
	} else {
		snprintf(path, sizeof(path), "%s%s", m->symfs ? m->symfs : "", d->name);
		d->dw = sym_dwarf_open(path);
	}
	return d->dw;
}

/* the DSO and the DWARF of a user address; NULL when either is missing */
static struct sym_dwarf *dwarf_at(struct sym_machine *m, int32_t pid, uint16_t cpumode,
				  uint64_t addr, uint64_t *map_ip)
{
	struct sym_dso *d;

	if ((cpumode & 7) != MISC_USER || !(d = sym_machine_dso_at(m, pid, addr, map_ip)))
		return NULL;
	return dso_dwarf(m, d);
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

const char *sym_machine_srcline(struct sym_machine *m, int32_t pid, uint16_t cpumode,
				uint64_t addr, const struct sym_loc *l)
{
	struct sym_dwarf_frame f[SYM_INLINE_MAX];
	struct sym_dwarf *dw;
	uint64_t map_ip = addr;
	size_t n = 0;

	if (!l->have_map)
		return NULL;     /* perf prints none for an address of no map */
	dw = dwarf_at(m, pid, cpumode, addr, &map_ip);
	/* the line at the address itself: addr2line's first record */
	if (dw)
		n = sym_dwarf_frames(dw, map_ip, f, 1);
	if (n && f[0].file) {
		put_line(m, m->srcline, sizeof(m->srcline), &f[0]);
		return m->srcline;
	}
	/* addr2line's "??:?" for an address in a function it knows: perf's
	 * "??:0", which map__fprintf_srcline leaves out; its "DSO[ADDR]" where
	 * addr2line knows nothing, and for the kernel's addresses */
	if (l->sym && !is_plt(l->sym) && !l->is_kernel && l->dso[0] != '[')
		return NULL;
	snprintf(m->srcline, sizeof(m->srcline), "%s[%" PRIx64 "]", l->dso_short,
		 l->is_kernel ? addr : l->map_ip);
	return m->srcline;
}

size_t sym_machine_inlines(struct sym_machine *m, int32_t pid, uint16_t cpumode, uint64_t addr,
			   const struct sym_loc *l, struct sym_inline *out, size_t max)
{
	struct sym_dwarf_frame f[SYM_INLINE_MAX];
	struct sym_dwarf *dw;
	struct sym_dso *d;
	uint64_t map_ip;
	size_t n;

	if (m->o.no_inline || !l->sym || is_plt(l->sym) || !max || (cpumode & 7) != MISC_USER ||
	    !(d = sym_machine_dso_at(m, pid, addr, &map_ip)) || d->kind != SYM_DSO_FILE ||
	    d->name[0] != '/')
		return 0;
	if (max > SYM_INLINE_MAX)
		max = SYM_INLINE_MAX;
	dw = dso_dwarf(m, d);
	n = dw ? sym_dwarf_frames(dw, map_ip, f, max) : 0;
	if (!n) {
		/* addr2line names the symbol, with "??:?" for its line */
		out[0].name = l->sym;
		out[0].inlined = 0;
		out[0].srcline = "??:0";
		return 1;
	}
	for (size_t i = 0; i < n; i++) {
		char *dem = NULL;
		/* no function around the line: addr2line names the symbol */
		const char *name = f[i].name ? f[i].name : l->sym;

		/* demangled as the symbols are (perf's dso__demangle_sym) */
		if (f[i].name && m->lctx.demangle != SYM_DEMANGLE_NONE)
			dem = m->lctx.demangle == SYM_DEMANGLE_FULL ? sym_elf_demangle_full(name)
								   : sym_elf_demangle(name);
		snprintf(m->inl_names[i], sizeof(m->inl_names[i]), "%s", dem ? dem : name);
		free(dem);
		/* the real function keeps its symbol; any other name is a
		 * stand-in symbol of the same start (perf's new_inline_sym) */
		out[i].inlined = strcmp(m->inl_names[i], l->sym) != 0;
		out[i].name = out[i].inlined ? m->inl_names[i] : l->sym;
		/* its own line: the address's for the innermost, the call's
		 * for each function inlined into */
		out[i].srcline = "??:0";
		if (f[i].file) {
			put_line(m, m->inl_lines[i], sizeof(m->inl_lines[i]), &f[i]);
			out[i].srcline = m->inl_lines[i];
		}
	}
	return n;
}
