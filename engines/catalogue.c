/* catalogue.c - the canned scripts of every language, from the engines'
 * ops table (its script folder and extension): no interpreter needed. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include "catalogue.h"

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
	if (!access(out->descriptor, R_OK) && (half == CAT_RECORD || !access(out->script, R_OK)))
		return 1;
	cat_script_free(out);
	return 0;
}

int cat_find(const char *dir, const char *spec, enum cat_half half, struct cat_script *out)
{
	const struct engine_ops *const *e = engine_list();
	const struct engine_ops *only = cat_lang(spec, &spec);
	int r;

	if (!dir || !*spec || strchr(spec, '/') || strchr(spec, ':'))
		return -1;
	for (int i = 0; e[i]; i++) {
		if (only && e[i] != only)
			continue;
		if ((r = find_in(dir, e[i], spec, half, out)))
			return r < 0 ? r : 0;
	}
	return -1;
}

/* "# description: ..." and "# args: ..." of a NAME-report descriptor. */
static void read_descriptor(const char *path, struct cat_entry *c)
{
	FILE *f = fopen(path, "re");
	char *line = NULL, **to;
	size_t cap = 0;
	ssize_t n;

	while (f && (n = getline(&line, &cap, f)) > 0) {
		line[strcspn(line, "\n")] = 0;
		to = !strncmp(line, "# description: ", 15) ? &c->desc :
		     !strncmp(line, "# args: ", 8) ? &c->args : NULL;
		if (to) {
			free(*to);
			*to = strdup(line + (to == &c->desc ? 15 : 8));
		}
	}
	free(line);
	if (f)
		fclose(f);
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

/* The scripts of language @l into *@all: 0 or TB_ERR_NOMEM. */
static int list_lang(const char *dir, const struct engine_ops *l, struct cat_entry **all,
		     size_t *nr)
{
	char *bin = path_of(dir, l, "bin", ""), *path;
	DIR *d = bin ? opendir(bin) : NULL;
	struct dirent *de;
	int rc = bin ? 0 : TB_ERR_NOMEM;

	while (!rc && d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);
		struct cat_entry *n, *c;

		if (len <= 7 || strcmp(de->d_name + len - 7, "-report"))
			continue;
		n = realloc(*all, (*nr + 1) * sizeof(*n));
		if (!n) {
			rc = TB_ERR_NOMEM;
			break;
		}
		*all = n;
		c = memset(&n[*nr], 0, sizeof(*c));
		c->lang = l;
		/* a name an earlier language has: run it as LANG:NAME */
		if (asprintf(&c->name, "%s%s%.*s", taken(n, *nr, de->d_name, len - 7) ? l->dir : "",
			     taken(n, *nr, de->d_name, len - 7) ? ":" : "", (int)(len - 7),
			     de->d_name) < 0 || asprintf(&path, "%s/%s", bin, de->d_name) < 0) {
			rc = TB_ERR_NOMEM;
			break;
		}
		read_descriptor(path, c);
		free(path);
		++*nr;
	}
	if (d)
		closedir(d);
	free(bin);
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
