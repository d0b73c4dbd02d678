/* python.c - the embedded CPython engine: runs a perf-style trace script,
 * calling system__event(event_name, context, common_cpu, common_secs,
 * common_nsecs, common_pid, common_comm, [common_callchain,] fields...)
 * for every sample with one vectorcall of cached argument objects. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <traceevent/event-parse.h>
#include "engine.h"
#include "syscall_map.h"
#include "python_int.h"
#include "idtable.h"
#include "tp_fields.h"
#include "tp_symbols.h"

#define CPU_CACHE 1024
#define COMM_CACHE 256

struct py_event {             /* per tracepoint id */
	int ready;
	struct tp_layout layout;
	PyObject *name;           /* "system__event" */
	PyObject *handler;        /* NULL: trace_unhandled or nothing */
	int callchain;            /* the handler declares common_callchain */
	int sample_dict;          /* it takes perf's trailing perf_sample_dict */
};

struct comm_slot {
	int32_t tid;
	const char *ptr;
	PyObject *str;
};

struct engine_run {
	const struct engine_start *st;
	PyObject *main;           /* __main__'s dict (borrowed) */
	PyObject *context;        /* capsule on @cur */
	struct py_current cur;
	struct idtable evs;       /* per tracepoint id: struct py_event */
	PyObject *unhandled;
	int unhandled_argc;
	PyObject *cpus[CPU_CACHE];
	struct comm_slot comms[COMM_CACHE];
	PyObject **args;
	size_t max_args;
};

static void log_text(struct engine_run *r, const char *text)
{
	if (r->st->log)
		r->st->log(r->st->log_ctx, text);
}

/* The pending exception as text (traceback included), then cleared. */
static char *exception_text(void)
{
	PyObject *type, *value, *tb, *mod = NULL, *lines = NULL, *joined = NULL, *sep = NULL;
	char *out = NULL;

	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	if (!type)
		return strdup("unknown error\n");
	mod = PyImport_ImportModule("traceback");
	if (mod)
		lines = PyObject_CallMethod(mod, "format_exception", "OOO", type,
					    value ? value : Py_None, tb ? tb : Py_None);
	sep = PyUnicode_FromString("");
	if (lines && sep)
		joined = PyUnicode_Join(sep, lines);
	if (joined && PyUnicode_AsUTF8(joined))
		out = strdup(PyUnicode_AsUTF8(joined));
	PyErr_Clear();
	Py_XDECREF(joined);
	Py_XDECREF(sep);
	Py_XDECREF(lines);
	Py_XDECREF(mod);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
	return out ? out : strdup("(could not format the exception)\n");
}

/* Flush the script's stdout, keeping any pending exception. */
static void flush_stdout(void)
{
	PyObject *type, *value, *tb, *out, *r;

	PyErr_Fetch(&type, &value, &tb);
	out = PySys_GetObject("stdout");
	if (out && (r = PyObject_CallMethod(out, "flush", NULL)))
		Py_DECREF(r);
	PyErr_Clear();
	PyErr_Restore(type, value, tb);
}

/* SystemExit: the script ends the run as python would (a message for a
 * non-int code, status 1), with no traceback. Returns 1 if it was one. */
static int script_exit(struct engine_run *r, struct tb_err *err)
{
	PyObject *type, *value, *tb, *code;
	int status = 1;

	if (!PyErr_ExceptionMatches(PyExc_SystemExit))
		return 0;
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	code = value ? PyObject_GetAttrString(value, "code") : NULL;
	PyErr_Clear();
	if (!code || code == Py_None) {
		status = 0;
	} else if (PyLong_Check(code)) {
		status = (int)PyLong_AsLong(code);
	} else {
		PyObject *str = PyObject_Str(code);

		if (str && PyUnicode_AsUTF8(str)) {
			log_text(r, PyUnicode_AsUTF8(str));
			log_text(r, "\n");
		}
		Py_XDECREF(str);
	}
	PyErr_Clear();
	Py_XDECREF(code);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
	flush_stdout();
	if (r->st->exit_status)
		*r->st->exit_status = status;
	tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET, "the script exited with status %d", status);
	return 1;
}

