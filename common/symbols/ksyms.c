/* ksyms.c - load /proc/kallsyms text and look addresses up, with perf's
 * rules: T/W/D/B symbols only, of duplicates at one address the last
 * listed, each symbol ending where the next of its dso begins. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "symbols/ksyms.h"
#include "util/io.h"

/* 16 bytes a symbol (about 120,000 of them): the end is not kept but
 * worked out from the next symbol (ksym_end) */
struct ksym {
	uint64_t start;
	uint32_t name;      /* offset in the names arena */
	uint16_t mod;       /* 0: the kernel; i: mods[i - 1] */
	char bind;          /* 'G'lobal, 'L'ocal, 'W'eak */
	char next_same;     /* the next address's first symbol has this one's module */
};

#define MAX_MODS 65535u

struct ksyms {
	const char *ref_name;   /* ksyms_set_ref: note where this function starts */
	uint64_t ref_addr;
	int ref_found;
	struct ksym *syms;
	size_t nr, cap;
	const char *path;
	const uint64_t *gate;
	int loaded;
	char *names;        /* the kept names and module names, NUL-terminated */
	size_t names_len, names_cap;
	uint32_t *mods;     /* module name offsets in names */
	size_t nr_mods;
	size_t last;        /* the latest hit + 1 (0: none): stacks repeat their frames */
	/* while loading */
	int sorted;
	size_t sorted_to;
	int failed;
};

/* A symbol ends where the next symbol starts if that one is of its dso
 * (the kernel, or its module), else a page past its start rounded up
 * (perf 6.1's symbols__fixup_end for kallsyms). */
static uint64_t ksym_end(const struct ksyms *k, size_t i)
{
	const struct ksym *s = &k->syms[i];

	if (i + 1 < k->nr && s->next_same)
		return k->syms[i + 1].start;
	return ((s->start + 4095) & ~4095ULL) + 4096;
}

/* The arena offset of @len bytes of @s, NUL-terminated; UINT32_MAX on failure. */
static uint32_t keep_name(struct ksyms *k, const char *s, size_t len)
{
	uint32_t at;

	if (len >= UINT32_MAX - k->names_len - 1)
		return UINT32_MAX;
	if (k->names_len + len + 1 > k->names_cap) {
		size_t cap = k->names_cap ? k->names_cap : 1 << 16;
		char *nn;

		while (cap < k->names_len + len + 1)
			cap *= 2;
		nn = realloc(k->names, cap);
		if (!nn)
			return UINT32_MAX;
		k->names = nn;
		k->names_cap = cap;
	}
	at = (uint32_t)k->names_len;
	memcpy(k->names + at, s, len);
	k->names[at + len] = 0;
	k->names_len += len + 1;
	return at;
}

/* The module index of [@m, @m + @len): the latest one (a module's lines
 * come together), else any known one, else a new one; 0 when out of room. */
static uint16_t mod_index(struct ksyms *k, const char *m, size_t len, uint16_t latest)
{
	uint32_t *nm, at;

	for (size_t i = latest ? latest - 1 : 0, n = 0; n < k->nr_mods; n++, i = (i + 1) % k->nr_mods) {
		const char *have = k->names + k->mods[i];

		if (!strncmp(have, m, len) && !have[len])
			return (uint16_t)(i + 1);
	}
	if (k->nr_mods >= MAX_MODS)
		return 0;
	nm = realloc(k->mods, (k->nr_mods + 1) * sizeof(*nm));
	if (!nm)
		return 0;
	k->mods = nm;
	at = keep_name(k, m, len);
	if (at == UINT32_MAX)
		return 0;
	k->mods[k->nr_mods++] = at;
	return (uint16_t)k->nr_mods;
}

