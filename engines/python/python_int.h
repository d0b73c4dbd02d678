/* python_int.h - what the Python engine's files share (Python.h users only). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PYTHON_INT_H
#define PYTHON_INT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "ec_sample.h"
#include "engine_core.h"

/* Argument objects kept between events: per CPU number, per thread's comm. */
#define CPU_CACHE 1024
#define COMM_CACHE 256

struct comm_slot {
	int32_t tid;
	const char *ptr;
	PyObject *str;
};

/* A run: python.c calls its handlers, python_interp.c starts and ends its interpreter. */
struct engine_run {
	struct ec_run core;       /* evs: per tracepoint id, struct python_tracepoint */
	PyObject *main;           /* __main__'s dict (borrowed) */
	PyObject *context;        /* capsule on core.cur */
	PyObject *unhandled;
	int unhandled_argc;
	PyObject *process_event;  /* NULL: the script has none */
	struct sym_machine *syms; /* the session's symbols, or NULL */
	PyObject *cpus[CPU_CACHE];
	struct comm_slot comms[COMM_CACHE];
	PyObject **args;
	size_t max_args;
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

/** python_callchain - perf's callchain list of @ev (frames with sym and dso
 * from @m, which may be NULL); a new list, or NULL with the exception set */
PyObject *python_callchain(const struct pd_event *ev, struct sym_machine *m);
/** python_sample_dict - perf's perf_sample_dict of @ev with @callchain (borrowed) */
PyObject *python_sample_dict(const struct pd_event *ev, struct sym_machine *m, PyObject *callchain);

#endif
