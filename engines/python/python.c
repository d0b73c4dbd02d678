/* python.c - the embedded CPython engine: runs a perf-style trace script,
 * calling system__event(event_name, context, common_cpu, common_secs,
 * common_nsecs, common_pid, common_comm, [common_callchain,] fields...)
 * for every sample with one vectorcall of cached argument objects. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_stat.h"
#include "python/python_int.h"

struct python_tracepoint {  /* per tracepoint id */
	struct ec_event ec;       /* its decoder, its handler name "system__event" */
	struct found handler;     /* that name as a str, its function as last found
				   * (handler.fn NULL: trace_unhandled or nothing) */
	int callchain;            /* it is called with common_callchain */
	int sample_dict;          /* and perf's trailing perf_sample_dict */
	PyObject **spare;         /* per field: its array's list, for reuse */
	size_t nr_spare;
};

/* ---- symbol tables: perf's define_* calls ---- */

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

static int define_field(void *ctx, const char *event, enum tp_sym_kind kind, const char *field,
			const char *delim)
{
	PyObject *a;
	int rc;

	if (kind == TP_SYM_FLAGS)
		a = Py_BuildValue("(sss)", event, field, delim);
	else
		a = Py_BuildValue("(ss)", event, field);
	if (!a)
		return -1;
	rc = call_define(ctx, kind == TP_SYM_FLAGS ? "define_flag_field" : "define_symbolic_field", a);
	Py_DECREF(a);
	return rc;
}

static int define_value(void *ctx, const char *event, enum tp_sym_kind kind, const char *field,
			uint64_t value, const char *str)
{
	PyObject *a = Py_BuildValue("(ssKs)", event, field, (unsigned long long)value, str);
	int rc;

	if (!a)
		return -1;
	rc = call_define(ctx, kind == TP_SYM_FLAGS ? "define_flag_value" : "define_symbolic_value", a);
	Py_DECREF(a);
	return rc;
}

static const struct ec_define_ops define_ops = { define_field, define_value };

/* ---- events ---- */

/* A handler's co_argcount, and its eighth parameter's name (NULL if none). */
static int arg_count(PyObject *fn, const char **eighth, PyObject **varnames)
{
	PyObject *code = PyObject_GetAttrString(fn, "__code__"), *n;
	long count = -1;

	*varnames = NULL;
	*eighth = NULL;
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
	if (*varnames && PyTuple_Check(*varnames) && count > 7 && PyTuple_GET_SIZE(*varnames) > 7)
		*eighth = PyUnicode_AsUTF8(PyTuple_GET_ITEM(*varnames, 7));
	PyErr_Clear();
	return (int)count;
}

/*
 * Whether the callable the script's global @f->name holds changed since
 * it was found, or a function's code did (f.__code__ = g.__code__: perf
 * reads the argument count at every call): perf looks each handler up by
 * name for every call, so a script may define, rebind or delete one as it
 * runs. Looked up again only when the module's dict changed since (its
 * version tag, CPython < 3.12); the name is an interned str: its hash is kept.
 */
static int callable_now(struct engine_run *r, struct found *f)
{
	PyObject *fn = f->fn, *code;
	int look = 1;

#if PY_VERSION_HEX < 0x030C0000
	uint64_t version = ((PyDictObject *)r->main)->ma_version_tag;

	look = !f->valid || f->version != version;
	f->version = version;
	f->valid = 1;
#endif
	if (look) {
		fn = PyDict_GetItemWithError(r->main, f->name);
		if (!fn)
			PyErr_Clear();
		else if (!PyCallable_Check(fn))
			fn = NULL;
	}
	code = fn && PyFunction_Check(fn) ? PyFunction_GET_CODE(fn) : NULL;
	if (fn == f->fn && code == f->code)
		return 0;
	Py_XINCREF(fn);
	Py_XINCREF(code);
	Py_XSETREF(f->fn, fn);
	Py_XSETREF(f->code, code);
	return 1;
}

