/* sym_dso.c - find a DSO's symbols where perf 6.1's dso__load looks:
 * debuglink, build-id cache, /usr/lib/debug, the file itself (under
 * --symfs), perf-PID.map for JIT code, the build-id cache or our own
 * vdso for [vdso]; files of another build-id are refused. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include "symbols/elf_buildid.h"
#include "symbols/sym_debuginfod.h"
#include "symbols/sym_dso.h"
#include "symbols/sym_elf.h"
#include "util/io.h"
#include "util/tb_err.h"

static int is_regular(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* perf's dso__build_id_equal: a 20-byte id may carry trailing zeros */
static int bid_equal(const struct sym_dso *d, const unsigned char *id, size_t len)
{
	if (d->bid_len > len && d->bid_len == 20) {
		if (memcmp(d->bid, id, len))
			return 0;
		for (size_t i = len; i < d->bid_len; i++)
			if (d->bid[i])
				return 0;
		return 1;
	}
	return d->bid_len == len && !memcmp(d->bid, id, len);
}

/* ---- /tmp/perf-PID.map (perf's dso__load_perf_map) ---- */

/* perf's hex2u64: strtoull's rules (blanks, a sign, 0x, a cap on overflow),
 * the characters it took */
static size_t hex_prefix(const char *s, uint64_t *v)
{
	char *end;

	*v = strtoull(s, &end, 16);
	return (size_t)(end - s);
}

/* The largest perf map read: a JIT's (a JVM's with every method of a long
 * run) stays under 100 MB; a larger one, or one growing without end while
 * it is read, is not a map */
#define PERF_MAP_MAX_FILE (1ULL << 30)

static int load_perf_map(struct sym_dso *d, struct sym_load_ctx *c)
{
	struct tb_err err = { 0 };
	int fd = open_regular(d->name, PERF_MAP_MAX_FILE, NULL, &err);
	FILE *f = fd >= 0 ? fdopen(fd, "re") : NULL;
	char *line = NULL;
	size_t cap = 0, total = 0;
	ssize_t got;
	int nr = 0;

	if (fd < 0 && errno != ENOENT && errno != ENOTDIR)
		snprintf(c->warning, sizeof(c->warning), "%s, JIT symbols not read", err.msg);
	if (!f) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	sym_table_track(&d->tab);     /* entries may overlap (code moved, reused): perf's tree decides */
	while ((got = getline(&line, &cap, f)) > 0 && (total += (size_t)got) <= PERF_MAP_MAX_FILE) {
		size_t len, ll = (size_t)got - 1;
		uint64_t start, size;

		line[ll] = 0;          /* perf drops the last character, "\n" or not */
		len = hex_prefix(line, &start) + 1;
		if (len + 2 >= ll)
			continue;
		len += hex_prefix(line + len, &size) + 1;
		if (len + 2 >= ll)
			continue;
		if (sym_table_add(&d->tab, start, size, 1, line + len, strlen(line + len))) {
			free(line);
			fclose(f);
			return TB_ERR_NOMEM;
		}
		nr++;
	}
	free(line);
	fclose(f);
	sym_table_sort(&d->tab);
	sym_table_seal(&d->tab);
	return 0;
}

/* ---- ELF candidates ---- */

struct cand {
	struct sym_elf syms, run;
	int have_syms, have_run;
};

/* Try one candidate file as perf's dso__load loop does: 1 when both a
 * .symtab and a runtime image are in hand (stop looking). */
