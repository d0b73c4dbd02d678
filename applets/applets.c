/* applets.c - the applet lookup (toybox toy_find style); the table itself is
 * generated from applets/applets.list (applets.h). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "applets.h"

static int cmp_name(const void *key, const void *elem)
{
	return strcmp(key, ((const struct applet *)elem)->name);
}

const struct applet *applet_find(const char *name)
{
	return bsearch(name, applet_table, (size_t)applet_count, sizeof(applet_table[0]),
		       cmp_name);
}