static void found_free(struct found *f)
{
	Py_XDECREF(f->name);
	Py_XDECREF(f->fn);
	Py_XDECREF(f->code);
}

/* @e's handler as it is now, and how it is called (its argument count) */
static PyObject *handler_now(struct engine_run *r, struct python_tracepoint *e)
{
	const char *eighth = NULL;
	PyObject *varnames;

	if (callable_now(r, &e->handler) && e->handler.fn) {
		int argc = arg_count(e->handler.fn, &eighth, &varnames);

		ec_python_form(argc, eighth, e->ec.dec->nr, &e->callchain, &e->sample_dict);
		Py_XDECREF(varnames);
	}
	return e->handler.fn;
}

/* trace_unhandled as it is now, and its argument count */
static PyObject *unhandled_now(struct engine_run *r)
{
	const char *eighth = NULL;
	PyObject *varnames;

	if (callable_now(r, &r->unhandled) && r->unhandled.fn) {
		r->unhandled_argc = arg_count(r->unhandled.fn, &eighth, &varnames);
		Py_XDECREF(varnames);
	}
	return r->unhandled.fn;
}

static struct python_tracepoint *event_info(struct engine_run *r, const struct tp_decoder *dec,
					    struct tb_err *err)
{
	struct python_tracepoint *e = ec_event(&r->core, dec, err);
	size_t need = 7 + 2 + dec->nr;

	if (!e || e->ec.ready)
		return e;
	e->handler.name = PyUnicode_InternFromString(e->ec.name);
	if (!e->handler.name) {
		PyErr_Clear();
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		return NULL;
	}
	e->spare = calloc(dec->nr ? dec->nr : 1, sizeof(*e->spare));
	e->nr_spare = dec->nr;
	if (!e->spare) {
		tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		return NULL;
	}
	if (need > r->max_args) {
		PyObject **a = realloc(r->args, need * sizeof(*a));

		if (!a) {
			tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
			return NULL;
		}
		r->args = a;
		r->max_args = need;
	}
	e->ec.ready = 1;
	return e;
}

static PyObject *python_number(const struct ec_value *v)
{
	if (v->kind == EC_INT)
		return PyLong_FromLongLong((long long)v->num);
	if (v->kind == EC_UINT)
		return PyLong_FromUnsignedLongLong(v->num);
	return Py_NewRef(Py_None);
}

/* A field's value as perf's Python engine passes it: numbers, a list for
 * a fixed array, str for a printable string, else bytearray. */
static PyObject *python_value(const struct ec_value *v)
{
	PyObject *list, *o;
	struct ec_value el;

	switch (v->kind) {
	case EC_STRING:
		if (v->printable)
			return PyUnicode_DecodeUTF8((const char *)v->p, (Py_ssize_t)v->slen, "replace");
		/* fall through */
	case EC_BYTES:
		return PyByteArray_FromStringAndSize((const char *)v->p, (Py_ssize_t)v->len);
	case EC_ARRAY:
		list = PyList_New(v->count);
		for (int i = 0; list && i < v->count; i++) {
			ec_element(v, i, &el);
			if (!(o = python_number(&el))) {
				Py_DECREF(list);
				return NULL;
			}
			PyList_SET_ITEM(list, i, o);
		}
		return list;
	default:
		return python_number(v);
	}
}

static PyObject *field_value(const struct tp_field *f, const unsigned char *raw, size_t size)
{
	struct ec_value v;

	ec_field(f, raw, size, &v);
	return python_value(&v);
}

/* A number field's int: the object an earlier event's equal value made,
 * while kept in @r->nums. ints are immutable: a script tells a shared one
 * from a new one only by identity (`is`), as it does CPython's own small
 * ints; a storm's fields repeat (the same fd, buffer, flags), and each new
 * object cost an allocation, its conversion and its freeing. */