/* One line of kallsyms text, [line, eol), no newline; 0, or -1 when out of memory. */
static int add_line(struct ksyms *k, const char *line, const char *eol, uint16_t *latest_mod)
{
	const char *end, *type, *name, *name_end, *mod = NULL, *mod_end = NULL;
	uint64_t addr = 0;
	struct ksym *s;
	uint32_t at;
	char t;
	int nd = 0;

	/* the address: hex digits (strtoull for anything unusual, in a copy
	 * that ends: the line does not) */
	for (end = line; end < eol && nd <= 16; end++, nd++) {
		int h = *end >= '0' && *end <= '9' ? *end - '0' :
			*end >= 'a' && *end <= 'f' ? *end - 'a' + 10 :
			*end >= 'A' && *end <= 'F' ? *end - 'A' + 10 : -1;

		if (h < 0)
			break;
		addr = addr << 4 | (uint64_t)h;
	}
	if (nd == 0 || nd > 16) {
		char num[64];
		size_t l = (size_t)(eol - line) < sizeof(num) - 1 ? (size_t)(eol - line) : sizeof(num) - 1;
		char *e;

		memcpy(num, line, l);
		num[l] = 0;
		addr = strtoull(num, &e, 16);
		end = line + (e - num);
	}
	if (end == line || end >= eol || *end != ' ')
		return 0;
	type = end + 1;
	if (type + 1 >= eol || type[1] != ' ')
		return 0;
	t = (char)toupper((unsigned char)type[0]);
	name = type + 2;
	name_end = memchr(name, '\t', (size_t)(eol - name));
	if (name_end) {
		mod = name_end + 1;
		mod_end = eol;
		if (mod < eol && *mod == '[') {
			const char *close;

			mod++;
			close = memchr(mod, ']', (size_t)(eol - mod));
			mod_end = close ? close : eol;
		}
	} else {
		name_end = eol;
	}
	if (k->ref_name && !k->ref_found && (t == 'T' || t == 'W' || t == 'A')) {
		size_t rl = strlen(k->ref_name);

		/* perf's kallsyms__get_function_start: the first one of that name */
		if ((size_t)(name_end - name) == rl && !memcmp(name, k->ref_name, rl)) {
			k->ref_addr = addr;
			k->ref_found = 1;
		}
	}
	if (t != 'T' && t != 'W' && t != 'D' && t != 'B')
		return 0;
	if (k->nr == k->cap) {
		size_t cap = k->cap ? k->cap * 2 : 4096;
		struct ksym *ns = realloc(k->syms, cap * sizeof(*ns));

		if (!ns)
			return -1;
		k->syms = ns;
		k->cap = cap;
	}
	at = keep_name(k, name, (size_t)(name_end - name));
	if (at == UINT32_MAX)
		return -1;
	s = &k->syms[k->nr];
	s->start = addr;
	s->name = at;
	s->mod = 0;
	if (mod && !(*latest_mod = mod_index(k, mod, (size_t)(mod_end - mod), *latest_mod)))
		return -1;
	if (mod)
		s->mod = *latest_mod;
	s->bind = t == 'W' ? 'W' : isupper((unsigned char)type[0]) ? 'G' : 'L';
	s->next_same = 0;
	if (k->nr && k->sorted && addr < k->syms[k->nr - 1].start) {
		k->sorted = 0;
		k->sorted_to = k->nr;
	}
	k->nr++;
	return 0;
}

/* Sort @n symbols by start, equal starts in their order (a merge sort
 * through @tmp, which has room for @n). */
static void sort_stable(struct ksym *v, size_t n, struct ksym *tmp)
{
	size_t h = n / 2, a = 0, b = h, o = 0;

	if (n < 2)
		return;
	sort_stable(v, h, tmp);
	sort_stable(v + h, n - h, tmp);
	while (a < h || b < n)
		tmp[o++] = b == n || (a < h && v[a].start <= v[b].start) ? v[a++] : v[b++];
	memcpy(v, tmp, n * sizeof(*v));
}

/* /proc/kallsyms is in address order but for modules and BPF at its
 * end: sort that tail and merge it in, equal addresses in file order. */
