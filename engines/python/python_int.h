/* python_int.h - what the Python engine's files share (Python.h users only). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PYTHON_INT_H
#define PYTHON_INT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "ec_sample.h"
#include "engine_core.h"

/* Argument objects kept between events: per CPU number, per thread's comm,
 * and the int objects of recent handler field values (python.c). */
#define CPU_CACHE 1024
#define COMM_CACHE 256
#define NUM_CACHE 1024

struct num_slot {
	uint64_t num;
	int kind;                 /* EC_INT or EC_UINT */
	PyObject *obj;
};

struct comm_slot {
	int32_t tid;
	const char *ptr;
	PyObject *str;
};

/* perf's perf_sample_dict keys, made once as interned str (python_objs.c);
 * DSO..SYMOFF and ADDR_DSO..ADDR_SYMOFF stay six in a row (sym_keys) */
#define PYTHON_KEYS(X) \
	X(IP, "ip") X(SYM, "sym") X(START, "start") X(END, "end") X(BINDING, "binding") \
	X(NAME, "name") X(SYM_OFF, "sym_off") X(DSO, "dso") X(DSO_BID, "dso_bid") \
	X(DSO_MAP_START, "dso_map_start") X(DSO_MAP_END, "dso_map_end") X(SYMBOL, "symbol") \
	X(SYMOFF, "symoff") X(ADDR_DSO, "addr_dso") X(ADDR_DSO_BID, "addr_dso_bid") \
	X(ADDR_DSO_MAP_START, "addr_dso_map_start") X(ADDR_DSO_MAP_END, "addr_dso_map_end") \
	X(ADDR_SYMBOL, "addr_symbol") X(ADDR_SYMOFF, "addr_symoff") X(FROM, "from") X(TO, "to") \
	X(PRED, "pred") X(IN_TX, "in_tx") X(ABORT, "abort") X(MISPRED, "mispred") \
	X(PREDICTED, "predicted") X(CYCLES, "cycles") X(FROM_DSONAME, "from_dsoname") \
	X(TO_DSONAME, "to_dsoname") X(EV_NAME, "ev_name") X(ATTR, "attr") X(PID, "pid") \
	X(TID, "tid") X(CPU, "cpu") X(TIME, "time") X(PERIOD, "period") \
	X(PHYS_ADDR, "phys_addr") X(ADDR, "addr") X(TIME_ENABLED, "time_enabled") \
	X(TIME_RUNNING, "time_running") X(VALUES, "values") X(WEIGHT, "weight") \
	X(TRANSACTION, "transaction") X(DATASRC, "datasrc") X(DATASRC_DECODE, "datasrc_decode") \
	X(SAMPLE, "sample") X(RAW_BUF, "raw_buf") X(COMM, "comm") X(CALLCHAIN, "callchain") \
	X(BRSTACK, "brstack") X(BRSTACKSYM, "brstacksym") X(CPUMODE, "cpumode") \
	X(ADDR_CORRELATES_SYM, "addr_correlates_sym") X(IREGS, "iregs") X(UREGS, "uregs")
#define PYTHON_KEY_ENUM(e, s) PK_##e,
enum python_key { PYTHON_KEYS(PYTHON_KEY_ENUM) PK_NR };
#undef PYTHON_KEY_ENUM

struct python_objs;

/* a name's callable as last found (python.c callable_now) */
struct found {
	PyObject *name;           /* held: the global's name, interned */
	PyObject *fn;             /* held, or NULL: none */
	PyObject *code;           /* held: a function's __code__ then, or NULL */
	uint64_t version;         /* the module dict's version tag then */
	int valid;
};

/* A run: python.c calls its handlers, python_interp.c starts and ends its interpreter. */
struct engine_run {
	struct ec_run core;       /* evs: per tracepoint id, struct python_tracepoint */
	PyObject *main;           /* __main__'s dict (borrowed) */
	PyObject *context;        /* capsule on core.cur */
	struct found unhandled;   /* trace_unhandled as last found */
	int unhandled_argc;
	struct found process_event;
	struct sym_machine *syms; /* the session's symbols, or NULL */
	PyObject *cpus[CPU_CACHE];
	struct comm_slot comms[COMM_CACHE];
	struct num_slot nums[NUM_CACHE];
	uint64_t secs;            /* the last common_secs, as secs_obj */
	PyObject *secs_obj;
	int pid;                  /* the last common_pid, as pid_obj */
	PyObject *pid_obj;
	PyObject *spare_chain;    /* an empty list no script kept, or NULL */
	PyObject **args;
	size_t max_args;
	struct python_objs *objs; /* what samples' dicts are made of (python_objs.c) */
};

/* The interpreter (python_interp.c). */
/** python_interpreter_start - start CPython for @st's script: its folder,
 * perf's Perf/Trace modules, the stdlib and the payload on the path, the
 * built-in modules registered, the payload's importer installed */
int python_interpreter_start(const struct engine_start *st, struct tb_err *err);
/** python_interpreter_stop - flush the script's output and finalize: 0, or < 0
 * when writing the output failed */
int python_interpreter_stop(void);
/** python_define_quitters - exit() and quit(), as python's site module has them */
int python_define_quitters(void);
/** python_stdout_unbuffered - whether PYTHONUNBUFFERED asks for an
 * unbuffered sys.stdout, as CPython (and so perf's Python) reads it */