/* Report the pending exception: flushed output, traceback, one summary. */
static int script_error(struct engine_run *r, struct tb_err *err, const char *fmt,
			const char *what, unsigned long long n)
{
	char *text;

	if (script_exit(r, err))
		return TB_ERR_STOP;
	flush_stdout();
	text = exception_text();
	log_text(r, text);
	free(text);
	return tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET, fmt, what, n);
}

/* ---- the interpreter ---- */

static int path_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

static int add_path(PyConfig *c, const char *path)
{
	wchar_t *w = Py_DecodeLocale(path, NULL);
	PyStatus s;

	if (!w)
		return -1;
	s = PyWideStringList_Append(&c->module_search_paths, w);
	PyMem_RawFree(w);
	return PyStatus_Exception(s) ? -1 : 0;
}

static int start_interpreter(const struct engine_start *st, struct tb_err *err)
{
	PyPreConfig pre;
	PyConfig c;
	PyStatus s;
	char buf[4200], *dir;
	wchar_t **wargv;

	PyPreConfig_InitIsolatedConfig(&pre);
	pre.utf8_mode = 1;
	s = Py_PreInitialize(&pre);
	if (PyStatus_Exception(s))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "cannot start Python: %s", s.err_msg);
	if (PyImport_AppendInittab("perf_trace_context", py_context_init))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "cannot register modules");
	PyConfig_InitIsolatedConfig(&c);
	c.site_import = 0;
	c.install_signal_handlers = 0;
	c.buffered_stdio = 1;
	c.write_bytecode = 0;
	c.parse_argv = 0;
	c.module_search_paths_set = 1;
	/* the script's directory first, as python does */
	snprintf(buf, sizeof(buf), "%s", st->script);
	dir = strrchr(buf, '/');
	if (dir)
		*dir = 0;
	else
		strcpy(buf, ".");
	add_path(&c, buf);
	snprintf(buf, sizeof(buf), "%s/scripts/python/Perf-Trace-Util/lib/Perf/Trace",
		 st->exec_path);
	add_path(&c, buf);
	/* the stdlib: a zip beside the scripts (the initramfs), else the host's */
	snprintf(buf, sizeof(buf), "%s/lib/python311.zip", st->exec_path);
	if (path_exists(buf))
		add_path(&c, buf);
	add_path(&c, "/usr/lib/python3.11");
#ifdef TRACEBOX_DYNAMIC
	add_path(&c, "/usr/lib/python3.11/lib-dynload");
#endif
	wargv = calloc((size_t)st->argc + 1, sizeof(*wargv));
	if (!wargv)
		return TB_ERR_NOMEM;
	for (int i = 0; i < st->argc; i++)
		wargv[i] = Py_DecodeLocale(st->argv[i], NULL);
	s = PyConfig_SetArgv(&c, st->argc, wargv);
	for (int i = 0; i < st->argc; i++)
		PyMem_RawFree(wargv[i]);
	free(wargv);
	if (!PyStatus_Exception(s))
		s = Py_InitializeFromConfig(&c);
	PyConfig_Clear(&c);
	if (PyStatus_Exception(s))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "cannot start Python: %s", s.err_msg ? s.err_msg : "?");
	return 0;
}

/* A ModuleNotFoundError for a C extension the static binary cannot load. */
static int static_build_limit(struct tb_err *err)
{
	PyObject *type, *value, *tb, *name;
	char path[512];
	const char *n;
	int r = 0;

	if (!PyErr_ExceptionMatches(PyExc_ModuleNotFoundError))
		return 0;
	PyErr_Fetch(&type, &value, &tb);
	PyErr_NormalizeException(&type, &value, &tb);
	name = value ? PyObject_GetAttrString(value, "name") : NULL;
	n = name && PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
	if (n) {
		snprintf(path, sizeof(path), "/usr/lib/python3.11/lib-dynload/%s.cpython-311-x86_64-linux-gnu.so", n);
		if (path_exists(path)) {
			tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				   "the script imports '%s', a C extension module this static "
				   "build cannot load: use the dynamic build (make dynamic, then "
				   "build/dyn/tracebox)", n);
			r = 1;
		}
	}
	Py_XDECREF(name);
	PyErr_Restore(type, value, tb);
	if (r)
		PyErr_Clear();
	return r;
}

