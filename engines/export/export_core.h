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
 *   start:  xc_init (names, syscall map, the recording's id from the file);
 *           parse the target; write nothing yet
 *   event:  xc_event (the common columns; the first event opens the
 *           target), then the fields through ec_field (engine_core.h)
 *   stop:   *st->failed says whether reading failed: before the first
 *           event nothing is written; else the recording's row, completed
 *           only when reading did not fail; xc_free
 */
int xsqlite_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
int xsqlite_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
int xsqlite_stop(struct engine_run *run, struct tb_err *err);
int xjson_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
int xjson_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
int xjson_stop(struct engine_run *run, struct tb_err *err);
int xch_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err);
int xch_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err);
int xch_stop(struct engine_run *run, struct tb_err *err);

/* A column's type, whatever the target calls it. */
enum xc_kind { XC_INT, XC_UINT, XC_STR, XC_BYTES };
struct xc_type {
	enum xc_kind kind;
	int bits;                  /* XC_INT, XC_UINT: 8, 16, 32 or 64 */
	int array;                 /* a fixed array of such numbers */
};

/** xc_type_of - the column type of field @f */
void xc_type_of(const struct tp_field *f, struct xc_type *t);
/** xc_type_tag - the type's neutral name ("int32", "uint64", "string", "bytes",
 * "array_int32"), the suffix of a column whose field changed type */
const char *xc_type_tag(const struct xc_type *t, char *buf, size_t cap);
/** xc_type_eq - same type */
int xc_type_eq(const struct xc_type *a, const struct xc_type *b);

