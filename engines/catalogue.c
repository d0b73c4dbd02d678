/* catalogue.c - the canned scripts of every language, from the engines'
 * ops table (its script folder and extension): no interpreter needed. They
 * are looked for in the script tree on disk, then in the binary's payload
 * (payload.h): a file on disk wins over the carried one. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "catalogue.h"
#include "util/payload.h"

#define PAYLOAD_SCRIPTS PAYLOAD_ROOT "/scripts"

const struct engine_ops *cat_lang(const char *spec, const char **rest)
{
	const char *colon = strchr(spec, ':');
	const struct engine_ops *const *e = engine_list();

	*rest = spec;
	for (int i = 0; colon && e[i]; i++) {
		size_t n = (size_t)(colon - spec);

		if ((strlen(e[i]->name) == n && !strncasecmp(spec, e[i]->name, n)) ||
		    (strlen(e[i]->alias) == n && !strncasecmp(spec, e[i]->alias, n))) {
			*rest = colon + 1;
			return e[i];
		}
	}
	return NULL;
}

static char *path_of(const char *dir, const struct engine_ops *l, const char *name,
		     const char *tail)
{
	char *p;

	return asprintf(&p, "%s/%s/%s%s", dir, l->dir, name, tail) < 0 ? NULL : p;
}

/* "@dir/@name", or NULL */
static char *path_join(const char *dir, const char *name)
{
	char *p;

	return asprintf(&p, "%s/%s", dir, name) < 0 ? NULL : p;
}

void cat_script_free(struct cat_script *s)
{
	free(s->descriptor);
	free(s->script);
	memset(s, 0, sizeof(*s));
}

/* @l's @half of @name into @out: 1 found, 0 not there, TB_ERR_NOMEM. */
static int find_in(const char *dir, const struct engine_ops *l, const char *name,
		   enum cat_half half, struct cat_script *out)
{
	const char *tail = half == CAT_RECORD ? "-record" : "-report";

	memset(out, 0, sizeof(*out));
	out->lang = l;
	if (asprintf(&out->descriptor, "%s/%s/bin/%s%s", dir, l->dir, name, tail) < 0) {
		out->descriptor = NULL;
		return TB_ERR_NOMEM;
	}
	if (half == CAT_REPORT && !(out->script = path_of(dir, l, name, l->ext))) {
		cat_script_free(out);
		return TB_ERR_NOMEM;
	}
	if (vfile_readable(out->descriptor) && (half == CAT_RECORD || vfile_readable(out->script)))
		return 1;
	cat_script_free(out);
	return 0;
}

int cat_find(const char *dir, const char *spec, enum cat_half half, struct cat_script *out)
{
	const struct engine_ops *const *e = engine_list();
	const struct engine_ops *only = cat_lang(spec, &spec);
	int r;

	if (!*spec || strchr(spec, '/') || strchr(spec, ':'))
		return -1;
	for (int i = 0; e[i]; i++) {
		if (only && e[i] != only)
			continue;
		if ((dir && (r = find_in(dir, e[i], spec, half, out))) ||
		    (r = find_in(PAYLOAD_SCRIPTS, e[i], spec, half, out)))
			return r < 0 ? r : 0;
	}
	return -1;
}

static int plain_word(const char *w)
{
	return *w && strspn(w, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_:.,=/+-@%") == strlen(w);
}

int cat_record_words(char *text, char ***words)
{
	char *line, *next, *cmd = NULL, *w, *save, **v = NULL, **g;
	int n = 0, state = 0;     /* 0: want exec, 1: trace-record, 2: words */

	*words = NULL;
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		line += strspn(line, " \t");
		if (!*line || *line == '#')
			continue;
		if (cmd)
			return -1;        /* a second command */
		cmd = line;
	}
	for (w = cmd ? strtok_r(cmd, " \t", &save) : NULL; w; w = strtok_r(NULL, " \t", &save)) {
		if (state == 3)
			goto other;       /* something after "$@" */
		if (state == 0 && strcmp(w, "exec"))
			goto other;
		if (state == 1 && strcmp(w, "trace-record"))
			goto other;
		if (state < 2) {
			state++;
			continue;
		}
		if (!strcmp(w, "\"$@\"")) {
			state = 3;
			continue;
		}
		if (!plain_word(w))
			goto other;
		g = realloc(v, (size_t)(n + 1) * sizeof(*g));
		if (!g) {
			free(v);
			return TB_ERR_NOMEM;
		}
		v = g;
		v[n++] = w;
	}
	if (state != 3)
		goto other;
	*words = v;
	return n;
other:
	free(v);
	return -1;
}