static int run_script(struct engine_run *r, struct tb_err *err)
{
	FILE *fp = fopen(r->st->script, "r");
	PyObject *res, *file;

	if (!fp)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot open script %s: %m",
				  r->st->script);
	file = PyUnicode_FromString(r->st->script);
	if (file) {
		PyDict_SetItemString(r->main, "__file__", file);
		Py_DECREF(file);
	}
	res = PyRun_FileExFlags(fp, r->st->script, Py_file_input, r->main, r->main, 1, NULL);
	if (res) {
		Py_DECREF(res);
		return 0;
	}
	if (static_build_limit(err))
		return err->code;
	if (PyErr_ExceptionMatches(PyExc_SyntaxError)) {
		char *text = exception_text();

		log_text(r, text);
		free(text);
		return tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET, "syntax error (above)");
	}
	return script_error(r, err, "%sthe script raised while loading (traceback above)%.0llu",
			    "", 0);
}

/* ---- symbol tables: perf's define_* calls ---- */

struct define_ctx {
	struct engine_run *r;
	const char *event;
};

static int call_define(struct engine_run *r, const char *fn, PyObject *args)
{
	PyObject *f = PyDict_GetItemString(r->main, fn), *res;

	if (!f || !PyCallable_Check(f)) {
		PyObject *mods = PyImport_GetModuleDict();
		PyObject *core = mods ? PyDict_GetItemString(mods, "Core") : NULL;

		f = core ? PyObject_GetAttrString(core, fn) : NULL;
		if (!f) {
			PyErr_Clear();
			return 0;
		}
		Py_DECREF(f);     /* the module keeps it alive */
	}
	res = PyObject_CallObject(f, args);
	if (!res)
		return -1;
	Py_DECREF(res);
	return 0;
}

static int define_field(void *ctx, enum tp_sym_kind kind, const char *field, const char *delim)
{
	struct define_ctx *d = ctx;
	PyObject *a;
	int rc;

	if (kind == TP_SYM_FLAGS)
		a = Py_BuildValue("(sss)", d->event, field, delim);
	else
		a = Py_BuildValue("(ss)", d->event, field);
	if (!a)
		return -1;
	rc = call_define(d->r, kind == TP_SYM_FLAGS ? "define_flag_field" : "define_symbolic_field", a);
	Py_DECREF(a);
	return rc;
}

static int define_value(void *ctx, enum tp_sym_kind kind, const char *field, uint64_t value,
			const char *str)
{
	struct define_ctx *d = ctx;
	PyObject *a = Py_BuildValue("(ssKs)", d->event, field, (unsigned long long)value, str);
	int rc;

	if (!a)
		return -1;
	rc = call_define(d->r, kind == TP_SYM_FLAGS ? "define_flag_value" : "define_symbolic_value", a);
	Py_DECREF(a);
	return rc;
}

/* ---- events ---- */

static int arg_count(PyObject *fn, PyObject **varnames)
{
	PyObject *code = PyObject_GetAttrString(fn, "__code__"), *n;
	long count = -1;

	*varnames = NULL;
	if (!code) {
		PyErr_Clear();
		return -1;
	}
	n = PyObject_GetAttrString(code, "co_argcount");
	if (n) {
		count = PyLong_AsLong(n);
		Py_DECREF(n);
	}
	*varnames = PyObject_GetAttrString(code, "co_varnames");
	Py_DECREF(code);
	PyErr_Clear();
	return (int)count;
}

static struct py_event *event_info(struct engine_run *r, struct tep_event *tp, struct tb_err *err)
{
	struct py_event *e = idtable_slot(&r->evs, tp->id);
	PyObject *varnames;
	int argc;