static int try_file(struct sym_dso *d, struct sym_load_ctx *c, struct cand *k, const char *path,
		    int main_file, int *err)
{
	struct sym_elf e;
	char why[256] = "";
	int r, used = 0;

	r = sym_elf_open_file(&e, path, why, sizeof(why));
	if (r == TB_ERR_NOMEM) {
		*err = r;
		return 1;
	}
	if (r) {
		/* a FIFO, a device or a directory where a file is looked for:
		 * said, wherever it is; a bad ELF only for the file itself */
		if ((r == -2 || (r < 0 && main_file)) && !c->warning[0])
			snprintf(c->warning, sizeof(c->warning), "%s", why);
		return 0;
	}
	if (d->has_bid) {
		unsigned char id[20];
		size_t n = sym_elf_build_id(&e, id);

		if (!n || !bid_equal(d, id, n)) {
			if (main_file && !c->warning[0]) {
				char hex[41];

				buildid_hex(d->bid, (int)d->bid_len, hex);
				snprintf(c->warning, sizeof(c->warning),
					 "%s: build-id differs from the recording's (%s), symbols "
					 "not used", path, hex);
			}
			sym_elf_close(&e);
			return 0;
		}
	}
	if (!k->have_syms && e.symtab) {
		k->syms = e;
		k->have_syms = 1;
		used = 1;
		free(d->symsrc);
		d->symsrc = strdup(path);   /* NULL on ENOMEM: the dso's own file then */
	}
	if (!k->have_run && e.dynsym) {
		if (used) {
			/* the same image serves both: share it (closed once) */
			k->run = e;
			k->run.buf = NULL;
			k->run.elf = NULL;
			k->have_run = 2;
		} else {
			k->run = e;
			k->have_run = 1;
			used = 1;
		}
	}
	if (!used)
		sym_elf_close(&e);
	return k->have_syms && k->have_run;
}

static int load_elf(struct sym_dso *d, struct sym_load_ctx *c, struct cand *k)
{
	struct sym_elf *ss, *rs;
	int n;

	if (!k->have_syms && !k->have_run)
		return 0;
	ss = k->have_syms ? &k->syms : &k->run;
	rs = k->have_run == 1 ? &k->run : k->have_run == 2 ? &k->syms : ss;
	sym_table_track(&d->tab);
	n = sym_elf_load_syms(&d->tab, ss, rs, c->demangle);
	if (n > 0 && rs->dynsym && sym_elf_plt(&d->tab, rs, c->demangle) < 0)
		n = -1;
	sym_table_seal(&d->tab);
	return n == -1 ? TB_ERR_NOMEM : 0;    /* SYM_PASS_FAILED: what was read serves */
}

static void cand_close(struct cand *k)
{
	if (k->have_syms)
		sym_elf_close(&k->syms);
	if (k->have_run == 1)
		sym_elf_close(&k->run);
}

/* the build-id cache entry of @d: .build-id/xx/rest, then /<file> inside it */
static int cache_path(const struct sym_dso *d, const struct sym_load_ctx *c, const char *file,
		      char *out, size_t n)
{
	char hex[41];

	if (!d->has_bid)
		return -1;
	buildid_hex(d->bid, (int)d->bid_len, hex);
	snprintf(out, n, "%s/.build-id/%.2s/%s", c->buildid_dir, hex, hex + 2);
	if (!is_regular(out)) {
		size_t l = strlen(out);

		snprintf(out + l, n - l, "/%s", file);
	}
	return 0;
}

/* whether the file @path has the CRC-32 @crc (zlib's, as the GNU tools
 * compute it for .gnu_debuglink) */
static int crc_matches(const char *path, uint32_t crc)
{
	unsigned char buf[1 << 16];
	uLong sum = crc32(0, NULL, 0);
	ssize_t got;
	int fd = open_regular(path, SYM_ELF_MAX_FILE, NULL, NULL);

	if (fd < 0)
		return 0;
	while ((got = read(fd, buf, sizeof(buf))) > 0)
		sum = crc32(sum, buf, (uInt)got);
	close(fd);
	return got == 0 && (uint32_t)sum == crc;
}

/* Beyond perf: MiniDebugInfo. A file with no symbol table of its own or
 * beside it may carry one in .gnu_debugdata (xz); its symbols then. */
