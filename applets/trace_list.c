/* trace_list.c - trace-list: the canned trace scripts, or (--events) the
 * tracepoints this kernel offers. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "applets.h"
#include "args.h"
#include "tracefs.h"
#include "xfuncs.h"

static struct {
	int events;
} o;

static const struct opt list_opts[] = {
	{ 0, "events", OPT_FLAG, &o.events, NULL,
	  "list the tracepoints (SYSTEM:EVENT) this kernel offers, optionally matching GLOB" },
	OPT_TABLE_END
};

static const struct applet_help list_help = {
	"trace-list", "[--events [GLOB]]",
	"List the canned trace scripts with their arguments and descriptions, as\n"
	"'perf trace -l' does; with --events, the tracepoints of this kernel\n"
	"(from tracefs), sorted, e.g. trace-list --events 'sched:*'.",
	list_opts
};

struct canned {
	char name[128], args[512], desc[512];
};

static int cmp_canned(const void *a, const void *b)
{
	return strcmp(((const struct canned *)a)->name, ((const struct canned *)b)->name);
}

/* "# description: ..." and "# args: ..." of a NAME-report descriptor. */
static void read_descriptor(const char *path, struct canned *c)
{
	FILE *f = fopen(path, "re");
	char line[512];

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		if (!strncmp(line, "# description: ", 15))
			snprintf(c->desc, sizeof(c->desc), "%s", line + 15);
		else if (!strncmp(line, "# args: ", 8))
			snprintf(c->args, sizeof(c->args), "%s", line + 8);
	}
	fclose(f);
}

/* Every language's scripts/LANG/bin/NAME-report, listed as perf trace -l does. */
static int list_scripts(void)
{
	static const char *const langs[] = { "python", "perl" };
	const char *dir = scripts_dir();
	struct canned *all = NULL;
	size_t nr = 0;

	if (!dir) {
		error_msg("no script tree found (set TRACEBOX_SCRIPTS)");
		return 1;
	}
	for (size_t l = 0; l < sizeof(langs) / sizeof(langs[0]); l++) {
		char *bin = xasprintf("%s/%s/bin", dir, langs[l]), *path;
		struct dirent *e;
		DIR *d;

		d = opendir(bin);
		if (!d) {
			free(bin);
			continue;
		}
		while ((e = readdir(d))) {
			size_t len = strlen(e->d_name);
			struct canned *n;

			if (len <= 7 || strcmp(e->d_name + len - 7, "-report"))
				continue;
			n = realloc(all, (nr + 1) * sizeof(*n));
			if (!n) {
				error_msg("out of memory");
				free(all);
				free(bin);
				closedir(d);
				return 1;
			}
			all = n;
			memset(&all[nr], 0, sizeof(*all));
			snprintf(all[nr].name, sizeof(all[nr].name), "%.*s", (int)(len - 7), e->d_name);
			/* a name Python has too: run it as perl:NAME */
			for (size_t k = 0; k < nr; k++)
				if (!strcmp(all[k].name, all[nr].name)) {
					snprintf(all[nr].name, sizeof(all[nr].name), "%s:%.*s",
						 langs[l], (int)(len - 7), e->d_name);
					break;
				}
			path = xasprintf("%s/%s", bin, e->d_name);
			read_descriptor(path, &all[nr]);
			free(path);
			nr++;
		}
		closedir(d);
		free(bin);
	}
	qsort(all, nr, sizeof(*all), cmp_canned);
	printf("List of available trace scripts:\n");
	for (size_t i = 0; i < nr; i++) {
		char first[700];

		snprintf(first, sizeof(first), "%s %s", all[i].name, all[i].args);
		printf("  %-36s %s\n", first, all[i].desc);
	}
	free(all);
	return 0;
}

static void print_name(void *ctx, const char *name)
{
	(void)ctx;
	puts(name);
}

int trace_list_main(int argc, char **argv)
{
	struct tb_err err = { 0 };
	char tfs[512];
	int first;
	long n;

	memset(&o, 0, sizeof(o));
	first = args_parse(&list_help, argc, argv);
	if (first < 0)
		return first == -2 ? 0 : 1;
	if (!o.events)
		return first < argc ? (error_msg("unexpected argument '%s'",
					       argv[first]), 1) : list_scripts();
	if (argc - first > 1) {
		error_msg("--events takes one GLOB at most");
		return 1;
	}
	if (tracefs_find(tfs, sizeof(tfs), &err)) {
		error_msg("%s", err.msg);
		return 1;
	}
	xstdout_buffer();
	n = tracefs_list_events(tfs, first < argc ? argv[first] : NULL, print_name, NULL, &err);
	if (n < 0) {
		error_msg("%s", err.msg);
		return 1;
	}
	if (n == 0 && first < argc) {
		error_msg("no tracepoint matches '%s'", argv[first]);
		return 1;
	}
	return 0;
}
