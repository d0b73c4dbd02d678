/* engine_core.h - what the script engines share, language-independent: the
 * current event, the common arguments, callchains, handler names, the
 * syscall map, the define walk and the error helper. No interpreter headers. */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef ENGINE_CORE_H
#define ENGINE_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include "engine.h"
#include "util/idtable.h"
#include "tracepoint/syscall_map.h"
#include "tracepoint/tp_decoder.h"
#include "tracepoint/tp_symbols.h"

/*
 * An engine's life, with the core's part in it (ec_run_init builds the
 * handler names and sets PERF_EXEC_PATH):
 *   start:  ec_names_build (handler names), ec_syscall_map, load the
 *           script, ec_walk_defines (define_flag_field ...), trace_begin
 *   event:  ec_current_set, ec_common_args, the callchain and the rest of
 *           perf's sample description through ec_sample.h, the fields
 *           through ev->evsel->dec, call the handler; ec_error on failure
 *   stop:   trace_end, ec_names_free
 */

/* One language's engine functions, which registry.c puts in its ops table. */
#define EC_ENGINE_FUNCS(pfx)								\
	int pfx##_start(struct engine_run **run, const struct engine_start *st,		\
			struct tb_err *err);						\
	int pfx##_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err); \
	int pfx##_stop(struct engine_run *run, struct tb_err *err);			\
	int pfx##_wants(struct engine_run *run, const struct pd_evsel *e);		\
	int pfx##_generate(const struct engine_gen *g, struct tb_err *err);
EC_ENGINE_FUNCS(python)
EC_ENGINE_FUNCS(perl)
int python_stat(struct engine_run *run, const struct pd_stat_round *r, struct tb_err *err);

/* The event a script's context argument stands for while its handler runs. */
struct ec_current {
	const unsigned char *raw;
	size_t size;
	const struct tp_decoder *dec;
	/* the sample itself, for perf_trace_context's perf_sample_* (kept
	 * after its handler, as perf keeps its last one) */
	struct pd_session *session;
	int have_sample;
	int32_t pid;
	uint16_t cpumode;
	uint64_t ip;
};

enum ec_context_field { EC_PC, EC_FLAGS, EC_LOCK_DEPTH };

/** ec_current_set - make @ev the current event of @c */
void ec_current_set(struct ec_current *c, const struct pd_event *ev);
/**
 * ec_current_end - after the event's handlers: its raw data goes with the
 * record (a script's common_pc() in trace_end read it freed), its sample's
 * copied fields stay
 */
void ec_current_end(struct ec_current *c);
/**
 * ec_context_int - common_preempt_count (perf's "pc"), common_flags or
 * common_lock_depth of the current event; 0 where the kernel has no such
 * field (lock_depth: every kernel since 2.6.37) or there is no event.
 */
int ec_context_int(const struct ec_current *c, enum ec_context_field f);

/* The handler name of every tracepoint id of a recording. */
struct ec_names {
	struct idtable ids;        /* per tracepoint id: char * */
};

/* What every engine run holds, whatever its language. */
struct ec_run {
	const struct engine_start *st;
	struct ec_current cur;     /* what the script's context stands for */
	struct ec_names names;     /* handler names per tracepoint id */
	struct idtable evs;        /* per tracepoint id: the language's @elem-byte state */
};

/* The start of every language's per-event state in ec_run.evs. */
struct ec_event {
	int ready;                 /* the language has filled in the rest */
	const struct tp_decoder *dec;
	const char *name;          /* its handler name */
};

/**
 * ec_event - the state of @dec's events in @c->evs, a struct that begins
 * with struct ec_event: dec and name set the first time, ready left to
 * the language. Returns NULL with @err set for an id out of range or
 * when out of memory.
 */
void *ec_event(struct ec_run *c, const struct tp_decoder *dec, struct tb_err *err);

/**
 * ec_run_init - the core of a run of @st's script: handler names joined by
 * @sep, an empty per-id table of @elem-byte slots, PERF_EXEC_PATH set.
 * Returns 0 or TB_ERR_NOMEM with @err set; ec_run_free either way.
 */
int ec_run_init(struct ec_run *c, const struct engine_start *st, const char *sep, size_t elem,
		struct tb_err *err);
void ec_run_free(struct ec_run *c);
/** ec_log - hand @text (tracebacks, warnings) to the applet's log */
void ec_log(const struct ec_run *c, const char *text);

/* The common arguments every handler gets, as perf passes them. */
struct ec_common {
	int cpu;                   /* -1 when the sample has none */
	uint64_t secs, nsecs;
	int pid;                   /* the raw common_pid field, as perf passes it */
	const char *comm;
};

/* One field's value as both languages convert it. */
enum ec_kind { EC_NONE, EC_INT, EC_UINT, EC_STRING, EC_BYTES, EC_ARRAY };

struct ec_value {
	enum ec_kind kind;         /* EC_NONE: it lies outside the record */
	uint64_t num;              /* EC_INT (sign-extended), EC_UINT */
	const unsigned char *p;    /* EC_STRING, EC_BYTES: its bytes */
	size_t len;                /* ... all of them */
	size_t slen;               /* EC_STRING: up to the first NUL */
	int printable;             /* EC_STRING: perf's is_printable_array */
	int count;                 /* EC_ARRAY: elements, read with ec_element */
	const struct tp_field *f;
	const unsigned char *raw;
	size_t size;
};

/** ec_element - element @i of the EC_ARRAY @a: EC_INT, EC_UINT or EC_NONE */
static inline void ec_element(const struct ec_value *a, int i, struct ec_value *v)
{
	v->kind = tp_read_int(a->f, a->raw, a->size, i, &v->num) ? EC_NONE :
		  a->f->is_signed ? EC_INT : EC_UINT;
}