static void mini_debuginfo(struct cand *k)
{
	struct sym_elf e;
	char why[256];
	size_t len = 0;
	unsigned char *img = sym_elf_debugdata(&k->run, &len);

	if (!img)
		return;
	if (sym_elf_open_mem(&e, img, len, why, sizeof(why))) {
		free(img);
		return;
	}
	e.buf = img;                      /* ours: sym_elf_close frees it */
	e.len = len;
	if (!e.symtab) {
		sym_elf_close(&e);
		return;
	}
	k->syms = e;
	k->have_syms = 1;
}

static const char *const debuglink_fmt[] = { "%.0s%s", "%s/%s", "%s/.debug/%s",
					      "/usr/lib/debug%s/%s" };

static int load_file_dso(struct sym_dso *d, struct sym_load_ctx *c)
{
	char path[4096], link[512], dir[4096];
	struct cand k = { 0 };
	int err = 0, done = 0;

	snprintf(path, sizeof(path), "%s%s", c->symfs, d->name);
	/* perf reads the build-id of the file when the recording has none */
	if (!d->has_bid && is_regular(d->name)) {
		struct sym_elf e;
		char why[256];

		if (sym_elf_open_file(&e, path, why, sizeof(why)) == 0) {
			d->bid_len = sym_elf_build_id(&e, d->bid);
			d->has_bid = d->bid_len > 0;
			sym_elf_close(&e);
		}
	}
	/* DEBUGLINK */
	if (is_regular(path)) {
		struct sym_elf e;
		char why[256];

		if (sym_elf_open_file(&e, path, why, sizeof(why)) == 0) {
			uint32_t crc;
			int have = sym_elf_debuglink(&e, link, sizeof(link), &crc);

			sym_elf_close(&e);
			if (have >= 0) {
				char *slash = strrchr(path, '/');
				size_t dl = slash ? (size_t)(slash - path) : 0;

				memcpy(dir, path, dl);
				dir[dl] = 0;
				for (size_t i = 0; i < 4; i++) {
					char cp[4096 + 600];

					snprintf(cp, sizeof(cp), debuglink_fmt[i], dir, link);
					if (!is_regular(cp))
						continue;
					/* beyond perf: a debug file of another build
					 * (its CRC-32 not the link's) is not used */
					if (have == 0 && !crc_matches(cp, crc)) {
						if (!c->warning[0])
							snprintf(c->warning, sizeof(c->warning),
								 "%.200s: its CRC-32 is not the "
								 ".gnu_debuglink's, not used", cp);
						continue;
					}
					done = try_file(d, c, &k, cp, 0, &err);
					break;
				}
			}
		}
	}
	if (!done && cache_path(d, c, "elf", path, sizeof(path)) == 0)
		done = try_file(d, c, &k, path, 0, &err);
	if (!done && cache_path(d, c, "debug", path, sizeof(path)) == 0 &&
	    strcmp(path + strlen(path) - 6, "/debug") == 0)
		done = try_file(d, c, &k, path, 0, &err);
	if (!done) {
		snprintf(path, sizeof(path), "%s/usr/lib/debug%s.debug", c->symfs, d->name);
		done = try_file(d, c, &k, path, 0, &err);
	}
	if (!done) {
		snprintf(path, sizeof(path), "%s/usr/lib/debug%s", c->symfs, d->name);
		done = try_file(d, c, &k, path, 0, &err);
	}
	if (!done && d->has_bid) {
		char hex[41];

		buildid_hex(d->bid, (int)d->bid_len, hex);
		snprintf(path, sizeof(path), "%s/usr/lib/debug/.build-id/%.2s/%s.debug", c->symfs,
			 hex, hex + 2);
		done = try_file(d, c, &k, path, 0, &err);
	}
	/* beyond perf: a debuginfod server's debug file, then its executable
	 * when the file itself is not here */
	if (!done && !k.have_syms && d->has_bid && c->di &&
	    !sym_debuginfod_fetch(c->di, d->bid, d->bid_len, "debuginfo", path, sizeof(path)))
		done = try_file(d, c, &k, path, 0, &err);
	if (!done) {
		snprintf(path, sizeof(path), "%s%s", c->symfs, d->name);
		done = try_file(d, c, &k, path, 1, &err);
	}
	if (!done && !k.have_run && d->has_bid && c->di && !is_regular(path) &&
	    !sym_debuginfod_fetch(c->di, d->bid, d->bid_len, "executable", path, sizeof(path)))
		done = try_file(d, c, &k, path, 0, &err);
	if (!done && !strncmp(d->name, "/usr/lib/", 9)) {
		snprintf(path, sizeof(path), "%s/usr/lib/debug%s", c->symfs, d->name + 4);
		done = try_file(d, c, &k, path, 0, &err);
	}
	if (!err && !k.have_syms && k.have_run == 1)
		mini_debuginfo(&k);
	if (!err)
		err = load_elf(d, c, &k);
	cand_close(&k);
	sym_table_text_gone(&d->tab);      /* names now read back from the files */
	return err;
}

