/* python_print.c - print() to the unbuffered stdout (PYTHONUNBUFFERED) in one write a call. */
/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * With PYTHONUNBUFFERED set perf runs scripts with an unbuffered sys.stdout (a TextIOWrapper over a
 * FileIO, write_through), so what a script prints reaches fd 1 before
 * anything it writes there another way (os.write, open("/dev/stdout"), a
 * child). The builtin print() writes each argument, separator and end on
 * its own: four system calls for print(a, b). This print joins them and
 * writes once when the file is the stdout the run began with; any other
 * case (another file, sep or end not str/None, flush=True) goes to the
 * builtin. What reaches the file, and when, is the builtin's: on an
 * argument whose str() raises, what came before it is written first.
 */
#include "python_int.h"

static PyObject *builtin_print;   /* builtins.print as the interpreter made it */
static PyObject *start_stdout;    /* sys.stdout when installed */

/* Write @parts[0..n) joined by @sep, then @tail (NULL: nothing), keeping a
 * pending exception. Returns 0 or -1 with the write's exception set. */
static int write_joined(PyObject *out, PyObject *parts, Py_ssize_t n, PyObject *sep,
			PyObject *tail)
{
	PyObject *slice = PyList_GetSlice(parts, 0, n), *line = NULL, *r = NULL;

	if (slice)
		line = PyUnicode_Join(sep, slice);
	if (line && tail) {
		PyObject *t = PyUnicode_Concat(line, tail);

		Py_SETREF(line, t);
	}
	if (line && PyUnicode_GET_LENGTH(line))
		r = PyObject_CallMethod(out, "write", "O", line);
	else if (line)
		r = Py_NewRef(Py_None);
	Py_XDECREF(slice);
	Py_XDECREF(line);
	if (!r)
		return -1;
	Py_DECREF(r);
	return 0;
}

/* A keyword's value when it is None or a str; -1 for anything else. */
static int str_or_none(PyObject *v, PyObject **out)
{
	if (v == Py_None)
		return 0;
	if (!PyUnicode_CheckExact(v))
		return -1;
	*out = v;
	return 0;
}

static PyObject *delegate(PyObject *const *args, Py_ssize_t nargs, PyObject *kwnames)
{
	return PyObject_Vectorcall(builtin_print, args, (size_t)nargs, kwnames);
}

static PyObject *fast_print(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
			    PyObject *kwnames)
{
	static PyObject *space, *newline;
	PyObject *sep = NULL, *end = NULL, *out, *parts;
	Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;

	out = PySys_GetObject("stdout");
	if (!out || out != start_stdout)
		return delegate(args, nargs, kwnames);
	for (Py_ssize_t i = 0; i < nkw; i++) {
		const char *k = PyUnicode_AsUTF8(PyTuple_GET_ITEM(kwnames, i));
		PyObject *v = args[nargs + i];
		int bad = 1;

		if (!k)
			return NULL;
		if (!strcmp(k, "sep"))
			bad = str_or_none(v, &sep);
		else if (!strcmp(k, "end"))
			bad = str_or_none(v, &end);
		else if (!strcmp(k, "file"))
			bad = v != Py_None && v != out;
		else if (!strcmp(k, "flush"))
			bad = v != Py_False;
		if (bad)
			return delegate(args, nargs, kwnames);
	}
	if (!space && !(space = PyUnicode_InternFromString(" ")))
		return NULL;
	if (!newline && !(newline = PyUnicode_InternFromString("\n")))
		return NULL;
	parts = PyList_New(nargs);
	if (!parts)
		return NULL;
	for (Py_ssize_t i = 0; i < nargs; i++) {
		PyObject *s = PyObject_Str(args[i]);

		if (!s) {
			/* the builtin wrote the arguments before and a separator */
			PyObject *type, *value, *tb;

			PyErr_Fetch(&type, &value, &tb);
			if (i && write_joined(out, parts, i, sep ? sep : space, sep ? sep : space))
				PyErr_Clear();
			PyErr_Restore(type, value, tb);
			Py_DECREF(parts);
			return NULL;
		}
		PyList_SET_ITEM(parts, i, s);
	}
	if (write_joined(out, parts, nargs, sep ? sep : space, end ? end : newline)) {
		Py_DECREF(parts);
		return NULL;
	}
	Py_DECREF(parts);
	Py_RETURN_NONE;
}

static PyMethodDef print_def = {
	"print", (PyCFunction)(void (*)(void))fast_print, METH_FASTCALL | METH_KEYWORDS,
	"print(value, ..., sep=' ', end='\\n', file=sys.stdout, flush=False)\n\n"
	"Prints the values to a stream, or to sys.stdout by default.",
};

int python_print_install(void)
{
	PyObject *builtins = PyEval_GetBuiltins(), *fn;

	if (!builtins || !(builtin_print = PyDict_GetItemString(builtins, "print")))
		return -1;
	Py_INCREF(builtin_print);
	start_stdout = PySys_GetObject("stdout");
	if (!start_stdout)
		return 0;             /* no stdout: the builtin's way */
	Py_INCREF(start_stdout);
	fn = PyCFunction_NewEx(&print_def, NULL, PyDict_GetItemString(builtins, "__name__"));
	if (!fn || PyDict_SetItemString(builtins, "print", fn)) {
		Py_XDECREF(fn);
		return -1;
	}
	Py_DECREF(fn);
	return 0;
}