	if (!e) {
		tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "tracepoint id %d out of range", tp->id);
		return NULL;
	}
	if (e->ready)
		return e;
	if (tp_layout_build(&e->layout, tp)) {
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		return NULL;
	}
	e->name = PyUnicode_InternFromString(e->layout.handler);
	e->handler = PyDict_GetItemString(r->main, e->layout.handler);
	if (e->handler && PyCallable_Check(e->handler)) {
		Py_INCREF(e->handler);
		argc = arg_count(e->handler, &varnames);
		if (argc > 7 && varnames && PyTuple_Check(varnames) &&
		    PyTuple_GET_SIZE(varnames) > 7 &&
		    !PyUnicode_CompareWithASCIIString(PyTuple_GET_ITEM(varnames, 7), "common_callchain"))
			e->callchain = 1;
		else if (argc == 7 + 1 + (int)e->layout.nr)
			e->callchain = 1;
		e->sample_dict = argc == 7 + e->callchain + (int)e->layout.nr + 1;
		Py_XDECREF(varnames);
	} else {
		e->handler = NULL;
	}
	if (7 + 2 + e->layout.nr > r->max_args) {
		PyObject **a = realloc(r->args, (7 + 2 + e->layout.nr) * sizeof(*a));

		if (!a)
			return NULL;
		r->args = a;
		r->max_args = 7 + 2 + e->layout.nr;
	}
	e->ready = 1;
	return e;
}

static PyObject *field_value(const struct tp_field *f, const unsigned char *raw, size_t size)
{
	const unsigned char *p;
	uint64_t v;
	size_t len;

	switch (f->kind) {
	case TP_INT:
		return tp_read_int(f, raw, size, 0, &v) ? Py_NewRef(Py_None) :
			PyLong_FromLongLong((long long)v);
	case TP_UINT:
		return tp_read_int(f, raw, size, 0, &v) ? Py_NewRef(Py_None) :
			PyLong_FromUnsignedLongLong(v);
	case TP_ARRAY: {
		PyObject *list = PyList_New(f->count);

		for (int i = 0; list && i < f->count; i++) {
			PyObject *o = tp_read_int(f, raw, size, i, &v) ? Py_NewRef(Py_None) :
				f->is_signed ? PyLong_FromLongLong((long long)v) :
					       PyLong_FromUnsignedLongLong(v);

			if (!o) {
				Py_DECREF(list);
				return NULL;
			}
			PyList_SET_ITEM(list, i, o);
		}
		return list;
	}
	case TP_STRING:
		if (tp_read_bytes(f, raw, size, &p, &len))
			return Py_NewRef(Py_None);
		if (tp_printable(p, len))
			return PyUnicode_DecodeUTF8((const char *)p, (Py_ssize_t)strnlen((const char *)p, len),
						    "replace");
		return PyByteArray_FromStringAndSize((const char *)p, (Py_ssize_t)len);
	default:
		if (tp_read_bytes(f, raw, size, &p, &len))
			return Py_NewRef(Py_None);
		return PyByteArray_FromStringAndSize((const char *)p, (Py_ssize_t)len);
	}
}

static PyObject *cpu_obj(struct engine_run *r, int cpu)
{
	if (cpu >= 0 && cpu < CPU_CACHE) {
		if (!r->cpus[cpu])
			r->cpus[cpu] = PyLong_FromLong(cpu);
		return Py_XNewRef(r->cpus[cpu]);
	}
	return PyLong_FromLong(cpu);
}

static PyObject *comm_obj(struct engine_run *r, int32_t tid, const char *comm)
{
	struct comm_slot *s = &r->comms[(uint32_t)tid % COMM_CACHE];

	if (s->str && s->tid == tid && s->ptr == comm && !strcmp(PyUnicode_AsUTF8(s->str), comm))
		return Py_NewRef(s->str);
	Py_XDECREF(s->str);
	s->str = PyUnicode_DecodeUTF8(comm, (Py_ssize_t)strlen(comm), "replace");
	s->tid = tid;
	s->ptr = comm;
	return Py_XNewRef(s->str);
}