/* ---- [vdso] ---- */

/* our own vdso, as perf uses its own when the build-id cache lacks it */
static int own_vdso(struct sym_dso *d, struct sym_load_ctx *c, struct cand *k)
{
	FILE *f = fopen("/proc/self/maps", "re");
	char line[512];
	unsigned long long lo = 0, hi = 0;
	int found = 0, err = 0;
	unsigned char *copy;
	struct sym_elf e;
	char why[256];

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (strstr(line, "[vdso]") && sscanf(line, "%llx-%llx", &lo, &hi) == 2) {
			found = 1;
			break;
		}
	fclose(f);
	if (!found || hi <= lo || hi - lo > (1u << 20))
		return 0;
	copy = malloc(hi - lo);
	if (!copy)
		return TB_ERR_NOMEM;
	memcpy(copy, (const void *)(uintptr_t)lo, hi - lo);
	if (sym_elf_open_mem(&e, copy, hi - lo, why, sizeof(why))) {
		free(copy);
		return 0;
	}
	e.buf = copy;
	e.len = hi - lo;
	if (d->has_bid) {
		unsigned char id[20];
		size_t n = sym_elf_build_id(&e, id);

		if (!n || !bid_equal(d, id, n)) {
			sym_elf_close(&e);
			return 0;
		}
	}
	if (e.symtab || e.dynsym) {
		k->syms = e;
		k->have_syms = 1;
	} else {
		sym_elf_close(&e);
	}
	return err;
}

static int load_vdso(struct sym_dso *d, struct sym_load_ctx *c)
{
	char path[4096];
	struct cand k = { 0 };
	int err = 0, done = 0;

	if (cache_path(d, c, "vdso", path, sizeof(path)) == 0)
		done = try_file(d, c, &k, path, 0, &err);
	if (!err && !k.have_syms && !k.have_run && !c->symfs[0])
		err = own_vdso(d, c, &k);
	(void)done;
	if (!err && !k.have_syms && k.have_run == 1)
		mini_debuginfo(&k);
	if (!err)
		err = load_elf(d, c, &k);
	cand_close(&k);
	sym_table_text_gone(&d->tab);      /* names now read back from the files */
	return err;
}

int sym_dso_load(struct sym_dso *d, struct sym_load_ctx *c)
{
	if (d->loaded)
		return 0;
	d->loaded = 1;
	switch (d->kind) {
	case SYM_DSO_JIT:
		return load_perf_map(d, c);
	case SYM_DSO_VDSO:
		return load_vdso(d, c);
	case SYM_DSO_FILE:
		/* perf's dso__load: whatever file is named /tmp/perf-* is a perf map */
		if (!strncmp(d->name, "/tmp/perf-", 10))
			return load_perf_map(d, c);
		return load_file_dso(d, c);
	default:
		return 0;
	}
}