static PyObject *number_of(struct engine_run *r, const struct ec_value *v)
{
	uint64_t h = (v->num ^ (uint64_t)v->kind) * 0x9e3779b97f4a7c15ull;
	struct num_slot *s = &r->nums[h >> 54];      /* NUM_CACHE: 10 bits */
	PyObject *o;

	if (v->kind != EC_INT && v->kind != EC_UINT)
		return python_number(v);
	if (s->obj && s->num == v->num && s->kind == (int)v->kind)
		return Py_NewRef(s->obj);
	if (!(o = python_number(v)))
		return NULL;
	Py_XSETREF(s->obj, Py_NewRef(o));
	s->num = v->num;
	s->kind = (int)v->kind;
	return o;
}

/* A handler's field: an array fills the list of an earlier event when no
 * script kept it (*@spare) */
static PyObject *handler_value(struct engine_run *r, const struct tp_field *f,
			       const unsigned char *raw, size_t size, PyObject **spare)
{
	struct ec_value v, el;
	PyObject *list, *o;

	ec_field(f, raw, size, &v);
	if (v.kind == EC_INT || v.kind == EC_UINT)
		return number_of(r, &v);
	if (v.kind != EC_ARRAY)
		return python_value(&v);
	if (!(list = python_list_take(spare, v.count)))
		return NULL;
	for (int i = 0; i < v.count; i++) {
		ec_element(&v, i, &el);
		if (!(o = number_of(r, &el))) {
			Py_DECREF(list);
			return NULL;
		}
		python_list_put(list, i, o);
	}
	return list;
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

/* common_pid as an int, the same object as for the last event's same pid
 * (ints are immutable: a script cannot tell) */
static PyObject *pid_obj(struct engine_run *r, int pid)
{
	if (!r->pid_obj || r->pid != pid) {
		Py_XSETREF(r->pid_obj, PyLong_FromLong(pid));
		r->pid = pid;
	}
	return Py_XNewRef(r->pid_obj);
}

/* common_secs, the same object while the second lasts */
static PyObject *secs_obj(struct engine_run *r, uint64_t secs)
{
	if (!r->secs_obj || r->secs != secs) {
		Py_XSETREF(r->secs_obj, PyLong_FromUnsignedLongLong(secs));
		r->secs = secs;
	}
	return Py_XNewRef(r->secs_obj);
}

/* trace_unhandled's third argument: every field by name, and the common ones. */
static PyObject *fields_dict(struct python_tracepoint *e, const struct pd_event *ev,
			     PyObject *const *common, PyObject *callchain)
{
	static const char *keys[] = { "common_cpu", "common_s", "common_ns", "common_pid",
				      "common_comm" };
	PyObject *d = PyDict_New();

	for (int i = 0; d && i < 5; i++)
		if (PyDict_SetItemString(d, keys[i], common[i]))
			Py_CLEAR(d);
	if (d && PyDict_SetItemString(d, "common_callchain", callchain))
		Py_CLEAR(d);
	for (size_t i = 0; d && i < e->ec.dec->nr; i++) {
		PyObject *v = field_value(&e->ec.dec->fields[i], ev->sample->raw,
					  ev->sample->raw_size);

		if (!v || PyDict_SetItemString(d, e->ec.dec->fields[i].name, v))
			Py_CLEAR(d);
		Py_XDECREF(v);
	}
	return d;
}

static int unhandled(struct engine_run *r, struct python_tracepoint *e, const struct pd_event *ev,
		     PyObject *const *common, PyObject *callchain, struct tb_err *err)
{
	PyObject *res, *d;
	size_t n = 3;

	r->args[0] = e->handler.name;
	r->args[1] = r->context;
	if (r->unhandled_argc == 7 || r->unhandled_argc == 8) {
		for (int i = 0; i < 5; i++)
			r->args[2 + i] = common[i];
		r->args[7] = callchain;
		res = PyObject_Vectorcall(r->unhandled.fn, r->args, (size_t)r->unhandled_argc, NULL);
	} else {
		d = fields_dict(e, ev, common, callchain);
		if (!d)
			return python_raised(r, err, ev, "trace_unhandled",
					     "converting the fields failed");
		r->args[2] = d;
		if (r->unhandled_argc == 4 &&
		    !(r->args[n++] = python_sample_dict(r, ev, callchain))) {
			Py_DECREF(d);
			return python_raised(r, err, ev, "trace_unhandled",
					     "building perf_sample_dict failed");
		}
		res = PyObject_Vectorcall(r->unhandled.fn, r->args, n, NULL);
		if (n == 4)
			Py_DECREF(r->args[3]);
		Py_DECREF(d);
	}
	if (!res)
		return python_raised(r, err, ev, "trace_unhandled", "raised (traceback above)");
	Py_DECREF(res);
	return 0;
}

/* Call @e's handler: name, context, the common arguments, perhaps the
 * callchain, the fields, perhaps perf_sample_dict. */
static int handle(struct engine_run *r, struct python_tracepoint *e, const struct pd_event *ev,
		  PyObject *const *common, PyObject *callchain, struct tb_err *err)
{
	const struct pd_sample *s = ev->sample;
	const char *who = e->ec.name;
	size_t n = 0, first_field;
	PyObject *res;
	int rc = 0;

	r->args[n++] = e->handler.name;
	r->args[n++] = r->context;
	for (int i = 0; i < 5; i++)
		r->args[n++] = common[i];
	if (e->callchain)
		r->args[n++] = callchain;
	first_field = n;
	for (size_t i = 0; i < e->ec.dec->nr; i++) {
		PyObject *v = handler_value(r, &e->ec.dec->fields[i], s->raw, s->raw_size,
					    &e->spare[i]);

		if (!v) {
			rc = python_raised(r, err, ev, who, "converting a field failed");
			goto drop;
		}
		r->args[n++] = v;
	}
	if (e->sample_dict && !(r->args[n++] = python_sample_dict(r, ev, callchain))) {
		n--;
		rc = python_raised(r, err, ev, who, "building perf_sample_dict failed");
		goto drop;
	}
	res = PyObject_Vectorcall(e->handler.fn, r->args, n, NULL);
	if (!res)
		rc = python_raised(r, err, ev, who, "raised (traceback above)");
	Py_XDECREF(res);
drop:
	for (size_t i = first_field; i < n; i++) {
		if (i - first_field < e->ec.dec->nr && PyList_CheckExact(r->args[i]))
			python_list_keep(&e->spare[i - first_field], r->args[i]);
		else
			Py_XDECREF(r->args[i]);
	}
	return rc;
}

/* A sample of an event that is no tracepoint: process_event(perf_sample_dict),
 * as perf's python_process_general_event. */
static int general_event(struct engine_run *r, const struct pd_event *ev, PyObject *pe,
			 struct tb_err *err)
{
	PyObject *callchain, *d = NULL, *res = NULL;

	ec_current_set(&r->core.cur, ev);
	callchain = python_callchain(r, ev);
	if (callchain)
		d = python_sample_dict(r, ev, callchain);
	Py_XDECREF(callchain);
	if (d) {
		res = PyObject_CallOneArg(pe, d);
		python_frames_settle(r->objs);
		Py_DECREF(d);
	}
	if (!res)
		return python_raised(r, err, ev, "process_event",
				     d ? "raised (traceback above)" :
				     "building perf_sample_dict failed");
	Py_DECREF(res);
	return 0;
}

/* engine_ops.wants: a tracepoint with neither its handler nor
 * trace_unhandled gets nothing from python_event; asked after trace_begin,
 * so a function it defines counts (one a handler defines later for such a
 * tracepoint is not called, where perf would call it) */
int python_wants(struct engine_run *r, const struct pd_evsel *ev)
{
	struct python_tracepoint *e;
	struct tb_err err = { 0 };

	if (ev->type != PD_TYPE_TRACEPOINT || !ev->dec || unhandled_now(r))
		return 1;
	e = event_info(r, ev->dec, &err);
	return !e || handler_now(r, e);
}

static int event_body(struct engine_run *r, const struct pd_event *ev, struct tb_err *err);

int python_event(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	int rc = event_body(r, ev, err);

	ec_current_end(&r->core.cur);
	return rc;
}

static int event_body(struct engine_run *r, const struct pd_event *ev, struct tb_err *err)
{
	struct python_tracepoint *e;
	struct ec_common c;
	PyObject *common[5], *callchain = NULL;
	int rc, wants_chain;

	if (ev->evsel->type != PD_TYPE_TRACEPOINT) {
		callable_now(r, &r->process_event);
		return r->process_event.fn ? general_event(r, ev, r->process_event.fn, err) : 0;
	}
	if (!ev->evsel->dec || !ev->sample->raw)
		return 0;
	e = event_info(r, ev->evsel->dec, err);
	if (!e)
		return err->code ? err->code : TB_ERR_NOMEM;
	if (!handler_now(r, e) && !unhandled_now(r))
		return 0;
	ec_current_set(&r->core.cur, ev);
	ec_common_args(ev, &c);
	common[0] = cpu_obj(r, c.cpu);
	common[1] = secs_obj(r, c.secs);
	common[2] = PyLong_FromUnsignedLongLong(c.nsecs);
	common[3] = pid_obj(r, c.pid);
	common[4] = comm_obj(r, ev->sample->tid, c.comm);
	/* trace_unhandled takes it, and a handler of perf's longer forms */
	wants_chain = !e->handler.fn || e->callchain || e->sample_dict;
	if (wants_chain)
		callchain = ev->sample->nr_callchain ? python_callchain(r, ev) :
						       python_list_take(&r->spare_chain, 0);
	if (!common[0] || !common[1] || !common[2] || !common[3] || !common[4] ||
	    (wants_chain && !callchain))
		rc = python_raised(r, err, ev, e->ec.name, "out of memory");
	else if (e->handler.fn)
		rc = handle(r, e, ev, common, callchain, err);
	else
		rc = unhandled(r, e, ev, common, callchain, err);
	python_frames_settle(r->objs);
	for (int i = 0; i < 5; i++)
		Py_XDECREF(common[i]);
	if (callchain && !ev->sample->nr_callchain)
		python_list_keep(&r->spare_chain, callchain);
	else
		Py_XDECREF(callchain);
	return rc;
}

/* ---- perf stat record data ---- */

/* The script's function @name, or NULL (no error) when it has none. */
static PyObject *main_function(struct engine_run *r, const char *name)
{
	PyObject *f = PyDict_GetItemString(r->main, name);

	return f && PyCallable_Check(f) ? f : NULL;
}

/* stat__EVENT(cpu, thread, time, val, ena, run), EVENT the attr's name
 * with ':' as '_', as perf's process_stat calls it. */
static int stat_call(struct engine_run *r, PyObject *f, const char *name, int cpu, int thread,
		     uint64_t time, const struct pd_stat_counts *v, struct tb_err *err)
{
	PyObject *res = PyObject_CallFunction(f, "iiKKKK", cpu, thread, (unsigned long long)time,
					      (unsigned long long)v->val,
					      (unsigned long long)v->ena,
					      (unsigned long long)v->run);

	if (!res)
		return python_raised(r, err, NULL, name, "raised (traceback above)");
	Py_DECREF(res);
	return 0;
}

int python_stat(struct engine_run *r, const struct pd_stat_round *sr, struct tb_err *err)
{
	const struct pd_stat *st = sr->st;
	PyObject *f, *res;
	char name[256];
	int rc = 0;

	if (!sr->counter) {
		if (!(f = main_function(r, "stat__interval")))
			return 0;
		res = PyObject_CallFunction(f, "K", (unsigned long long)sr->time);
		if (!res)
			return python_raised(r, err, NULL, "stat__interval",
					     "raised (traceback above)");
		Py_DECREF(res);
		return 0;
	}
	snprintf(name, sizeof(name), "stat__%s", sr->counter->evsel->name);
	for (char *p = name; (p = strchr(p, ':')); p++)
		*p = '_';
	if (!(f = main_function(r, name)))
		return 0;
	if (st->aggr_mode == PD_AGGR_GLOBAL)
		return stat_call(r, f, name, -1, -1, sr->time, &sr->counter->aggr, err);
	for (size_t t = 0; !rc && t < st->nr_threads; t++)
		for (size_t i = 0; !rc && i < st->nr_cpus; i++)
			rc = stat_call(r, f, name, st->cpus[i], st->threads[t], sr->time,
				       pd_stat_counts_at(st, sr->counter, i, t), err);
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
		return python_raised(r, err, NULL, fn, "raised (traceback above)");
	Py_DECREF(res);
	return 0;
}


int python_start(struct engine_run **out, const struct engine_start *st, struct tb_err *err)
{
	struct engine_run *r = calloc(1, sizeof(*r));
	PyObject *mainmod;
	int rc;

	*out = r;
	if (!r)
		return TB_ERR_NOMEM;
	if ((rc = ec_run_init(&r->core, st, "__", sizeof(struct python_tracepoint), err)))
		return rc;
	r->syms = pd_session_symbols(st->session);
	r->args = calloc(9, sizeof(*r->args));
	r->max_args = 9;
	if (!r->args)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	if ((rc = python_interpreter_start(st, err)))
		return rc;
	mainmod = PyImport_AddModule("__main__");
	r->main = mainmod ? PyModule_GetDict(mainmod) : NULL;
	r->context = python_context_capsule(&r->core.cur);
	r->objs = python_objs_new();
	r->unhandled.name = PyUnicode_InternFromString("trace_unhandled");
	r->process_event.name = PyUnicode_InternFromString("process_event");
	if (!r->main || !r->context || !r->objs || !r->unhandled.name || !r->process_event.name ||
	    python_set_syscall_map(r) || python_define_quitters() ||
	    (python_stdout_unbuffered() && python_print_install()))
		return python_raised(r, err, NULL, "python", "cannot set up the interpreter");
	if ((rc = python_run_script(r, err)))
		return rc;
	if (python_context_publish(r->main, r->context))
		return python_raised(r, err, NULL, "python", "cannot set perf_script_context");
	if (ec_walk_defines(st->session, &r->core.names, &define_ops, r))
		return python_raised(r, err, NULL, "define_*",
				     "defining the flag and symbol tables failed");
	if ((rc = call_optional(r, "trace_begin", err)))
		return rc;
	python_threads_settle();
	return 0;
}

int python_stop(struct engine_run *r, struct tb_err *err)
{
	int rc = 0;

	if (r->main && Py_IsInitialized() && !(r->core.st->exit_status && *r->core.st->exit_status >= 0))
		rc = call_optional(r, "trace_end", err);
	if (Py_IsInitialized()) {
		for (size_t i = 0; i < r->core.evs.nr; i++) {
			struct python_tracepoint *e = idtable_at(&r->core.evs, i);

			found_free(&e->handler);
			for (size_t f = 0; e->spare && f < e->nr_spare; f++)
				Py_XDECREF(e->spare[f]);
			free(e->spare);
		}
		for (int i = 0; i < CPU_CACHE; i++)
			Py_XDECREF(r->cpus[i]);
		for (int i = 0; i < COMM_CACHE; i++) {
			Py_XDECREF(r->comms[i].str);
		}
		for (int i = 0; i < NUM_CACHE; i++)
			Py_XDECREF(r->nums[i].obj);
		Py_XDECREF(r->secs_obj);
		Py_XDECREF(r->pid_obj);
		Py_XDECREF(r->spare_chain);
		found_free(&r->unhandled);
		found_free(&r->process_event);
		Py_XDECREF(r->context);
		python_objs_free(r->objs);
		if (python_interpreter_stop() < 0 && !rc)
			rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "writing the script's output failed");
	}
	ec_run_free(&r->core);
	free(r->args);
	free(r);
	return rc;
}
