/* python_reuse.c - lists handed to a handler and taken back for the next
 * event when the script kept no reference to them and they are as the
 * engine made them: what the script sees is what a new list would show. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "python/python_int.h"

PyObject *python_list_take(PyObject **spare, Py_ssize_t n)
{
	PyObject *l = *spare;

	*spare = NULL;
	if (l && PyList_GET_SIZE(l) == n)
		return l;
	Py_XDECREF(l);
	return PyList_New(n);
}

void python_list_put(PyObject *list, Py_ssize_t i, PyObject *v)
{
	PyObject *old = PyList_GET_ITEM(list, i);

	PyList_SET_ITEM(list, i, v);
	Py_XDECREF(old);
}

/*
 * Only a list nobody else holds (a script that kept it, or anything in it
 * through it, holds a reference), of its first size and capacity (never
 * grown: sys.getsizeof reads the same), of ints or None only (an object
 * the script put there could have a __del__ that must run now, as perf
 * frees the list after the call).
 */
void python_list_keep(PyObject **spare, PyObject *list)
{
	Py_ssize_t n;

	if (*spare || !PyList_CheckExact(list) || Py_REFCNT(list) != 1)
		goto drop;
	n = PyList_GET_SIZE(list);
	if (((PyListObject *)list)->allocated != n)
		goto drop;
	for (Py_ssize_t i = 0; i < n; i++) {
		PyObject *v = PyList_GET_ITEM(list, i);

		if (v != Py_None && !PyLong_CheckExact(v))
			goto drop;
	}
	*spare = list;
	return;
drop:
	Py_DECREF(list);
}
