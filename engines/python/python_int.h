/* python_int.h - what the Python engine's files share (Python.h users only). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PYTHON_INT_H
#define PYTHON_INT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "ec_sample.h"
#include "engine_core.h"

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
