/* export_core.h - what the export engines (SQLite, JSON, ClickHouse) share:
 * the recording's row and id, the common columns, a tracepoint table's
 * columns and their types, and the value rules (docs/export.md). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef EXPORT_CORE_H
#define EXPORT_CORE_H

#include <stddef.h>
#include <stdint.h>
#include "util/bytebuf.h"
#include "engine_core.h"

/*
 * An export engine's life (the ops of registry.c):
 *   start:  ex_init (names, syscall map, the recording's id from the file);
 *           parse the target; write nothing yet
 *   event:  ex_event (the common columns; the first event opens the
 *           target), then the fields through ec_field (engine_core.h)
 *   stop:   *st->failed says whether reading failed: before the first
 *           event nothing is written; else the recording's row, completed
 *           only when reading did not fail; ex_free
 */
int sqlite_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
int sqlite_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
int sqlite_stop(struct engine_run *run, struct tb_err *err);
int json_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
int json_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
int json_stop(struct engine_run *run, struct tb_err *err);
int ch_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
int ch_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
int ch_stop(struct engine_run *run, struct tb_err *err);

/* A column's type, whatever the target calls it. */
enum ex_kind { EX_INT, EX_UINT, EX_STR, EX_BYTES };
struct ex_type {
	enum ex_kind kind;
	int bits;                  /* EX_INT, EX_UINT: 8, 16, 32 or 64 */
	int array;                 /* a fixed array of such numbers */
};

/** ex_type_of - the column type of field @f */
void ex_type_of(const struct tp_field *f, struct ex_type *t);
/** ex_type_tag - the type's neutral name ("int32", "uint64", "string", "bytes",
 * "array_int32"), the suffix of a column whose field changed type */
const char *ex_type_tag(const struct ex_type *t, char *buf, size_t cap);

/* The recording's row of the `recordings` table. */
struct ex_recording {
	uint64_t id;               /* 63-bit hash (see ex_init) */
	int id_final;              /* the id is known */
	const char *hostname, *osrelease, *arch, *version;   /* NULL: absent */
	int64_t nr_cpus;           /* -1: absent */
	char *cmdline;             /* NULL: absent */
	uint64_t first_time, last_time;
	uint64_t nr_events;
	int has_clock;             /* perf's clock-data feature */
	uint32_t clockid;
	uint64_t clock_wall_ns, clock_ref_ns;   /* the same instant in both clocks */
	const char *syscall_source;   /* "recording", "built-in" or "none" */
	const struct syscall_map *syscalls;   /* NULL: none */
};

/* The columns every tracepoint table begins with, as perf names them for scripts. */
enum ex_common_col {
	EX_C_RECORDING, EX_C_TIME, EX_C_CPU, EX_C_PID, EX_C_TID, EX_C_COMM, EX_C_FLAGS,
	EX_C_PREEMPT, EX_NR_COMMON
};
extern const char *const ex_common_names[EX_NR_COMMON];
extern const struct ex_type ex_common_types[EX_NR_COMMON];

struct ex_common {
	uint64_t time;             /* ns */
	int32_t cpu, pid, tid;     /* -1: the sample has none */
	const char *comm;
	int flags, preempt;
};

/* A name in a message: whole up to EX_LABEL - 1 bytes, else its first 60 and "..." */
enum { EX_LABEL = 64 };
/** ex_label - @name shortened for a message into @buf (EX_LABEL bytes); returns @buf */
const char *ex_label(const char *name, char *buf);

/*
 * The names of a database (docs/export.md "Names"): every tracepoint gets a
 * table, and every field a column, that no other name of the same namespace
 * takes, ignoring case (SQLite's names ignore it): a table's namespace holds
 * the fixed tables (ex_fixed_tables), their done__ views, the tables named
 * so far with their views, and the tables a database already maps to other
 * events (ex_known_add); a column's holds the common columns and the table's
 * other fields. A name taken gets "_2", "_3"... (the first free), one
 * warning through the run's log each.
 */