/* The recording's row of the `recordings` table. */
struct xc_recording {
	uint64_t id;               /* 63-bit hash (see xc_init) */
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
enum xc_common_col {
	XC_C_RECORDING, XC_C_TIME, XC_C_CPU, XC_C_PID, XC_C_TID, XC_C_COMM, XC_C_FLAGS,
	XC_C_PREEMPT, XC_NR_COMMON
};
extern const char *const xc_common_names[XC_NR_COMMON];
extern const struct xc_type xc_common_types[XC_NR_COMMON];

struct xc_common {
	uint64_t time;             /* ns */
	int32_t cpu, pid, tid;     /* -1: the sample has none */
	const char *comm;
	int flags, preempt;
};

/* One thread seen in the recording's events. */
struct xc_thread {
	int32_t pid, tid;
	char *comm;
};

/* One tracepoint table of a run: its name and the column of every field. */
struct xc_table {
	int ready;
	const struct tp_decoder *dec;
	const char *name;          /* "system__event" (ec_names_build with "__") */
	char **cols;               /* per field of dec: its column name in the target */
	struct xc_type *types;     /* per field */
	void *target;              /* the engine's own state of the table */
};

/* What every export run holds. */
struct xc_run {
	const struct engine_start *st;
	struct ec_names names;
	struct syscall_map builtin;
	struct xc_recording rec;
	uint64_t hash;             /* the id's hash so far (pipe mode: until the first event) */
	struct idtable tables;     /* per tracepoint id: struct xc_table */
	struct xc_thread *threads; /* open addressing by tid */
	size_t nr_thread_slots, nr_threads;
	int started;               /* the first event came */
	char *utf8;                /* xc_utf8's buffer */
	size_t utf8_cap;
	uint64_t *chain_ip;        /* xc_sample_of's buffers */
	const char **chain_sym, **chain_dso;
	size_t chain_cap;
};

/**
 * xc_init - the run's names, its syscall map and the recording's row.
 * The id is a 64-bit FNV-1a hash (then mixed, top bit cleared) of the
 * file's header, attr and feature sections (everything but the data): the
 * same file gives the same id wherever it lies. A pipe or unfinished
 * recording has no feature sections at known places: its attrs, header
 * strings and first event are hashed instead (the id is known at the
 * first event, or at stop). Returns 0 or TB_ERR_* with @err set.
 */
int xc_init(struct xc_run *x, const struct engine_start *st, struct tb_err *err);
void xc_free(struct xc_run *x);

/**
 * xc_event - the common columns of @ev into @c, the recording's times,
 * its threads and (first event, pipe mode) its id; @tab set to the table
 * of @ev's format, or NULL for an event with no tracepoint format.
 * Returns 0 or TB_ERR_* with @err set.
 */
int xc_event(struct xc_run *x, const struct pd_event *ev, struct xc_common *c,
	     struct xc_table **tab, struct tb_err *err);

/** xc_table_of - the table of format @d (NULL with @err set: out of memory, no name) */
struct xc_table *xc_table_of(struct xc_run *x, const struct tp_decoder *d, struct tb_err *err);
/** xc_tables_ready - @ready(@ctx, table, @err) for the table of every format of
 * the session not ready yet (a table for each, events or not); 0 or the first error */
int xc_tables_ready(struct xc_run *x, int (*ready)(void *ctx, struct xc_table *t, struct tb_err *err),
		    void *ctx, struct tb_err *err);

/** xc_finish_id - make the id final (a recording without events) */
void xc_finish_id(struct xc_run *x);

/**
 * xc_table_columns - give every field of @t a column: its own name when the
 * target has no column so named, or one of the same type; else (the field
 * changed type between kernels) "NAME__TAG" (xc_type_tag). @have(ctx, name,
 * type) returns 1 when the target's table has column @name of type @type,
 * -1 when it has @name of another type, 0 when it has no such column.
 * Returns 0 or TB_ERR_NOMEM.
 */
int xc_table_columns(struct xc_table *t,
		     int (*have)(void *ctx, const char *name, const struct xc_type *type),
		     void *ctx, struct tb_err *err);

/**
 * xc_utf8 - @p's @len bytes up to the first NUL as valid UTF-8: a byte not
 * part of a well-formed sequence becomes U+FFFD. Returns the text and its
 * length: @p itself when it is all ASCII, else the run's buffer (valid
 * until the next call); not NUL-terminated. NULL when out of memory.
 */
const char *xc_utf8(struct xc_run *x, const unsigned char *p, size_t len, size_t *out_len);

/**
 * xc_json_int - @v (sign-extended when @is_signed) as a JSON number, or as
 * a string of its decimal digits when it lies beyond +-2^53 (JSON readers
 * lose such integers). Returns the length written to @buf (>= 24 bytes).
 */
size_t xc_json_int(char *buf, uint64_t v, int is_signed);
/** xc_json_array - the EC_ARRAY @a as a JSON array into @b (xc_json_int per element) */
void xc_json_array(struct bytebuf *b, const struct ec_value *a);
/** xc_json_string - @s (@len valid UTF-8 bytes) as a quoted JSON string into @b */
void xc_json_string(struct bytebuf *b, const char *s, size_t len);

/** xc_quote - @name as a quoted identifier with @q ('"' or '`') doubled inside, into @b */
void xc_quote(struct bytebuf *b, const char *name, char q);

/*
 * The samples table (export_samples.c): one row per sample of an event
 * that is no tracepoint. Its columns: the first six common ones, then the
 * event's name, period, ip, its symbol ("[unknown]" as perf prints it),
 * offset and dso, addr, and the callchain (callee first, perf's context
 * markers left out) as three arrays of one length: the addresses, their
 * symbols and their dsos. A string array's type is { XC_STR, 0, 1 }.
 */
#define XC_SAMPLES "samples"
enum { XC_NR_SAMPLE = 16 };
extern const char *const xc_sample_names[XC_NR_SAMPLE];
extern const struct xc_type xc_sample_types[XC_NR_SAMPLE];

struct xc_sample {
	const char *event;
	uint64_t period, ip, symoff, addr;
	const char *symbol, *dso;
	size_t nr;                 /* callchain entries */
	const uint64_t *chain;     /* the run's buffers: valid until the next call */
	const char *const *chain_sym, *const *chain_dso;
};

/** xc_sample_of - @ev's row of the samples table (its common columns come
 * from xc_event). Returns 0 or TB_ERR_NOMEM with @err set. */
int xc_sample_of(struct xc_run *x, const struct pd_event *ev, struct xc_sample *out,
		 struct tb_err *err);
/** xc_json_u64s - @n numbers as a JSON array (xc_json_int's rule) into @b */
void xc_json_u64s(struct bytebuf *b, const uint64_t *v, size_t n);
/** xc_json_strings - @n strings as a JSON array of UTF-8 (xc_utf8) into @b; -1: ENOMEM */
int xc_json_strings(struct xc_run *x, struct bytebuf *b, const char *const *s, size_t n);

/** xc_cmdline - the recording's command line as one string (NULL: none) */
char *xc_cmdline_join(const struct pd_header_info *info);

#endif