static int sort_tail(struct ksyms *k)
{
	size_t n = k->nr, head = k->sorted_to, a = 0, b = head, o = 0;
	struct ksym *m;

	if (k->sorted)
		return 0;
	m = malloc(n * sizeof(*m));
	if (!m)
		return -1;
	sort_stable(k->syms + head, n - head, m);
	while (a < head || b < n)
		m[o++] = b == n || (a < head && k->syms[a].start <= k->syms[b].start) ?
			 k->syms[a++] : k->syms[b++];
	free(k->syms);
	k->syms = m;
	k->cap = n;
	return 0;
}

/*
 * perf 6.1 (symbols__fixup_end, then symbols__fixup_duplicate): a symbol
 * ends where the next one of its dso (the kernel, or its module) starts,
 * the last of a dso a page past its start rounded up; of symbols sharing
 * an address only the one listed last has a length, so it is the one
 * kept. The end is judged by the first symbol of the next address.
 */
static void fix_ends(struct ksyms *k)
{
	size_t n = k->nr, out = 0;

	for (size_t i = 0; i < n; ) {
		size_t j = i + 1;

		while (j < n && k->syms[j].start == k->syms[i].start)
			j++;
		k->syms[out] = k->syms[j - 1];
		k->syms[out].next_same = j < n && k->syms[j].mod == k->syms[j - 1].mod;
		out++;
		i = j;
	}
	k->nr = out;
}

static void reset(struct ksyms *k)
{
	free(k->syms);
	free(k->names);
	free(k->mods);
	k->syms = NULL;
	k->names = NULL;
	k->mods = NULL;
	k->nr = k->cap = k->names_len = k->names_cap = k->nr_mods = 0;
	k->last = 0;
	k->sorted = 1;
	k->sorted_to = 0;
	k->failed = 0;
	k->ref_found = 0;
}

/* The end of loading: sort, fix ends; the symbols kept, or -1. */
static int finish(struct ksyms *k)
{
	if (k->failed || sort_tail(k)) {
		reset(k);
		return -1;
	}
	fix_ends(k);
	return (int)k->nr;
}

/* Feed whole lines of @buf[0..@len); returns the bytes used (the last,
 * unended line is left unless @final). A NUL at a line's start ends the text. */
static size_t feed(struct ksyms *k, const char *buf, size_t len, int final, int *stop,
		   uint16_t *latest)
{
	const char *p = buf, *end = buf + len;

	while (p < end && !*stop) {
		const char *eol = memchr(p, '\n', (size_t)(end - p));

		if (!*p) {
			*stop = 1;
			break;
		}
		if (!eol && !final)
			break;
		if (!eol)
			eol = end;
		if (add_line(k, p, eol, latest) < 0) {
			k->failed = 1;
			*stop = 1;
		}
		p = eol < end ? eol + 1 : end;
	}
	return (size_t)(p - buf);
}

int ksyms_load_text(struct ksyms *k, const char *text, size_t len)
{
	int stop = 0;
	uint16_t latest = 0;

	reset(k);
	feed(k, text, len, 1, &stop, &latest);
	return finish(k);
}

const char *ksyms_lookup(struct ksyms *k, uint64_t addr, uint64_t *start, const char **mod)
{
	uint64_t end;

	return ksyms_lookup_range(k, addr, start, &end, mod);
}

/* The index + 1 of the symbol containing @addr (perf's rule: a symbol's
 * end belongs to it only when it is empty), or 0; the latest hit first. */
static size_t find(struct ksyms *k, uint64_t addr)
{
	size_t lo = 0, hi = k->nr;

	if (k->last) {
		const struct ksym *s = &k->syms[k->last - 1];
		uint64_t e = ksym_end(k, k->last - 1);

		if (addr >= s->start && (addr < e || addr == s->start))
			return k->last;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct ksym *s = &k->syms[mid];
		uint64_t e = ksym_end(k, mid);

		if (addr < s->start)
			hi = mid;
		else if (addr > e || (addr == e && addr != s->start))
			lo = mid + 1;
		else
			return k->last = mid + 1;
	}
	return 0;
}

