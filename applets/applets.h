/* applets.h - the applet table: names, entry points, one-line summaries. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef APPLETS_H
#define APPLETS_H

struct applet {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
};

/* Generated from applets/applets.list into build/gen/applets_table.c by
 * scripts/tools/gen-applets.sh, which sorts it by name and fails the build
 * on a duplicate name; it also declares each entry function. */
extern const struct applet applet_table[];
extern const int applet_count;

/** applet_find - the applet called @name, or NULL (a binary search) */
const struct applet *applet_find(const char *name);

#endif