/* perf's perf_sample_dict, the part tracepoint samples have. */
static PyObject *sample_dict(const struct pd_event *ev, PyObject *callchain)
{
	const struct pd_sample *s = ev->sample;
	PyObject *d = PyDict_New(), *sd = PyDict_New();

	if (!d || !sd) {
		Py_XDECREF(d);
		Py_XDECREF(sd);
		return NULL;
	}
	PyDict_SetItemString(d, "ev_name", PyUnicode_FromString(ev->evsel->name));
	PyDict_SetItemString(d, "comm", PyUnicode_FromString(ev->comm));
	PyDict_SetItemString(sd, "cpu", PyLong_FromLong(s->cpu));
	PyDict_SetItemString(sd, "pid", PyLong_FromLong(s->pid));
	PyDict_SetItemString(sd, "tid", PyLong_FromLong(s->tid));
	PyDict_SetItemString(sd, "time", PyLong_FromUnsignedLongLong(s->time));
	PyDict_SetItemString(sd, "period", PyLong_FromUnsignedLongLong(s->period));
	PyDict_SetItemString(sd, "ip", PyLong_FromUnsignedLongLong(s->ip));
	PyDict_SetItemString(d, "sample", sd);
	Py_DECREF(sd);
	PyDict_SetItemString(d, "callchain", callchain);
	return d;
}

static PyObject *callchain_list(const struct pd_sample *s)
{
	PyObject *l = PyList_New(0);

	for (uint64_t i = 0; l && i < s->nr_callchain; i++) {
		uint64_t ip;
		PyObject *d = PyDict_New(), *v;

		memcpy(&ip, s->callchain + i * 8, 8);
		if (ip >= 0xfffffffffffff000ULL) {   /* context markers */
			Py_XDECREF(d);
			continue;
		}
		v = PyLong_FromUnsignedLongLong(ip);
		if (!d || !v || PyDict_SetItemString(d, "ip", v) || PyList_Append(l, d)) {
			Py_XDECREF(v);
			Py_XDECREF(d);
			Py_DECREF(l);
			return NULL;
		}
		Py_DECREF(v);
		Py_DECREF(d);
	}
	return l;
}

static int unhandled(struct engine_run *r, struct py_event *e, const struct pd_event *ev,
		     PyObject *const *common, PyObject *callchain, struct tb_err *err)
{
	static const char *keys[] = { "common_cpu", "common_s", "common_ns", "common_pid",
				      "common_comm" };
	PyObject *res, *d;

	if (r->unhandled_argc == 7 || r->unhandled_argc == 8) {
		r->args[0] = e->name;
		r->args[1] = r->context;
		for (int i = 0; i < 5; i++)
			r->args[2 + i] = common[i];
		r->args[7] = callchain;
		res = PyObject_Vectorcall(r->unhandled, r->args, (size_t)r->unhandled_argc, NULL);
	} else {
		d = PyDict_New();
		if (!d)
			return TB_ERR_NOMEM;
		for (int i = 0; i < 5; i++)
			PyDict_SetItemString(d, keys[i], common[i]);
		PyDict_SetItemString(d, "common_callchain", callchain);
		for (size_t i = 0; i < e->layout.nr; i++) {
			PyObject *v = field_value(&e->layout.fields[i], ev->sample->raw,
						  ev->sample->raw_size);

			if (!v || PyDict_SetItemString(d, e->layout.fields[i].name, v)) {
				Py_XDECREF(v);
				Py_DECREF(d);
				return script_error(r, err, "%s: converting a field of event %llu",
						    e->layout.handler, ev->index);
			}
			Py_DECREF(v);
		}
		r->args[0] = e->name;
		r->args[1] = r->context;
		r->args[2] = d;
		if (r->unhandled_argc == 4) {
			r->args[3] = sample_dict(ev, callchain);
			res = PyObject_Vectorcall(r->unhandled, r->args, 4, NULL);
			Py_XDECREF(r->args[3]);
		} else {
			res = PyObject_Vectorcall(r->unhandled, r->args, 3, NULL);
		}
		Py_DECREF(d);
	}
	if (!res)
		return script_error(r, err, "trace_unhandled raised on %s, event %llu",
				    e->layout.handler, ev->index);
	Py_DECREF(res);
	return 0;
}