const char *ksyms_lookup_range(struct ksyms *k, uint64_t addr, uint64_t *start, uint64_t *end,
			       const char **mod)
{
	size_t i = find(k, addr);
	const struct ksym *s;

	if (!i)
		return NULL;
	s = &k->syms[i - 1];
	*start = s->start;
	*end = ksym_end(k, i - 1);
	*mod = s->mod ? k->names + k->mods[s->mod - 1] : NULL;
	return k->names + s->name;
}

/* The largest kallsyms file read: /proc/kallsyms of a distribution kernel
 * with its modules is 10 to 20 MB; a file from the build-id cache or
 * --kallsyms larger than this is not one. /proc/kallsyms says size 0 in
 * stat and passes: the kernel writes it. */
#define KSYMS_MAX_FILE (256ULL << 20)

/* Read @path a block at a time (it may be /proc/kallsyms: 5 MB of text
 * of which the names are kept). */
int ksyms_load_path(struct ksyms *k, const char *path, struct tb_err *err)
{
	size_t cap = 1 << 16, len = 0;
	char *buf = malloc(cap);
	int fd = open_regular(path, KSYMS_MAX_FILE, NULL, err);
	int stop = 0, r = -1;
	uint16_t latest = 0;
	ssize_t got = -1;

	k->loaded = 1;
	reset(k);
	if (fd < 0 || !buf)
		goto out;
	while (!stop) {
		size_t used;

		got = read_some(fd, buf + len, cap - len);
		if (got < 0) {
			tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s: %s", path, strerror(errno));
			break;
		}
		len += (size_t)got;
		used = feed(k, buf, len, got == 0, &stop, &latest);
		memmove(buf, buf + used, len - used);
		len -= used;
		if (got == 0)
			break;
		if (len == cap) {               /* a line longer than the buffer */
			char *nb = cap < (1u << 24) ? realloc(buf, cap * 2) : NULL;

			if (!nb) {
				k->failed = 1;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	if (got >= 0 || stop)
		r = finish(k);
	else
		reset(k);
out:
	if (fd >= 0)
		close(fd);
	free(buf);
	return r;
}

static char *resolve(void *priv, unsigned long long *addrp, char **modp)
{
	struct ksyms *k = priv;
	uint64_t start;
	const char *mod, *name;

	if (k->gate && *k->gate == 0)
		return NULL;
	if (!k->loaded)
		ksyms_load_path(k, k->path, NULL);
	name = ksyms_lookup(k, *addrp, &start, &mod);
	if (!name)
		return NULL;
	*addrp = start;
	*modp = (char *)mod;
	return (char *)name;
}

struct ksyms *ksyms_attach(struct tep_handle *tep, const char *path, const uint64_t *gate)
{
	struct ksyms *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	k->path = path;
	k->gate = gate;
	k->sorted = 1;
	if (tep && tep_set_function_resolver(tep, resolve, k)) {
		free(k);
		return NULL;
	}
	return k;
}

int ksyms_range(const struct ksyms *k, uint64_t *first, uint64_t *last_end)
{
	int found = 0;

	for (size_t i = 0; i < k->nr; i++) {
		if (k->syms[i].mod)
			continue;
		if (!found)
			*first = k->syms[i].start;
		*last_end = ksym_end(k, i);
		found = 1;
	}
	return found ? 0 : -1;
}

void ksyms_set_ref(struct ksyms *k, const char *name)
{
	k->ref_name = name;
}

int ksyms_ref(const struct ksyms *k, uint64_t *addr)
{
	if (!k->ref_found)
		return -1;
	*addr = k->ref_addr;
	return 0;
}

void ksyms_free(struct ksyms *k)
{
	if (!k)
		return;
	reset(k);
	free(k);
}

int ksyms_binding(struct ksyms *k, uint64_t addr)
{
	size_t i = find(k, addr);

	if (!i)
		return -1;
	return k->syms[i - 1].bind == 'W' ? 2 : k->syms[i - 1].bind == 'G' ? 1 : 0;
}
