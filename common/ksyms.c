/* ksyms.c - load /proc/kallsyms text and look addresses up, with perf's
 * rules: T/W/D/B symbols only, of duplicates at one address the last
 * listed, each symbol ending where the next of its dso begins. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <traceevent/event-parse.h>
#include "ksyms.h"

struct ksym {
	uint64_t start, end;
	size_t idx;         /* position in the text: the last listed wins */
	char *name;
	char *mod;          /* "[mod]" short name without brackets, or NULL */
	char bind;          /* 'G'lobal, 'L'ocal, 'W'eak */
};

struct ksyms {
	const char *ref_name;   /* ksyms_set_ref: note where this function starts */
	uint64_t ref_addr;
	int ref_found;
	struct ksym *syms;
	size_t nr;
	const char *path;
	const uint64_t *gate;
	int loaded;
	char *text;         /* names point into it */
	const struct ksym *last;   /* the latest hit: stacks repeat their frames */
};

static int cmp_start(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static int same_group(const struct ksym *a, const struct ksym *b)
{
	return (!a->mod && !b->mod) || (a->mod && b->mod && !strcmp(a->mod, b->mod));
}

/* parse @buf (@len bytes, buf[len] writable), which the table then owns */
/* /proc/kallsyms is in address order but for modules and BPF at its
 * end: sort that tail (from @sorted_to) and merge it in. */
static void sort_tail(struct ksyms *k, size_t n, int sorted, size_t sorted_to)
{
	if (!sorted) {
		struct ksym *m = malloc(n * sizeof(*m));
		size_t a = 0, b = sorted_to, o = 0;

		qsort(k->syms + sorted_to, n - sorted_to, sizeof(*k->syms), cmp_start);
		if (!m) {
			qsort(k->syms, n, sizeof(*k->syms), cmp_start);
		} else {
			while (a < sorted_to || b < n)
				m[o++] = b == n || (a < sorted_to &&
						    cmp_start(&k->syms[a], &k->syms[b]) <= 0) ?
					 k->syms[a++] : k->syms[b++];
			free(k->syms);
			k->syms = m;
			k->last = NULL;
		}
	}
}

/* Symbol ends and duplicates, as perf fixes them up; sets k->nr. */
static void fix_ends(struct ksyms *k, size_t n)
{
	/*
	 * perf 6.1 (symbols__fixup_end, then symbols__fixup_duplicate): a
	 * symbol ends where the next one of its dso (the kernel, or its
	 * module) starts, the last of a dso a page past its start rounded
	 * up; of symbols sharing an address only the one listed last has a
	 * length, so it is the one kept.
	 */
	for (size_t i = 0; i < n; i++) {
		size_t j = i + 1;

		while (j < n && k->syms[j].start == k->syms[i].start)
			j++;
		k->syms[i].end = j < n && same_group(&k->syms[i], &k->syms[j]) ? k->syms[j].start :
			((k->syms[i].start + 4095) & ~4095ULL) + 4096;
	}
	for (size_t i = 0; i < n; i++)
		if (i + 1 == n || k->syms[i + 1].start != k->syms[i].start)
			k->syms[k->nr++] = k->syms[i];
}

static int load_owned(struct ksyms *k, char *buf, size_t len)
{
	char *line, *next;
	size_t cap = 0, n = 0;
	int sorted = 1;

	char *bend = buf + len;
	size_t sorted_to = 0;

	buf[len] = 0;
	k->ref_found = 0;
	for (line = buf; line < bend && *line; line = next) {
		char *end, *type, *name, *mod, *eol;
		uint64_t addr = 0;
		char t;
		int nd = 0;

		eol = memchr(line, '\n', (size_t)(bend - line));
		if (eol) {
			*eol = 0;
			next = eol + 1;
		} else {
			eol = bend;
			next = bend;
		}
		/* the address: hex digits (strtoull for anything unusual) */
		for (end = line; nd <= 16; end++, nd++) {
			int h = *end >= '0' && *end <= '9' ? *end - '0' :
				*end >= 'a' && *end <= 'f' ? *end - 'a' + 10 :
				*end >= 'A' && *end <= 'F' ? *end - 'A' + 10 : -1;

			if (h < 0)
				break;
			addr = addr << 4 | (uint64_t)h;
		}
		if (nd == 0 || nd > 16)
			addr = strtoull(line, &end, 16);
		if (end == line || *end != ' ')
			continue;
		type = end + 1;
		if (!type[0] || type[1] != ' ')
			continue;
		t = (char)toupper((unsigned char)type[0]);
		if (k->ref_name && !k->ref_found && (t == 'T' || t == 'W' || t == 'A')) {
			size_t rl = strlen(k->ref_name);

			/* perf's kallsyms__get_function_start: the first one of that name */
			if (!strncmp(type + 2, k->ref_name, rl) &&
			    (type[2 + rl] == 0 || type[2 + rl] == '\t' || type[2 + rl] == '\n')) {
				k->ref_addr = addr;
				k->ref_found = 1;
			}
		}
		if (t != 'T' && t != 'W' && t != 'D' && t != 'B')
			continue;
		name = type + 2;
		mod = memchr(name, '\t', (size_t)(eol - name));
		if (mod) {
			*mod++ = 0;
			if (*mod == '[') {
				mod++;
				mod[strcspn(mod, "]")] = 0;
			}
		}
		if (n == cap) {
			struct ksym *ns;

			cap = cap ? cap * 2 : 4096;
			ns = realloc(k->syms, cap * sizeof(*ns));
			if (!ns) {
				free(buf);
				return -1;
			}
			k->syms = ns;
			k->last = NULL;
		}
		k->syms[n].start = addr;
		k->syms[n].end = addr;
		k->syms[n].idx = n;
		k->syms[n].name = name;
		k->syms[n].mod = mod;
		k->syms[n].bind = t == 'W' ? 'W' : isupper((unsigned char)type[0]) ? 'G' : 'L';
		if (n && sorted && addr < k->syms[n - 1].start) {
			sorted = 0;
			sorted_to = n;
		}
		n++;
	}
	k->nr = 0;
	k->last = NULL;
	if (n == 0)
		goto done;
	sort_tail(k, n, sorted, sorted_to);
	fix_ends(k, n);
done:
	free(k->text);
	k->text = buf;
	return (int)k->nr;
}

int ksyms_load_text(struct ksyms *k, const char *text, size_t len)
{
	char *buf = malloc(len + 1);

	if (!buf)
		return -1;
	memcpy(buf, text, len);
	return load_owned(k, buf, len);
}

const char *ksyms_lookup(struct ksyms *k, uint64_t addr, uint64_t *start, const char **mod)
{
	uint64_t end;

	return ksyms_lookup_range(k, addr, start, &end, mod);
}

/* The symbol containing @addr (perf's rule: a symbol's end belongs to it
 * only when it is empty), or NULL; one search, the latest hit first. */
static const struct ksym *find(struct ksyms *k, uint64_t addr)
{
	const struct ksym *s = k->last;
	size_t lo = 0, hi = k->nr;

	if (s && addr >= s->start && (addr < s->end || addr == s->start))
		return s;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		s = &k->syms[mid];
		if (addr < s->start)
			hi = mid;
		else if (addr > s->end || (addr == s->end && addr != s->start))
			lo = mid + 1;
		else
			return k->last = s;
	}
	return NULL;
}