extern const char *const ex_fixed_tables[];   /* NULL-terminated */
#define EX_EVENTS "events"                    /* (perf_name, table_name) */
#define EX_EVENT_COLUMNS "event_columns"      /* (table_name, field, column_name) */

/* One thread seen in the recording's events. */
struct ex_thread {
	int32_t pid, tid;
	char *comm;
};

struct ex_run;

/* One tracepoint table of a run: its name and the column of every field. */
struct ex_table {
	int ready;
	const struct tp_decoder *dec;
	const char *name;          /* "system__event", unique in the database (ex_table_of) */
	const char *perf;          /* "system:event", perf's name of the event */
	const char *label;         /* the name for a message (ex_label), as long as the run */
	const struct ex_run *run;  /* its run (the log of renamed columns) */
	char **cols;               /* per field of dec: its column name in the target */
	struct ex_type *types;     /* per field */
	void *target;              /* the engine's own state of the table */
};

/* What every export run holds. */
struct ex_run {
	const struct engine_start *st;
	struct syscall_map builtin;
	struct ex_recording rec;
	uint64_t hash;             /* the id's hash so far (pipe mode: until the first event) */
	struct idtable tables;     /* per tracepoint id: struct ex_table */
	struct ex_thread *threads; /* open addressing by tid */
	size_t nr_thread_slots, nr_threads;
	int started;               /* the first event came */
	char *utf8;                /* ex_utf8's buffer */
	size_t utf8_cap;
	struct idtable tnames;     /* per tracepoint id: struct ex_tname (ex_table_of) */
	char **known;              /* ex_known_add: perf name, table name, ... */
	size_t nr_known;
	uint64_t *chain_ip;        /* ex_sample_of's buffers */
	const char **chain_sym, **chain_dso;
	size_t chain_cap;
};

/**
 * ex_init - the run's names, its syscall map and the recording's row.
 * The id is a 64-bit FNV-1a hash (then mixed, top bit cleared) of the
 * file's header, attr and feature sections (everything but the data): the
 * same file gives the same id wherever it lies. A pipe or unfinished
 * recording has no feature sections at known places: its attrs, header
 * strings and first event are hashed instead (the id is known at the
 * first event, or at stop). Returns 0 or TB_ERR_* with @err set.
 */
int ex_init(struct ex_run *x, const struct engine_start *st, struct tb_err *err);
void ex_free(struct ex_run *x);

/**
 * ex_event - the common columns of @ev into @c, the recording's times,
 * its threads and (first event, pipe mode) its id; @tab set to the table
 * of @ev's format, or NULL for an event with no tracepoint format.
 * Returns 0 or TB_ERR_* with @err set.
 */
int ex_event(struct ex_run *x, const struct pd_event *ev, struct ex_common *c,
	     struct ex_table **tab, struct tb_err *err);

/** ex_known_add - the database maps event @perf to table @table already (read
 * before the first event); 0, or -1 out of memory */
int ex_known_add(struct ex_run *x, const char *perf, const char *table);

/** ex_table_of - the table of format @d (NULL with @err set: out of memory, no name) */
struct ex_table *ex_table_of(struct ex_run *x, const struct tp_decoder *d, struct tb_err *err);
/** ex_tables_ready - @ready(@ctx, table, @err) for the table of every format of
 * the session not ready yet (a table for each, events or not); 0 or the first error */
int ex_tables_ready(struct ex_run *x, int (*ready)(void *ctx, struct ex_table *t, struct tb_err *err),
		    void *ctx, struct tb_err *err);

/** ex_finish_id - make the id final (a recording without events) */
void ex_finish_id(struct ex_run *x);

/* The columns a target's table has now (name, declared type), read before
 * ex_table_columns asks about each field. */
struct ex_have {
	char **names, **types;
	int nr;
};
/** ex_have_add - one more column; 0, or -1 out of memory (nothing added) */
int ex_have_add(struct ex_have *h, const char *name, const char *type);
/** ex_have_free - forget every column */
void ex_have_free(struct ex_have *h);
/** ex_have_check - 1: column @name has type @want; -1: it has another; 0: no
 * such column. @nocase: names and types compared ignoring case (SQLite's) */
