/* report_dump.h - trace-report -D: every record dumped as perf script -D dumps it. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef REPORT_DUMP_H
#define REPORT_DUMP_H

#include <stdint.h>
#include <stdio.h>

struct pd_session;
struct pd_record;
struct pd_event;

struct report_dump {
	struct pd_session *session;
	FILE *out;
	const char *path;        /* the input as named, for "0x...@PATH" */
	uint64_t combined;       /* every attr's sample_type or'ed */
	int sample_id_all;
	int show_lost;           /* --show-lost-events: perf's LOST handler is replaced */
	int defer_exit;          /* --show-task-events: EXIT's lines come after its line */
	int unordered;           /* --dump-unsorted-raw-trace: perf's round handler is a stub */
	uint16_t misc;           /* of the sample dumped last */
};

void report_dump_init(struct report_dump *d, struct pd_session *s, FILE *out, const char *path);
/** report_dump_begin - -D's first lines (perf's warning for attrs without sample_id_all) */
void report_dump_begin(struct report_dump *d);
/** report_dump_record - pd_consumer.dump: the record's dump lines; 0 or TB_ERR_STOP */
int report_dump_record(struct report_dump *d, const struct pd_record *r);
/** report_dump_resolved - the " ... thread:" and " ...... dso:" lines perf
 * prints for a sample that passed the time and cpu filters */
void report_dump_resolved(struct report_dump *d, const struct pd_event *ev);
/** report_dump_exit - with defer_exit, EXIT's decoded line, after the
 * --show-task-events line (perf prints before it processes an EXIT) */
void report_dump_exit(struct report_dump *d, const struct pd_record *r);

#endif