const char *ksyms_lookup_range(struct ksyms *k, uint64_t addr, uint64_t *start, uint64_t *end,
			       const char **mod)
{
	const struct ksym *s = find(k, addr);

	if (!s)
		return NULL;
	*start = s->start;
	*end = s->end;
	*mod = s->mod;
	return s->name;
}

int ksyms_load_path(struct ksyms *k, const char *path)
{
	size_t cap = 8 << 20, len = 0;
	char *buf = malloc(cap);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t got;
	int r = -1;

	k->loaded = 1;
	if (fd < 0 || !buf)
		goto out;
	while ((got = read(fd, buf + len, cap - len)) > 0) {
		len += (size_t)got;
		if (len == cap) {
			char *nb = realloc(buf, cap * 2);

			if (!nb)
				goto out;
			buf = nb;
			cap *= 2;
		}
	}
	if (got == 0) {
		r = load_owned(k, buf, len);     /* len < cap: room for the NUL */
		buf = NULL;
	}
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
		ksyms_load_path(k, k->path);
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
		*last_end = k->syms[i].end;
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
	free(k->syms);
	free(k->text);
	free(k);
}

int ksyms_binding(struct ksyms *k, uint64_t addr)
{
	const struct ksym *s = find(k, addr);

	if (!s)
		return -1;
	return s->bind == 'W' ? 2 : s->bind == 'G' ? 1 : 0;
}
