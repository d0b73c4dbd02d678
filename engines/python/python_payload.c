/* python_payload.c - the _tracebox module (the payload's files, for the
 * path hook of python_payload.py) and the hook's installation between the
 * interpreter's core and main start phases (PEP 587). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include "util/payload.h"
#include "python/python_int.h"

#define HOOK PAYLOAD_ROOT "/lib/tracebox/python_payload.py"

/* _tracebox.read(path): the file's bytes, or None */
static PyObject *python_payload_read(PyObject *self, PyObject *arg)
{
	const char *path = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
	unsigned char *data;
	PyObject *b;
	size_t len;
	int r;

	(void)self;
	if (!path)
		return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "a str path");
	r = payload_read(path, &data, &len);
	if (r == -1)
		Py_RETURN_NONE;
	if (r)
		return r == TB_ERR_NOMEM ? PyErr_NoMemory() :
		       PyErr_Format(PyExc_ImportError, "%s: damaged in the payload", path);
	b = PyBytes_FromStringAndSize((const char *)data, (Py_ssize_t)len);
	free(data);
	return b;
}

/* _tracebox.has(path): whether the payload holds the file */
static PyObject *python_payload_has(PyObject *self, PyObject *arg)
{
	const char *path = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;

	(void)self;
	if (!path)
		return PyErr_Occurred() ? NULL : PyErr_Format(PyExc_TypeError, "a str path");
	return PyBool_FromLong(payload_has(path));
}

static PyMethodDef python_payload_methods[] = {
	{ "read", python_payload_read, METH_O, "the bytes of a payload file, or None" },
	{ "has", python_payload_has, METH_O, "whether the payload holds a file" },
	{ NULL, NULL, 0, NULL }
};

static struct PyModuleDef python_payload_module = {
	PyModuleDef_HEAD_INIT, "_tracebox", "the files tracebox carries", -1,
	python_payload_methods, NULL, NULL, NULL, NULL
};

PyObject *python_payload_init(void)
{
	return PyModule_Create(&python_payload_module);
}

int python_payload_install(void)
{
	unsigned char *src;
	PyObject *g, *res;
	size_t len;
	int r = payload_read(HOOK, &src, &len);

	if (r == -1)
		return 0;          /* a binary without a payload: the disk only */
	if (r)
		return -1;
	g = PyDict_New();
	res = g && !PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()) ?
	      PyRun_String((const char *)src, Py_file_input, g, g) : NULL;
	free(src);
	Py_XDECREF(g);
	if (!res) {
		PyErr_Print();
		return -1;
	}
	Py_DECREF(res);
	return 0;
}
