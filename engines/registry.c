/* registry.c - the engine registry: a static table (perf keeps a runtime list). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <string.h>
#include <strings.h>
#include "engine.h"

extern const struct engine_ops python_engine;
extern const struct engine_ops perl_engine;

static const struct engine_ops *const engines[] = { &python_engine, &perl_engine, NULL };

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