/** ec_field - field @f of the raw data @raw, @size bytes, as a value
 * (inline: both engines run it for every field of every event) */
static inline void ec_field(const struct tp_field *f, const unsigned char *raw, size_t size,
			    struct ec_value *v)
{
	v->f = f;
	v->raw = raw;
	v->size = size;
	switch (f->kind) {
	case TP_INT:
	case TP_UINT:
		ec_element(v, 0, v);
		return;
	case TP_ARRAY:
		v->kind = EC_ARRAY;
		v->count = f->count;
		return;
	default:
		if (tp_read_bytes(f, raw, size, &v->p, &v->len)) {
			v->kind = EC_NONE;
			return;
		}
		v->kind = f->kind == TP_STRING ? EC_STRING : EC_BYTES;
		v->slen = strnlen((const char *)v->p, v->len);
		v->printable = v->kind == EC_STRING && tp_printable(v->p, v->len);
		return;
	}
}

/** ec_common_args - the common arguments of tracepoint sample @ev */
void ec_common_args(const struct pd_event *ev, struct ec_common *c);

/**
 * ec_ident - @s as an identifier, the one rule of both languages: a part
 * perf would produce ([A-Za-z_][A-Za-z0-9_]*) stays exactly as it is; any
 * other byte becomes '_'. Never returns something a script's source or a
 * symbol lookup could execute. Returns a malloc'd string or NULL.
 */
char *ec_ident(const char *s);

/**
 * ec_names_build - name the handler of every format of @s "SYSTEM<sep>EVENT"
 * (sep "__" for Python, "::" for Perl), each part through ec_ident; when
 * two formats then share a name, the later one gets "_2", "_3"... and a
 * warning goes to @log.
 * Returns 0 or TB_ERR_NOMEM.
 */
int ec_names_build(struct ec_names *n, struct pd_session *s, const char *sep,
		   void (*log)(void *ctx, const char *text), void *log_ctx);
/** ec_name - the handler name of tracepoint id @id (NULL if none) */
const char *ec_name(const struct ec_names *n, int id);
void ec_names_free(struct ec_names *n);

/**
 * ec_params - the fields of @d as parameter names for generated scripts:
 * through ec_ident, cut to @max bytes (0: no limit), a word in @reserved
 * (NULL-terminated, may be NULL: the language's keywords and the names a
 * generated handler calls) suffixed "_", a clash with an earlier field or
 * a common argument suffixed "_2", "_3"... Returns a malloc'd array of
 * @d->nr malloc'd strings (ec_params_free) or NULL when out of memory.
 */
char **ec_params(const struct tp_decoder *d, const char *const *reserved, size_t max);
void ec_params_free(char **p, size_t nr);

/**
 * ec_syscall_map - the map scripts get: the recording's own, else (a perf
 * recording) the built-in table when the recording's arch is its arch,
 * loaded into @builtin; else NULL. Free @builtin with scmap_free after.
 */
const struct syscall_map *ec_syscall_map(struct pd_session *s, struct syscall_map *builtin);

/* perf's define_flag_field & co., in the order perf's engines call them. */
struct ec_define_ops {
	int (*field)(void *ctx, const char *event, enum tp_sym_kind kind, const char *field,
		     const char *delim);
	int (*value)(void *ctx, const char *event, enum tp_sym_kind kind, const char *field,
		     uint64_t value, const char *str);
};

/**
 * ec_walk_defines - every flag and symbolic table of every format of @s,
 * the event named by its handler name; stops at and returns a non-zero
 * result of a callback.
 */
int ec_walk_defines(struct pd_session *s, const struct ec_names *n,
		    const struct ec_define_ops *ops, void *ctx);

/**
 * ec_python_form - how perf 6.1 calls a Python handler declaring @argc
 * parameters, the eighth named @eighth (NULL if none), for a format of
 * @nr_fields fields. The 2010 form (no common_callchain) only when it is
 * unambiguous: exactly 7 + @nr_fields parameters, the eighth not named
 * like a callchain. Otherwise perf's: common_callchain, the fields, and
 * perf_sample_dict when there is a parameter left for it (a wrong count
 * then raises TypeError, as under perf).
 */
void ec_python_form(int argc, const char *eighth, size_t nr_fields, int *callchain,
		    int *sample_dict);

/* One event type of a generated script. */
struct ec_gen_event {
	const struct tp_decoder *dec;
	const char *handler;       /* its handler name */
	char *const *params;       /* its fields as parameter names (ec_params) */
	char *const *labels;       /* its field names through ec_ident, for strings */
};

/* What a language writes around and for every event type. */
struct ec_gen_lang {
	const char *sep;           /* handler name separator: "__", "::" */
	const char *const *reserved;  /* names a parameter cannot be (keywords, what handlers call) */
	size_t max_ident;          /* longest parameter name the language takes, 0: any */
	const char *head, *tail;   /* the script's first and last lines */
	void (*event)(FILE *f, const struct ec_gen_event *e);
};

/**
 * ec_generate - trace-gen: write @g->output ("-": stdout) from @lang's
 * head, one handler per event type of the recording, and its tail.
 * Every name that reaches the script passed ec_ident. Returns 0 or
 * TB_ERR_* with @err naming the file.
 */
int ec_generate(const struct engine_gen *g, const struct ec_gen_lang *lang, struct tb_err *err);

/**
 * ec_error - fill @err (TB_ERR_STOP) with "HANDLER: WHAT (event N at file
 * offset 0xX)", naming the handler, the event number and the record's
 * offset; @ev may be NULL outside events. Returns TB_ERR_STOP.
 */
int ec_error(struct tb_err *err, const struct pd_event *ev, const char *handler,
	     const char *fmt, ...) __attribute__((format(printf, 4, 5)));

#endif