static int py_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	const struct pd_sample *s = ev->sample;
	struct tep_event *tp = ev->evsel->tp;
	struct py_event *e;
	PyObject *common[5], *callchain = NULL, *res;
	size_t n = 0, first_field;
	int rc = 0;

	if (!tp || !s->raw)
		return 0;
	e = event_info(r, tp, err);
	if (!e)
		return err->code ? err->code : TB_ERR_NOMEM;
	if (!e->handler && !r->unhandled)
		return 0;
	r->cur.raw = s->raw;
	r->cur.size = s->raw_size;
	r->cur.off_flags = e->layout.off_flags;
	r->cur.off_preempt = e->layout.off_preempt;
	r->cur.off_lock_depth = e->layout.off_lock_depth;
	common[0] = cpu_obj(r, s->cpu);
	common[1] = PyLong_FromUnsignedLongLong(s->time / 1000000000ULL);
	common[2] = PyLong_FromUnsignedLongLong(s->time % 1000000000ULL);
	/* common_pid is the raw field, as perf passes it */
	common[3] = PyLong_FromLong(tp_common_int(s->raw, s->raw_size, e->layout.off_pid, 4, 1));
	common[4] = comm_obj(r, s->tid, ev->comm);
	if (!e->handler || e->callchain || e->sample_dict)
		callchain = callchain_list(s);
	if (!e->handler) {
		rc = unhandled(r, e, ev, common, callchain, err);
		goto out;
	}
	r->args[n++] = e->name;
	r->args[n++] = r->context;
	for (int i = 0; i < 5; i++)
		r->args[n++] = common[i];
	if (e->callchain)
		r->args[n++] = callchain;
	first_field = n;
	for (size_t i = 0; i < e->layout.nr; i++) {
		PyObject *v = field_value(&e->layout.fields[i], s->raw, s->raw_size);

		if (!v) {
			rc = script_error(r, err, "%s: converting a field of event %llu",
					  e->layout.handler, ev->index);
			goto drop;
		}
		r->args[n++] = v;
	}
	if (e->sample_dict)
		r->args[n++] = sample_dict(ev, callchain);
	res = PyObject_Vectorcall(e->handler, r->args, n, NULL);
	if (!res)
		rc = script_error(r, err, "handler %s raised on event %llu (see the traceback above)",
				  e->layout.handler, ev->index);
	Py_XDECREF(res);
drop:
	for (size_t i = first_field; i < n; i++)
		Py_XDECREF(r->args[i]);
out:
	for (int i = 0; i < 5; i++)
		Py_XDECREF(common[i]);
	Py_XDECREF(callchain);
	return rc;
}

/* ---- start and stop ---- */

static int call_optional(struct engine_run *r, const char *fn, struct tb_err *err)
{
	PyObject *f = PyDict_GetItemString(r->main, fn), *res;

	if (!f || !PyCallable_Check(f))
		return 0;
	res = PyObject_CallNoArgs(f);
	if (!res)
		return script_error(r, err, "%s raised%.0llu (see the traceback above)", fn, 0);
	Py_DECREF(res);
	return 0;
}

/* perf_trace_context.syscall_map: the recording's map, else (a perf
 * recording) the built-in table when the recording's arch is its arch. */
static int set_syscall_map(struct engine_run *r)
{
	const struct pd_header_info *h = pd_session_info(r->st->session);
	const struct syscall_map *map = h->has_syscalls ? &h->syscalls : NULL;
	struct syscall_map builtin = { 0 };
	PyObject *m = PyImport_ImportModule("perf_trace_context"), *d;
	int rc = 0;

	if (!map && h->arch && scmap_from_builtin(&builtin, h->arch, NULL) == 0)
		map = &builtin;

	if (!m)
		return -1;
	d = PyObject_GetAttrString(m, "syscall_map");
	Py_DECREF(m);
	if (!d)
		rc = -1;
	for (uint32_t i = 0; !rc && map && i < map->nr; i++) {
		PyObject *k = PyLong_FromUnsignedLong(map->ents[i].nr);
		PyObject *v = PyUnicode_FromString(map->ents[i].name);

		if (!k || !v || PyDict_SetItem(d, k, v))
			rc = -1;
		Py_XDECREF(k);
		Py_XDECREF(v);
	}
	Py_XDECREF(d);
	if (map == &builtin)
		scmap_free(&builtin);
	return rc;
}

