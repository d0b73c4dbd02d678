/* report_picture.h - trace-report flamegraph|timechart: a picture's own
 * options, then its engine over the recording (over two for --diff). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_PICTURE_H
#define REPORT_PICTURE_H

#include "engine.h"

struct report_filter;

struct report_picture {
	const struct engine_ops *ops;  /* NULL: no picture asked for */
	struct engine_picture pic;
	const char *input;             /* the recording named after the options */
	const char *diff;              /* --diff BEFORE */
	const char *minwidth, *output;
	unsigned long width;
	struct ft_tree *before;        /* --diff: BEFORE's tree, once read */
};

/**
 * report_picture_args - @argv[0] names a picture (picture_find): parse its
 * options into @p. Returns -1 to go on, or an exit status (--help: 0;
 * a bad option: 1, said).
 */
int report_picture_args(struct report_picture *p, int argc, char **argv);
/** report_picture_inputs - the recordings to read, in order (1 or 2) */
int report_picture_inputs(const struct report_picture *p, const char *dflt, const char *in[2]);
/**
 * report_picture_run - the picture's engine over @s (recording @path),
 * through @filter; @collect: this is --diff's first recording (kept, not
 * drawn). Returns the exit status, having said what failed.
 */
int report_picture_run(struct report_picture *p, struct pd_session *s, const char *path,
		       struct report_filter *filter, int collect);
void report_picture_free(struct report_picture *p);

#endif
