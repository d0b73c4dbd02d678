/* sym_elf.c - an ELF file's symbols through libelf, as perf 6.1's
 * symbol-elf.c reads them: .symtab then .dynsym, function, object and
 * label symbols of allocated sections, addresses turned into file offsets
 * with the program headers, and name@plt entries; C++ names demangled with
 * libiberty, as Debian's perf does. Every read is checked:
 * the files come from recordings and may be anything. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <libiberty/demangle.h>
#include <lzma.h>
#include "symbols/elf_buildid.h"
#include "symbols/sym_elf.h"
#include "util/io.h"
#include "util/tb_err.h"

#define NT_GNU_BUILD_ID_TYPE 3

/* libelf's version, set once for every thread: the DSOs' read-ahead
 * (sym_dsopre.c) opens files on a thread of its own */
static pthread_once_t elf_once = PTHREAD_ONCE_INIT;
static int elf_ready;

static void elf_start(void)
{
	elf_ready = elf_version(EV_CURRENT) != EV_NONE;
}

int sym_elf_init(void)
{
	pthread_once(&elf_once, elf_start);
	return elf_ready ? 0 : -1;
}

int sym_elf_open_mem(struct sym_elf *e, const void *buf, size_t len, char *why, size_t n)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	if (sym_elf_init()) {
		snprintf(why, n, "libelf is out of date");
		return -1;
	}
	if (len < EI_NIDENT || memcmp(buf, ELFMAG, SELFMAG)) {
		snprintf(why, n, "not an ELF file");
		return -1;
	}
	e->elf = elf_memory((char *)buf, len);
	if (!e->elf || elf_kind(e->elf) != ELF_K_ELF || !gelf_getehdr(e->elf, &e->ehdr)) {
		snprintf(why, n, "invalid ELF header (%s)", elf_errmsg(-1));
		sym_elf_close(e);
		return -1;
	}
	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return 0;     /* no section names: no symbols, yet a valid ELF */
	while ((scn = elf_nextscn(e->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(e->elf, shstrndx, sh.sh_name);
		if (!name)
			continue;
		/* perf's elf_section_by_name: the first section of that name */
		if (!e->symtab && !strcmp(name, ".symtab")) {
			e->symtab = scn;
			e->symshdr = sh;
		} else if (!e->dynsym && !strcmp(name, ".dynsym")) {
			e->dynsym = scn;
			e->dynshdr = sh;
			e->dynsym_idx = elf_ndxscn(scn);
		}
	}
	if (e->symtab && e->symshdr.sh_type != SHT_SYMTAB)
		e->symtab = NULL;
	if (e->dynsym && e->dynshdr.sh_type != SHT_DYNSYM)
		e->dynsym = NULL;
	return 0;
}

int sym_elf_open_file(struct sym_elf *e, const char *path, char *why, size_t n)
{
	struct stat st;
	unsigned char *buf;
	char tmp[200] = "";
	struct tb_err err = { 0 };
	int fd, r;

	memset(e, 0, sizeof(*e));
	e->fd = -1;
	fd = open_regular(path, SYM_ELF_MAX_FILE, &st, &err);
	if (fd < 0 && (errno == EINVAL || errno == EISDIR || errno == EFBIG)) {
		snprintf(why, n, "%s", err.msg);       /* a FIFO, a device, too large */
		return -2;
	}
	if (fd < 0)
		return 1;
	if (st.st_size < EI_NIDENT) {
		close(fd);
		snprintf(why, n, "%s: not an ELF file (%lld bytes)", path, (long long)st.st_size);
		return -1;
	}
	/* private and writable: what libelf might write stays ours; only the
	 * pages read are read (perf maps its files too) */
	buf = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_PRIVATE, fd, 0);
	if (buf == MAP_FAILED) {
		snprintf(why, n, "%s: cannot map the file: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	r = sym_elf_open_mem(e, buf, (size_t)st.st_size, tmp, sizeof(tmp));
	if (r) {
		snprintf(why, n, "%s: %s", path, tmp);
		munmap(buf, (size_t)st.st_size);
		close(fd);
		memset(e, 0, sizeof(*e));
		e->fd = -1;
		return -1;
	}
	e->buf = buf;
	e->len = (size_t)st.st_size;
	e->mapped = 1;
	e->fd = fd;             /* a table may read its names from it later */
	return 0;
}

void sym_elf_close(struct sym_elf *e)
{
	if (e->elf)
		elf_end(e->elf);
	if (e->mapped)
		munmap(e->buf, e->len);
	else
		free(e->buf);
	if (e->fd >= 0 && !e->fd_given)
		close(e->fd);
	memset(e, 0, sizeof(*e));
	e->fd = -1;
}

/* perf's elf_section_by_name */
static Elf_Scn *section_by_name(struct sym_elf *e, const char *want, GElf_Shdr *out)
{
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return NULL;
	while ((scn = elf_nextscn(e->elf, scn))) {
		const char *name;

		if (!gelf_getshdr(scn, out))
			continue;
		name = elf_strptr(e->elf, shstrndx, out->sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

size_t sym_elf_build_id(struct sym_elf *e, unsigned char out[20])
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	GElf_Shdr sh;
	Elf_Scn *scn = NULL;
	Elf_Data *d;
	int n;

	for (size_t i = 0; i < 3 && !scn; i++)
		scn = section_by_name(e, names[i], &sh);
	if (!scn || sh.sh_type == SHT_NOBITS || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
		return 0;
	n = buildid_notes(d->d_buf, d->d_size, out);
	return n > 0 ? (size_t)n : 0;
}

int sym_elf_debuglink(struct sym_elf *e, char *out, size_t n, uint32_t *crc)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section_by_name(e, ".gnu_debuglink", &sh);
	Elf_Data *d;
	size_t len, at;

	if (!scn || sh.sh_type == SHT_NOBITS || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
		return -1;
	len = strnlen(d->d_buf, d->d_size);
	if (len == 0 || len == d->d_size || len >= n)
		return -1;
	memcpy(out, d->d_buf, len + 1);
	/* the file name, NUL padded to 4 bytes, then the debug file's CRC-32 */
	at = (len + 4) & ~(size_t)3;
	*crc = 0;
	if (at + 4 <= d->d_size)
		memcpy(crc, (const char *)d->d_buf + at, 4);
	return at + 4 <= d->d_size ? 0 : 1;
}

unsigned char *sym_elf_debugdata(struct sym_elf *e, size_t *len)
{
	GElf_Shdr sh;
	Elf_Scn *scn = section_by_name(e, ".gnu_debugdata", &sh);
	Elf_Data *d;
	uint64_t memlimit = SYM_DEBUGDATA_MAX * 2;
	size_t in_pos = 0, out_pos = 0, cap = 1u << 20;
	unsigned char *out = NULL;

	if (!scn || sh.sh_type == SHT_NOBITS || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
		return NULL;
	/* xz, decoded into a buffer grown up to SYM_DEBUGDATA_MAX */
	for (;;) {
		unsigned char *t = realloc(out, cap);
		lzma_ret r;

		if (!t)
			break;
		out = t;
		in_pos = out_pos = 0;
		r = lzma_stream_buffer_decode(&memlimit, 0, NULL, d->d_buf, &in_pos, d->d_size, out,
					      &out_pos, cap);
		if (r == LZMA_OK && out_pos) {
			*len = out_pos;
			return out;
		}
		if (r != LZMA_BUF_ERROR || cap >= SYM_DEBUGDATA_MAX)
			break;
		cap *= 4;
	}
	free(out);
	return NULL;
}

/* ---- symbols ---- */

static int sym_is_function(const GElf_Sym *s)
{
	int t = GELF_ST_TYPE(s->st_info);

	return (t == STT_FUNC || t == STT_GNU_IFUNC) && s->st_name && s->st_shndx != SHN_UNDEF;
}

static int sym_is_object(const GElf_Sym *s)
{
	return GELF_ST_TYPE(s->st_info) == STT_OBJECT && s->st_name && s->st_shndx != SHN_UNDEF;
}

static int sym_is_label(const GElf_Sym *s)
{
	int vis = GELF_ST_VISIBILITY(s->st_other);

	return GELF_ST_TYPE(s->st_info) == STT_NOTYPE && s->st_name &&
	       s->st_shndx != SHN_UNDEF && s->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

/* An ARM ELF mapping symbol ($a, $d, $t, $x, or one of them and "."
 * and more): it marks where code or data starts, no function; perf's
 * dso__load_sym leaves them out on arm and arm64 */
static int is_mapping_symbol(const char *name)
{
	return name && name[0] == '$' && name[1] && strchr("adtx", name[1]) &&
	       (name[2] == 0 || name[2] == '.');
}

/* perf's demangle_sym without libbfd (Debian's perf 6.1): only OCaml
 * names ("caml" and an upper-case letter) are rewritten. */
static size_t demangle_ocaml(const char *s, char *out, size_t n)
{
	size_t len, i = 4, j = 0;

	if (s[0] != 'c' || strncmp(s, "caml", 4) || !isupper((unsigned char)s[4]) ||
	    (len = strlen(s)) >= n)
		return 0;
	while (i < len) {
		if (s[i] == '_' && s[i + 1] == '_') {
			out[j++] = '.';
			i += 2;
		} else if (s[i] == '$' && isxdigit((unsigned char)s[i + 1]) &&
			   isxdigit((unsigned char)s[i + 2])) {
			char hex[3] = { s[i + 1], s[i + 2], 0 };

			out[j++] = (char)strtoul(hex, NULL, 16);
			i += 3;
		} else {
			out[j++] = s[i++];
		}
	}
	out[j] = 0;
	return j ? j : 0;
}

/*
 * perf's demangle_sym as Debian builds perf 6.1: libiberty's cplus_demangle,
 * with no options (no parameter lists: "ns::K::call") or, under -v, with
 * DMGL_PARAMS | DMGL_ANSI ("ns::K::call(int) const"), then OCaml. Returns a
 * malloc'd name, or NULL to keep @name.
 */
static char *demangle_with(const char *name, int flags)
{
	char *d, buf[1024];
	size_t n;

	/* what libiberty can demangle at all (Itanium C++, Rust legacy and v0,
	 * _GLOBAL_ constructors): the rest is not worth its call */
	if ((name[0] == '_' && (name[1] == 'Z' || name[1] == 'R' || !strncmp(name, "_GLOBAL_", 8))) ||
	    (name[0] == 'Z' && name[1] == 'N')) {
		d = cplus_demangle(name, flags);
		if (d) {
			/* libiberty's buffer grows by doubling: keep the
			 * name at its size (thousands are kept) */
			char *fit = strdup(d);

			if (!fit)
				return d;
			free(d);
			return fit;
		}
	}
	if ((n = demangle_ocaml(name, buf, sizeof(buf))))
		return strdup(buf);
	return NULL;
}

char *sym_elf_demangle(const char *name)
{
	return demangle_with(name, DMGL_NO_OPTS);
}

char *sym_elf_demangle_full(const char *name)
{
	return demangle_with(name, DMGL_PARAMS | DMGL_ANSI);
}

/*
 * The string table @link of a mapped file, for @t to point its names into
 * rather than copy them, then read the few it shows from the file (the
 * table takes the fd): the names of a big library are most of its table.
 * Only a plain SHT_STRTAB read in place whose last byte is a NUL, as
 * elf_strptr would read it; only a big one, and while few files are open
 * (each such table keeps its fd: hundreds of small libraries must not
 * use up the process's files). Returns the source number, 0 to copy.
 */
#define BORROW_MIN_TEXT (16u << 10)
#define BORROW_MAX_FD   512
static unsigned borrow_names(struct sym_table *t, struct sym_elf *e, size_t link, size_t *len)
{
	Elf_Scn *scn = elf_getscn(e->elf, link);
	GElf_Shdr sh;
	Elf_Data *d;
	unsigned src;

	if (!e->mapped || e->fd < 0 || e->fd >= BORROW_MAX_FD || !scn || !gelf_getshdr(scn, &sh) ||
	    sh.sh_type != SHT_STRTAB || (sh.sh_flags & SHF_COMPRESSED) ||
	    !(d = elf_getdata(scn, NULL)) || !d->d_buf || d->d_size < BORROW_MIN_TEXT ||
	    sh.sh_offset > e->len || d->d_size > e->len - sh.sh_offset ||
	    (unsigned char *)d->d_buf != e->buf + sh.sh_offset ||
	    ((const char *)d->d_buf)[d->d_size - 1])
		return 0;
	src = sym_table_borrow(t, d->d_buf, d->d_size, e->fd, sh.sh_offset);
	if (src) {
		e->fd_given = 1;
		*len = d->d_size;
	}
	return src;
}

/* perf's elf_read_program_header: the PT_LOAD holding @vaddr */
static int load_phdr(struct sym_elf *e, uint64_t vaddr, GElf_Phdr *ph)
{
	size_t nr;

	if (elf_getphdrnum(e->elf, &nr))
		return -1;
	for (size_t i = 0; i < nr; i++) {
		uint64_t sz;

		if (!gelf_getphdr(e->elf, (int)i, ph))
			return -1;
		if (ph->p_type != PT_LOAD)
			continue;
		sz = ph->p_memsz > ph->p_filesz ? ph->p_memsz : ph->p_filesz;
		if (sz && vaddr >= ph->p_vaddr && vaddr - ph->p_vaddr < sz)
			return 0;
	}
	return -1;
}

static const char *sec_name(struct sym_elf *e, const GElf_Shdr *sh)
{
	size_t shstrndx;
	const char *n;

	if (elf_getshdrstrndx(e->elf, &shstrndx))
		return "";
	n = elf_strptr(e->elf, shstrndx, sh->sh_name);
	return n ? n : "";
}

/* symbols read again in a pass (perf's loop past the readable ones) */
#define SYM_MAX_REREAD (1u << 16)

/* one pass of perf's dso__load_sym_internal over @scn (user DSO) */
static int load_pass(struct sym_table *t, struct sym_elf *ss, struct sym_elf *rs, Elf_Scn *scn,
		     const GElf_Shdr *symsh, int demangle)
{
	Elf_Data *syms = elf_getdata(scn, NULL);
	Elf_Scn *strs = elf_getscn(ss->elf, symsh->sh_link);
	uint64_t nr_syms;
	size_t names_len = 0;
	unsigned src;
	int nr = 0, thumb, arm, failed = 0;
	GElf_Sym sym = { 0 };     /* perf's memset before its loop */

	if (!symsh->sh_entsize)
		return 0;
	if (!syms || !strs || !elf_getdata(strs, NULL))
		return SYM_PASS_FAILED;
	src = borrow_names(t, ss, symsh->sh_link, &names_len);
	nr_syms = symsh->sh_size / symsh->sh_entsize;
	{
		GElf_Ehdr eh;

		thumb = gelf_getehdr(ss->elf, &eh) && eh.e_machine == EM_ARM;
		arm = thumb || (gelf_getehdr(ss->elf, &eh) && eh.e_machine == EM_AARCH64);
	}
	for (uint64_t idx = 0, again = 0; idx < nr_syms; idx++) {
		GElf_Sym next;
		GElf_Shdr sh;
		Elf_Scn *sec;
		const char *name, *secname;
		int is_label;

		/* perf's loop takes the last symbol again where one cannot be
		 * read (sh_entsize too small); the copies go as duplicates, so
		 * only perf's tree shape shows them */
		if (gelf_getsym(syms, (int)idx, &next))
			sym = next;
		else if (!t->tracking || ++again > SYM_MAX_REREAD)
			break;
		is_label = sym_is_label(&sym);
		if (!is_label && !sym_is_function(&sym) && !sym_is_object(&sym))
			continue;
		if (sym.st_shndx == SHN_ABS)
			continue;
		if (arm && is_mapping_symbol(elf_strptr(ss->elf, symsh->sh_link, sym.st_name)))
			continue;
		if (src)
			name = sym.st_name < names_len ? "" : NULL;  /* read only if shown */
		else
			name = elf_strptr(ss->elf, symsh->sh_link, sym.st_name);
		if (!name)
			continue;
		/* perf fails the pass at a symbol of a section that is not there */
		sec = sym.st_shndx < SHN_LORESERVE ? elf_getscn(ss->elf, sym.st_shndx) : NULL;
		if ((failed = !sec || !gelf_getshdr(sec, &sh)))
			break;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		secname = NULL;
		if (sh.sh_type == SHT_NOBITS) {
			sec = elf_getscn(rs->elf, sym.st_shndx);
			if ((failed = !sec || !gelf_getshdr(sec, &sh)))
				break;
			if (is_label)
				secname = sec_name(rs, &sh);
		} else if (is_label) {
			secname = sec_name(ss, &sh);
		}
		if (is_label && !strstr(secname, "text") && !strstr(secname, "data"))
			continue;
		{
			GElf_Phdr ph;

			if (load_phdr(rs, sym.st_value, &ph))
				sym.st_value -= sh.sh_addr - sh.sh_offset;
			else
				sym.st_value -= ph.p_vaddr - ph.p_offset;
		}
		/* 32-bit ARM: a Thumb function's value has bit 0 set; its code
		 * starts at the even address (as perf reads it: STT_FUNC only,
		 * an IFUNC resolver keeps its odd value) */
		if (thumb && GELF_ST_TYPE(sym.st_info) == STT_FUNC)
			sym.st_value &= ~(GElf_Addr)1;
		if (demangle)
			t->demangle = demangle == SYM_DEMANGLE_FULL ? sym_elf_demangle_full :
								      sym_elf_demangle;
		if (src ? sym_table_add_ref(t, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
					    src, sym.st_name) :
			  sym_table_add(t, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info),
					name, strlen(name)))
			return -1;
		nr++;
	}
	if (failed)               /* perf's pass fails: what it took stays, unfixed */
		return sym_table_sort(t) ? -1 : SYM_PASS_FAILED;
	if (nr && sym_table_finish(t))
		return -1;
	return nr;
}

int sym_elf_load_syms(struct sym_table *t, struct sym_elf *syms, struct sym_elf *run, int demangle)
{
	int a = 0, b = 0;

	if (syms->symtab && (a = load_pass(t, syms, run, syms->symtab, &syms->symshdr,
					   demangle)) < 0)
		return a;
	if (syms->dynsym && (b = load_pass(t, syms, run, syms->dynsym, &syms->dynshdr,
					   demangle)) < 0)
		return b;
	return a + b;
}

/* perf's PLT layout: a header, then one entry a relocation, fixed sizes
 * on ARM, arm64 and SPARC, one section entry each elsewhere (x86) */
static void plt_sizes(const struct sym_elf *e, const GElf_Shdr *plt, uint64_t *head,
		      uint64_t *entry)
{
	switch (e->ehdr.e_machine) {
	case EM_ARM:
		*head = 20, *entry = 12;
		break;
	case EM_AARCH64:
		*head = 32, *entry = 16;
		break;
	case EM_SPARC:
		*head = 48, *entry = 12;
		break;
	case EM_SPARCV9:
		*head = 128, *entry = 32;
		break;
	default:
		*head = *entry = plt->sh_entsize;
		break;
	}
}

int sym_elf_plt(struct sym_table *t, struct sym_elf *e, int demangle)
{
	GElf_Shdr rel_sh, plt_sh, dsh = e->dynshdr;
	Elf_Scn *rel = section_by_name(e, ".rela.plt", &rel_sh), *strs;
	Elf_Data *reld, *syms, *strd;
	uint64_t off, head, entsize, nr;
	int added = 0;

	if (!e->dynsym)
		return 0;
	if (!rel)
		rel = section_by_name(e, ".rel.plt", &rel_sh);
	if (!rel || rel_sh.sh_link != e->dynsym_idx || !section_by_name(e, ".plt", &plt_sh))
		return 0;
	if (!(reld = elf_getdata(rel, NULL)) || !(syms = elf_getdata(e->dynsym, NULL)))
		return 0;
	/* perf: no names (an empty string table), no PLT symbols */
	if (!(strs = elf_getscn(e->elf, dsh.sh_link)) || !(strd = elf_getdata(strs, NULL)) ||
	    !strd->d_size || !rel_sh.sh_entsize)
		return 0;
	nr = rel_sh.sh_size / rel_sh.sh_entsize;
	plt_sizes(e, &plt_sh, &head, &entsize);
	off = plt_sh.sh_offset + head;
	for (uint64_t i = 0; i < nr; i++) {
		GElf_Rela rela;
		GElf_Rel r;
		GElf_Sym sym;
		uint64_t info;
		const char *name;
		char buf[1024];
		int n;

		if (rel_sh.sh_type == SHT_RELA) {
			if (!gelf_getrela(reld, (int)i, &rela))
				break;
			info = rela.r_info;
		} else if (rel_sh.sh_type == SHT_REL) {
			if (!gelf_getrel(reld, (int)i, &r))
				break;
			info = r.r_info;
		} else {
			break;
		}
		if (!gelf_getsym(syms, (int)GELF_R_SYM(info), &sym))
			break;
		name = elf_strptr(e->elf, dsh.sh_link, sym.st_name);
		if (!name)
			name = "";
		{
			char *dm = !demangle ? NULL : demangle == SYM_DEMANGLE_FULL ?
				   sym_elf_demangle_full(name) : sym_elf_demangle(name);

			n = snprintf(buf, sizeof(buf), "%s@plt", dm ? dm : name);
			free(dm);
		}
		if (n < 0 || (size_t)n >= sizeof(buf))
			n = (int)sizeof(buf) - 1;
		if (sym_table_add(t, off, entsize, STB_GLOBAL | SYM_FINAL_NAME, buf, (size_t)n))
			return -1;
		off += entsize;
		added++;
	}
	if (added && sym_table_sort(t))
		return -1;
	return added;
}

/* ---- -k VMLINUX ---- */

int sym_elf_load_kernel(const char *path, struct sym_table *t, struct sym_load_ctx *c,
			struct sym_vmlinux *v)
{
	struct sym_elf e;
	Elf_Data *syms;
	uint64_t nr_syms;
	int r, nr = 0;
	GElf_Shdr tsh;

	c->warning[0] = 0;
	r = sym_elf_open_file(&e, path, c->warning, sizeof(c->warning));
	if (r == 1) {
		snprintf(c->warning, sizeof(c->warning), "%s: cannot open the vmlinux", path);
		return -1;
	}
	if (r)
		return -1;
	/* perf's symsrc__init: a vmlinux of another build-id is refused */
	if (v->bid_len) {
		unsigned char id[20];
		size_t n = sym_elf_build_id(&e, id);

		if (n != v->bid_len || memcmp(id, v->bid, n)) {
			snprintf(c->warning, sizeof(c->warning), "%s: build-id differs from the "
				 "recording's kernel, its symbols are not used", path);
			sym_elf_close(&e);
			return -1;
		}
	}
	if (section_by_name(&e, ".text", &tsh)) {
		v->text_addr = tsh.sh_addr;
		v->text_size = tsh.sh_size;
		v->has_text = 1;
	}
	if (!e.symtab || !(syms = elf_getdata(e.symtab, NULL)) || !e.symshdr.sh_entsize) {
		snprintf(c->warning, sizeof(c->warning), "%s: the vmlinux has no .symtab", path);
		sym_elf_close(&e);
		return -1;
	}
	nr_syms = e.symshdr.sh_size / e.symshdr.sh_entsize;
	for (uint64_t idx = 0; idx < nr_syms; idx++) {
		GElf_Sym sym;
		GElf_Shdr sh;
		Elf_Scn *sec;
		const char *name;

		if (!gelf_getsym(syms, (int)idx, &sym))
			break;
		if (!sym_is_label(&sym) && !sym_is_function(&sym) && !sym_is_object(&sym))
			continue;
		if (sym.st_shndx == SHN_ABS || sym.st_shndx >= SHN_LORESERVE)
			continue;
		sec = elf_getscn(e.elf, sym.st_shndx);
		if (!sec || !gelf_getshdr(sec, &sh) || !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (strcmp(sec_name(&e, &sh), ".text"))
			continue;
		name = elf_strptr(e.elf, e.symshdr.sh_link, sym.st_name);
		if (!name)
			continue;
		if (v->ref && !v->has_ref && !strcmp(name, v->ref)) {
			v->ref_value = sym.st_value;
			v->has_ref = 1;
		}
		if (sym_table_add(t, sym.st_value, sym.st_size, GELF_ST_BIND(sym.st_info), name,
				  strlen(name))) {
			sym_elf_close(&e);
			return -1;
		}
		nr++;
	}
	sym_elf_close(&e);
	if (nr && sym_table_finish(t))
		return -1;
	return nr;
}
