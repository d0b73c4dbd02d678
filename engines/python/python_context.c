/* python_context.c - the perf_trace_context module: common_pc, common_flags,
 * common_lock_depth of the current event, perf 6.1's perf_sample_insn,
 * perf_sample_srcline, perf_sample_srccode and perf_set_itrace_options,
 * perf_script_context, and the recording's syscall map. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "python/python_int.h"
#include "perfdata/pd_session.h"
#include "symbols/symbols.h"
#include "util/itrace_opts.h"

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

/* perf_sample_insn: the sample's instruction bytes (script_fetch_insn), or None */
static PyObject *ctx_sample_insn(PyObject *self, PyObject *args)
{
	struct ec_current *c = current(args, "context");
	struct sym_machine *m;
	unsigned char insn[16];
	size_t n = 0;

	(void)self;
	if (!c)
		return NULL;
	m = c->session ? pd_session_symbols(c->session) : NULL;
	if (c->have_sample && m)
		n = sym_machine_fetch_insn(m, c->pid, c->cpumode, c->ip, insn);
	if (!n)
		Py_RETURN_NONE;
	return PyBytes_FromStringAndSize((const char *)insn, (Py_ssize_t)n);
}

/* perf_set_itrace_options: 1 when set already, 0 once @opts parse, -22
 * (perf's -EINVAL, after its message) when they do not */
static PyObject *ctx_set_itrace_options(PyObject *self, PyObject *args)
{
	static int set;
	PyObject *cap, *str;
	const char *opts;

	(void)self;
	/* both: a call with the context alone left @str unset */
	if (!PyArg_UnpackTuple(args, "perf_set_itrace_options", 2, 2, &cap, &str) ||
	    !PyCapsule_GetPointer(cap, CAPSULE_NAME))
		return NULL;
	if (set)
		return PyLong_FromLong(1);
	opts = PyUnicode_AsUTF8(str);
	if (!opts)
		return NULL;
	if (itrace_opts_valid(opts)) {
		PySys_FormatStderr("Bad Instruction Tracing options '%s'\n", opts);
		return PyLong_FromLong(-22);
	}
	set = 1;
	return PyLong_FromLong(0);
}

/* perf_sample_srcline and perf_sample_srccode: the source file and line of
 * the sample's ip (the DWARF's, innermost), and for srccode the line's text;
 * None and 0 where unknown, as perf's perf_sample_src */
static PyObject *sample_src(PyObject *args, int code)
{
	struct ec_current *c = current(args, "context");
	struct sym_machine *m;
	const char *file = NULL, *text = NULL;
	unsigned line = 0;
	size_t len = 0;

	if (!c)
		return NULL;
	m = c->session ? pd_session_symbols(c->session) : NULL;
	if (c->have_sample && m)
		file = sym_machine_srcfile(m, c->pid, c->cpumode, c->ip, &line);
	if (!code)
		return Py_BuildValue("(zI)", file, line);
	if (file)
		text = sym_machine_source_line(m, file, line, &len);
	return Py_BuildValue("(zIz#)", file, line, text, (Py_ssize_t)len);
}

static PyObject *ctx_sample_srcline(PyObject *self, PyObject *args)
{
	(void)self;
	return sample_src(args, 0);
}

static PyObject *ctx_sample_srccode(PyObject *self, PyObject *args)
{
	(void)self;
	return sample_src(args, 1);
}

static PyMethodDef ctx_methods[] = {
	{ "common_pc", ctx_common_pc, METH_VARARGS, "the event's preempt count" },
	{ "common_flags", ctx_common_flags, METH_VARARGS, "the event's irq/softirq flags" },
	{ "common_lock_depth", ctx_common_lock_depth, METH_VARARGS,
	  "the event's lock depth (0 on kernels without the field)" },
	{ "perf_sample_insn", ctx_sample_insn, METH_VARARGS, "Get the machine code instruction." },
	{ "perf_set_itrace_options", ctx_set_itrace_options, METH_VARARGS,
	  "Set --itrace options." },
	{ "perf_sample_srcline", ctx_sample_srcline, METH_VARARGS,
	  "Get source file name and line number." },
	{ "perf_sample_srccode", ctx_sample_srccode, METH_VARARGS,
	  "Get source file name, line number and line." },
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
	/* the capsule once the script has run (python_context_publish) */
	if (PyModule_AddObject(m, "perf_script_context", Py_NewRef(Py_None))) {
		Py_DECREF(Py_None);
		Py_DECREF(m);
		return NULL;
	}
	d = PyDict_New();
	if (!d || PyModule_AddObject(m, "syscall_map", d)) {
		Py_XDECREF(d);
		Py_DECREF(m);
		return NULL;
	}
	return m;
}

int python_context_publish(PyObject *main_dict, PyObject *capsule)
{
	PyObject *m = PyImport_ImportModule("perf_trace_context");
	int r = -1;

	if (m && !PyObject_SetAttrString(m, "perf_script_context", capsule) &&
	    !PyDict_SetItemString(main_dict, "perf_script_context", capsule))
		r = 0;
	Py_XDECREF(m);
	return r;
}