static int py_start(struct engine_run **out, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));
	PyObject *mainmod, *varnames;
	int rc;

	*out = NULL;
	if (!r)
		return TB_ERR_NOMEM;
	r->st = st;
	idtable_init(&r->evs, sizeof(struct py_event));
	*out = r;
	if (setenv("PERF_EXEC_PATH", st->exec_path, 1))
		return TB_ERR_NOMEM;
	if ((rc = start_interpreter(st, err)))
		return rc;
	mainmod = PyImport_AddModule("__main__");
	r->main = mainmod ? PyModule_GetDict(mainmod) : NULL;
	r->context = py_context_capsule(&r->cur);
	if (!r->main || !r->context || set_syscall_map(r))
		return script_error(r, err, "%s: cannot set up the interpreter%.0llu", "python", 0);
	if ((rc = run_script(r, err)))
		return rc;
	r->unhandled = PyDict_GetItemString(r->main, "trace_unhandled");
	if (r->unhandled && PyCallable_Check(r->unhandled)) {
		Py_INCREF(r->unhandled);
		r->unhandled_argc = arg_count(r->unhandled, &varnames);
		Py_XDECREF(varnames);
	} else {
		r->unhandled = NULL;
	}
	for (size_t i = 0; i < pd_session_nr_evsels(st->session); i++) {
		struct tep_event *tp = pd_session_evsel(st->session, i)->tp;
		struct define_ctx d = { r, NULL };
		struct tp_sym_visitor v = { &d, define_field, define_value };
		struct py_event *e;

		if (!tp)
			continue;
		e = event_info(r, tp, err);
		if (!e)
			return err->code ? err->code : TB_ERR_NOMEM;
		d.event = e->layout.handler;
		if (tp_walk_symbols(tp, &v))
			return script_error(r, err, "defining the flag and symbol tables of %s%.0llu",
					    e->layout.handler, 0);
	}
	if (r->max_args < 9) {
		r->args = realloc(r->args, 9 * sizeof(*r->args));
		r->max_args = 9;
		if (!r->args)
			return TB_ERR_NOMEM;
	}
	return call_optional(r, "trace_begin", err);
}

static int py_stop(struct engine_run *r, struct tb_err *err)
{
	int rc = 0;

	if (!r)
		return 0;
	if (r->main && Py_IsInitialized() && !(r->st->exit_status && *r->st->exit_status >= 0))
		rc = call_optional(r, "trace_end", err);
	if (Py_IsInitialized()) {
		for (size_t i = 0; i < r->evs.nr; i++) {
			struct py_event *e = idtable_at(&r->evs, i);

			Py_XDECREF(e->name);
			Py_XDECREF(e->handler);
		}
		for (int i = 0; i < CPU_CACHE; i++)
			Py_XDECREF(r->cpus[i]);
		for (int i = 0; i < COMM_CACHE; i++)
			Py_XDECREF(r->comms[i].str);
		Py_XDECREF(r->unhandled);
		Py_XDECREF(r->context);
		flush_stdout();
		if (Py_FinalizeEx() < 0 && !rc)
			rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "writing the script's output failed");
	}
	for (size_t i = 0; i < r->evs.nr; i++)
		if (((struct py_event *)idtable_at(&r->evs, i))->ready)
			tp_layout_free(&((struct py_event *)idtable_at(&r->evs, i))->layout);
	idtable_free(&r->evs);
	free(r->args);
	free(r);
	return rc;
}

int python_generate(const struct engine_gen *g, struct tb_err *err);

const struct engine_ops python_engine = {
	.name = "Python",
	.alias = "py",
	.ext = ".py",
	.start = py_start,
	.event = py_event,
	.stop = py_stop,
	.generate = python_generate,
};
