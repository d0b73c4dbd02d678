/* python_context.c - the perf_trace_context module: common_pc, common_flags,
 * common_lock_depth of the current event, and the recording's syscall map. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "python/python_int.h"

#define CAPSULE_NAME "tracebox.context"

PyObject *python_context_capsule(struct ec_current *cur)
{
	return PyCapsule_New(cur, CAPSULE_NAME, NULL);
}

static struct ec_current *current(PyObject *args, const char *fn)
{
	PyObject *cap;

	if (!PyArg_UnpackTuple(args, fn, 1, 1, &cap))
		return NULL;
	return PyCapsule_GetPointer(cap, CAPSULE_NAME);
}

/* common_preempt_count: what perf calls the "pc" */
static PyObject *ctx_common_pc(PyObject *self, PyObject *args)
{
	struct ec_current *c = current(args, "common_pc");

	(void)self;
	return c ? PyLong_FromLong(ec_context_int(c, EC_PC)) : NULL;
}

static PyObject *ctx_common_flags(PyObject *self, PyObject *args)
{
	struct ec_current *c = current(args, "common_flags");

	(void)self;
	return c ? PyLong_FromLong(ec_context_int(c, EC_FLAGS)) : NULL;
}

/* 0 where the kernel has no such field (all kernels since 2.6.37) */
static PyObject *ctx_common_lock_depth(PyObject *self, PyObject *args)
{
	struct ec_current *c = current(args, "common_lock_depth");

	(void)self;
	return c ? PyLong_FromLong(ec_context_int(c, EC_LOCK_DEPTH)) : NULL;
}

static PyMethodDef ctx_methods[] = {
	{ "common_pc", ctx_common_pc, METH_VARARGS, "the event's preempt count" },
	{ "common_flags", ctx_common_flags, METH_VARARGS, "the event's irq/softirq flags" },
	{ "common_lock_depth", ctx_common_lock_depth, METH_VARARGS,
	  "the event's lock depth (0 on kernels without the field)" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef ctx_module = {
	PyModuleDef_HEAD_INIT, "perf_trace_context",
	"Access to the current event for tracebox (and perf) trace scripts.", -1,
	ctx_methods, NULL, NULL, NULL, NULL
};

PyObject *python_context_init(void)
{
	PyObject *m = PyModule_Create(&ctx_module);
	PyObject *d;

	if (!m)
		return NULL;
	d = PyDict_New();
	if (!d || PyModule_AddObject(m, "syscall_map", d)) {
		Py_XDECREF(d);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}