int ex_have_check(const struct ex_have *h, const char *name, const char *want, int nocase);

/**
 * ex_table_columns - give every field of @t a column: its own name (through
 * ec_ident, made unique: ex_fixed_tables' comment) when the target has no
 * column so named, or one of the same type; else (the field changed type
 * between kernels) "NAME__TAG" (ex_type_tag). @have(ctx, name,
 * type) returns 1 when the target's table has column @name of type @type,
 * -1 when it has @name of another type, 0 when it has no such column.
 * Returns 0 or TB_ERR_NOMEM.
 */
int ex_table_columns(struct ex_table *t,
		     int (*have)(void *ctx, const char *name, const struct ex_type *type),
		     void *ctx, struct tb_err *err);

/**
 * ex_utf8 - @p's @len bytes up to the first NUL as valid UTF-8: a byte not
 * part of a well-formed sequence becomes U+FFFD. Returns the text and its
 * length: @p itself when it is all ASCII, else the run's buffer (valid
 * until the next call); not NUL-terminated. NULL when out of memory.
 */
const char *ex_utf8(struct ex_run *x, const unsigned char *p, size_t len, size_t *out_len);

/**
 * ex_json_int - @v (sign-extended when @is_signed) as a JSON number, or as
 * a string of its decimal digits when it lies beyond +-2^53 (JSON readers
 * lose such integers). Returns the length written to @buf (>= 24 bytes).
 */
size_t ex_json_int(char *buf, uint64_t v, int is_signed);
/** ex_json_array - the EC_ARRAY @a as a JSON array into @b (ex_json_int per element) */
void ex_json_array(struct bytebuf *b, const struct ec_value *a);
/** ex_json_string - @s (@len valid UTF-8 bytes) as a quoted JSON string into @b */
void ex_json_string(struct bytebuf *b, const char *s, size_t len);

/** ex_quote - @name as a quoted identifier with @q ('"' or '`') doubled inside, into @b */
void ex_quote(struct bytebuf *b, const char *name, char q);

/*
 * The samples table (export_samples.c): one row per sample of an event
 * that is no tracepoint. Its columns: the first six common ones, then the
 * event's name, period, ip, its symbol ("[unknown]" as perf prints it),
 * offset and dso, addr, and the callchain (callee first, perf's context
 * markers left out) as three arrays of one length: the addresses, their
 * symbols and their dsos. A string array's type is { EX_STR, 0, 1 }.
 */
#define EX_SAMPLES "samples"
enum { EX_NR_SAMPLE = 16 };
extern const char *const ex_sample_names[EX_NR_SAMPLE];
extern const struct ex_type ex_sample_types[EX_NR_SAMPLE];

struct ex_sample {
	const char *event;
	uint64_t period, ip, symoff, addr;
	const char *symbol, *dso;
	size_t nr;                 /* callchain entries */
	const uint64_t *chain;     /* the run's buffers: valid until the next call */
	const char *const *chain_sym, *const *chain_dso;
};

/** ex_sample_of - @ev's row of the samples table (its common columns come
 * from ex_event). Returns 0 or TB_ERR_NOMEM with @err set. */
int ex_sample_of(struct ex_run *x, const struct pd_event *ev, struct ex_sample *out,
		 struct tb_err *err);
/** ex_json_u64s - @n numbers as a JSON array (ex_json_int's rule) into @b */
void ex_json_u64s(struct bytebuf *b, const uint64_t *v, size_t n);
/** ex_json_strings - @n strings as a JSON array of UTF-8 (ex_utf8) into @b; -1: ENOMEM */
int ex_json_strings(struct ex_run *x, struct bytebuf *b, const char *const *s, size_t n);

/** ex_cmdline - the recording's command line as one string (NULL: none) */
char *ex_cmdline_join(const struct pd_header_info *info);

#endif
