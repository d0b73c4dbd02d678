/* registry.c - the engine registry: a static table (perf keeps a runtime
 * list), each language named once; a language this build lacks keeps its
 * place and says how to get it (perf's *_unsupported_ops). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include <strings.h>
#include "engine_core.h"
#include "export/export_core.h"
#include "export/export_ch_url.h"
#include "pictures/pictures.h"

/* ENGINE(var, name, alias, ext, dir, pfx, stat): the ops of an engine built
 * in; @stat its perf stat callbacks, or NULL (the applet prints perf's table). */
#define ENGINE(var, nm, al, ex, dr, pfx, sf)						\
	static const struct engine_ops var = {						\
		.name = nm, .alias = al, .ext = ex, .dir = dr,				\
		.start = pfx##_start, .event = pfx##_event, .stop = pfx##_stop,		\
		.wants = pfx##_wants, .stat = sf, .generate = pfx##_generate,		\
	};

/* STUB(var, name, alias, ext, dir, how): an engine that only says @how. */
#define STUB(var, nm, al, ex, dr, how)							\
	static int var##_start(struct engine_run **run, const struct engine_start *st,	\
			       struct tb_err *err)					\
	{										\
		(void)run;								\
		(void)st;								\
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "%s", how);	\
	}										\
	static int var##_generate(const struct engine_gen *g, struct tb_err *err)	\
	{										\
		(void)g;								\
		return var##_start(NULL, NULL, err);					\
	}										\
	static const struct engine_ops var = {						\
		.name = nm, .alias = al, .ext = ex, .dir = dr,				\
		.unavailable = "not built in: " how,					\
		.start = var##_start, .generate = var##_generate,			\
	};

#ifdef HAVE_PYTHON
/* perf's Python engine has process_stat and process_stat_interval */
ENGINE(python_engine, "Python", "py", ".py", "python", python, python_stat)
#else
STUB(python_engine, "Python", "py", ".py", "python",
     "this build has no Python engine: install python3-dev (Debian's libpython3.11.a) "
     "and rebuild with make")
#endif
#ifdef HAVE_PERL
ENGINE(perl_engine, "Perl", "pl", ".pl", "perl", perl, NULL)
#else
STUB(perl_engine, "Perl", "pl", ".pl", "perl",
     "this build has no Perl engine: install libperl-dev (Debian's libperl.a) and "
     "rebuild with make")
#endif

static const struct engine_ops *const engines[] = { &python_engine, &perl_engine, NULL };

/* The export engines (export_core.h): a target's scheme picks one. */
static const struct engine_ops sqlite_export = {
	.name = "SQLite", .alias = "sqlite:", .start = sqlite_start, .event = sqlite_event,
	.stop = sqlite_stop,
};
static const struct engine_ops json_export = {
	.name = "JSON", .alias = "json:", .start = json_start, .event = json_event,
	.stop = json_stop,
};
static const struct engine_ops clickhouse_export = {
	.name = "ClickHouse", .alias = "clickhouse://", .start = ch_start, .event = ch_event,
	.stop = ch_stop,
};
static const struct engine_ops *const exporters[] = {
	&sqlite_export, &json_export, &clickhouse_export, NULL
};

const struct engine_ops *export_find(const char *target, const char **rest)
{
	for (int i = 0; exporters[i]; i++) {
		size_t n = strlen(exporters[i]->alias);

		if (!strncasecmp(target, exporters[i]->alias, n)) {
			/* a URL stays whole, a file name loses its "sqlite:" */
			*rest = exporters[i] == &clickhouse_export ? target : target + n;
			return exporters[i];
		}
	}
	return NULL;
}

char *export_shown(const char *target)
{
	const char *rest;
	const struct engine_ops *ops = export_find(target, &rest);

	if (ops && ops != &clickhouse_export)    /* a file's name: as it is */
		return strdup(target);
	return ch_url_shown(target);
}

/* The pictures (pictures.h): trace-report NAME draws one. */
static const struct engine_ops flamegraph_picture = {
	.name = "flamegraph", .start = flame_start, .event = flame_event, .stop = flame_stop,
};
static const struct engine_ops timechart_picture = {
	.name = "timechart", .start = tc_start, .event = tc_event, .stop = tc_stop,
};

const struct engine_ops *picture_find(const char *name)
{
	if (!strcmp(name, "flamegraph"))
		return &flamegraph_picture;
	if (!strcmp(name, "timechart"))
		return &timechart_picture;
	return NULL;
}

const struct engine_ops *const *engine_list(void)
{
	return engines;
}

const struct engine_ops *engine_find(const char *name)
{
	for (int i = 0; engines[i]; i++)
		if (!strcasecmp(name, engines[i]->name) || !strcasecmp(name, engines[i]->alias))
			return engines[i];
	return NULL;
}

const struct engine_ops *engine_for_file(const char *path)
{
	const char *dot = strrchr(path, '.');

	if (!dot || strchr(dot, '/'))
		return NULL;
	for (int i = 0; engines[i]; i++)
		if (!strcmp(dot, engines[i]->ext))
			return engines[i];
	return NULL;
}
