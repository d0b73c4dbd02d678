/* python_int.h - what the Python engine's files share (Python.h users only). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef PYTHON_INT_H
#define PYTHON_INT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "engine_core.h"

/* perf_trace_context: built in, registered before the interpreter starts. */
PyObject *py_context_init(void);
/** py_context_capsule - a capsule for @cur, the object scripts get as context */
PyObject *py_context_capsule(struct ec_current *cur);

#endif
