/* applets.h - the applet table: names, entry points, one-line summaries. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef APPLETS_H
#define APPLETS_H

struct applet {
	const char *name;
	int (*main)(int argc, char **argv);
	const char *summary;
};

/* Sorted by name; applets.c checks order and duplicates at start-up. */
extern const struct applet applet_table[];
extern const int applet_count;

const struct applet *applet_find(const char *name);

int trace_gen_main(int argc, char **argv);
int trace_list_main(int argc, char **argv);
int trace_record_main(int argc, char **argv);
int trace_report_main(int argc, char **argv);

#endif