/* "# description: ..." and "# args: ..." of a NAME-report descriptor. */
static void read_descriptor(const char *path, struct cat_entry *c)
{
	unsigned char *text;
	char *line, *end, **to;
	size_t len;

	if (vfile_read(path, &text, &len))
		return;
	for (line = (char *)text; *line; line = *end ? end + 1 : end) {
		end = line + strcspn(line, "\n");
		to = !strncmp(line, "# description: ", 15) ? &c->desc :
		     !strncmp(line, "# args: ", 8) ? &c->args : NULL;
		if (to) {
			free(*to);
			*to = strndup(line + (to == &c->desc ? 15 : 8),
				      (size_t)(end - line) - (to == &c->desc ? 15 : 8));
		}
	}
	free(text);
}

static int cmp_entry(const void *a, const void *b)
{
	return strcmp(((const struct cat_entry *)a)->name, ((const struct cat_entry *)b)->name);
}

static int taken(const struct cat_entry *all, size_t nr, const char *name, size_t len)
{
	for (size_t i = 0; i < nr; i++)
		if (strlen(all[i].name) == len && !strncmp(all[i].name, name, len))
			return 1;
	return 0;
}

/* The -report descriptors' names of one folder, disk or payload. */
struct names {
	char **v;
	size_t nr;
	int oom;
};

static void add_name(void *ctx, const char *name)
{
	struct names *n = ctx;
	size_t len = strlen(name);
	char **g;

	if (len <= 7 || strcmp(name + len - 7, "-report"))
		return;
	for (size_t i = 0; i < n->nr; i++)
		if (!strcmp(n->v[i], name))
			return;            /* on disk and carried: the disk's */
	g = realloc(n->v, (n->nr + 1) * sizeof(*g));
	if (!g || !(g[n->nr] = strdup(name))) {
		n->v = g ? g : n->v;
		n->oom = 1;
		return;
	}
	n->v = g;
	n->nr++;
}

static void disk_names(const char *bin, struct names *n)
{
	DIR *d = opendir(bin);
	struct dirent *de;

	while (d && (de = readdir(d)))
		add_name(n, de->d_name);
	if (d)
		closedir(d);
}

/* The scripts of language @l into *@all: 0 or TB_ERR_NOMEM. */
static int list_lang(const char *dir, const struct engine_ops *l, struct cat_entry **all,
		     size_t *nr)
{
	char *bin = dir ? path_of(dir, l, "bin", "") : NULL;
	char *pbin = path_of(PAYLOAD_SCRIPTS, l, "bin", ""), *path;
	struct names names = { 0 };
	int rc = (dir && !bin) || !pbin ? TB_ERR_NOMEM : 0;

	if (!rc && bin)
		disk_names(bin, &names);
	if (!rc)
		payload_list(pbin, add_name, &names);
	if (names.oom)
		rc = TB_ERR_NOMEM;
	for (size_t i = 0; !rc && i < names.nr; i++) {
		const char *name = names.v[i];
		size_t len = strlen(name);
		struct cat_entry *n, *c;
		char *from;

		n = realloc(*all, (*nr + 1) * sizeof(*n));
		if (!n) {
			rc = TB_ERR_NOMEM;
			break;
		}
		*all = n;
		c = memset(&n[*nr], 0, sizeof(*c));
		c->lang = l;
		/* a name an earlier language has: run it as LANG:NAME */
		if (asprintf(&c->name, "%s%s%.*s", taken(n, *nr, name, len - 7) ? l->dir : "",
			     taken(n, *nr, name, len - 7) ? ":" : "", (int)(len - 7), name) < 0) {
			c->name = NULL;
			rc = TB_ERR_NOMEM;
			break;
		}
		++*nr;
		from = bin ? path_join(bin, name) : NULL;
		if (!from || !vfile_readable(from)) {
			free(from);
			from = path_join(pbin, name);
		}
		if (!(path = from)) {
			rc = TB_ERR_NOMEM;
			break;
		}
		read_descriptor(path, c);
		free(path);
	}
	for (size_t i = 0; i < names.nr; i++)
		free(names.v[i]);
	free(names.v);
	free(bin);
	free(pbin);
	return rc;
}

int cat_list(const char *dir, struct cat_entry **out, size_t *nr)
{
	const struct engine_ops *const *e = engine_list();
	int rc = 0;

	*out = NULL;
	*nr = 0;
	for (int i = 0; !rc && e[i]; i++)
		rc = list_lang(dir, e[i], out, nr);
	if (rc) {
		cat_list_free(*out, *nr);
		*out = NULL;
		*nr = 0;
		return rc;
	}
	qsort(*out, *nr, sizeof(**out), cmp_entry);
	return 0;
}

void cat_list_free(struct cat_entry *e, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		free(e[i].name);
		free(e[i].args);
		free(e[i].desc);
	}
	free(e);
}