int python_stdout_unbuffered(void);
/** python_print_install - print() writes once a call to the unbuffered
 * stdout the run began with (python_print.c): 0, or -1 */
int python_print_install(void);
/** python_threads_settle - after trace_begin: let the threads it started
 * run until they block, as they do under perf before the first event */
void python_threads_settle(void);
/** python_context_publish - perf_trace_context.perf_script_context and the
 * script's global of that name become @capsule (after the script ran, as
 * perf sets them): 0, or -1 with the exception set */
int python_context_publish(PyObject *main_dict, PyObject *capsule);
/** python_set_syscall_map - fill perf_trace_context.syscall_map: 0, or -1 */
int python_set_syscall_map(struct engine_run *r);
/** python_run_script - run the script (a file, or carried in the payload)
 * in __main__: 0, or TB_ERR_* with @err set and the traceback logged */
int python_run_script(struct engine_run *r, struct tb_err *err);
/** python_flush_stdout - flush the script's stdout, keeping any pending exception */
void python_flush_stdout(void);
/**
 * python_raised - report the pending exception: a SystemExit ends the run
 * (TB_ERR_STOP, the status in *st->exit_status); anything else gets the
 * flushed output, its traceback and a line naming @who, the event @ev
 * (NULL outside events) and @what. Returns the error code, @err set.
 */
int python_raised(struct engine_run *r, struct tb_err *err, const struct pd_event *ev,
		  const char *who, const char *what);

/* perf_trace_context: built in, registered before the interpreter starts. */
PyObject *python_context_init(void);
/* _tracebox: the payload's files (python_payload.c), for the path hook */
PyObject *python_payload_init(void);
/** python_payload_install - run the payload's path hook (between the core and
 * main start phases): 0, or -1 (the error printed) */
int python_payload_install(void);
/** python_context_capsule - a capsule for @cur, the object scripts get as context */
PyObject *python_context_capsule(struct ec_current *cur);

/*
 * The objects kept between samples (python_objs.c): python_objs_new once the
 * interpreter runs, then for each sample python_keys, python_cstr and the
 * rest, python_objs_free before it is finalized.
 */
/** python_objs_new - the keys made, the caches empty; NULL with the exception set */
struct python_objs *python_objs_new(void);
/** python_objs_free - drop every object kept (@o may be NULL) */
void python_objs_free(struct python_objs *o);
/** python_keys - the keys as interned str, by enum python_key (borrowed) */
PyObject *const *python_keys(const struct python_objs *o);
/** python_attr - bytes of the 128 bytes of an attr, as perf_sample_dict's
 * "attr", the same object as the last time for the same bytes: a new
 * reference, or NULL with the exception set */
PyObject *python_attr(struct python_objs *o, const unsigned char raw[128]);
/** python_datasrc - perf's datasrc_decode text of @data_src as a str, as
 * python_attr keeps the last */
PyObject *python_datasrc(struct python_objs *o, uint64_t data_src);
/** python_cstr - @s as perf's str (UTF-8, bad bytes replaced), the same
 * object as for the same text lately: a new reference, or NULL with the
 * exception set */
PyObject *python_cstr(struct python_objs *o, const char *s);
/** python_cstr_kept - python_cstr for a text at an address that holds it
 * until the run ends (the machine's DSO and symbol names): found by its
 * address, not read */
PyObject *python_cstr_kept(struct python_objs *o, const char *s);
/** python_build_id - @l's build-id in hex as python_cstr_kept finds it (the
 * DSO's build-id stays too); "" when it has none */
PyObject *python_build_id(struct python_objs *o, const struct sym_loc *l);
/** python_frame - perf's callchain entry for @ip resolved to @l: {ip, sym
 * {start, end, binding, name}, sym_off, dso} as perf adds them, new dicts
 * (a script may change them) of the str kept: a new dict, or NULL with the
 * exception set.
 * @kept: @l's symbol name stays at its address until the run ends (not so
 * for an inline frame's); its DSO name always does. */
PyObject *python_frame(struct python_objs *o, uint64_t ip, const struct sym_loc *l, int kept);
/** python_frames_settle - after the script's call, before the sample's
 * callchain list goes: the entries of this sample's list the script
 * changed or holds are no longer handed out again (they go with the list) */
void python_frames_settle(struct python_objs *o);

/*
 * Lists reused between events (python_reuse.c): python_list_take for the
 * list to fill, python_list_put for each item, and after the call
 * python_list_keep, which keeps it in *@spare only when no script can tell.
 */
/** python_list_take - *@spare (then NULL) when it has @n items, else a new
 * list of @n empty slots: a new reference, or NULL with the exception set */
PyObject *python_list_take(PyObject **spare, Py_ssize_t n);
/** python_list_put - @list[@i] = @v (stolen), dropping what was there */
void python_list_put(PyObject *list, Py_ssize_t i, PyObject *v);
/** python_list_keep - take back @list (stolen) into an empty *@spare when
 * only the engine holds it and it is unchanged in shape and kind; else drop it */
void python_list_keep(PyObject **spare, PyObject *list);

/** python_callchain - perf's callchain list of @ev (frames with sym and dso
 * from r->syms, which may be NULL); a new list, or NULL with the exception set */
PyObject *python_callchain(struct engine_run *r, const struct pd_event *ev);
/** python_sample_dict - perf's perf_sample_dict of @ev with @callchain (borrowed) */
PyObject *python_sample_dict(struct engine_run *r, const struct pd_event *ev, PyObject *callchain);

#endif
