/* python_sample.c - perf's perf_sample_dict and callchain list for Python
 * scripts: what trace-event-python.c's get_perf_sample_dict and
 * python_process_callchain fill, key for key and in perf's order. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include "perfdata/pd_sample_text.h"
#include "python/python_int.h"

/* @d[@key] = @v, releasing @v; 0, or -1 with the exception set. */
static int set(PyObject *d, PyObject *key, PyObject *v)
{
	int rc = v ? PyDict_SetItem(d, key, v) : -1;

	Py_XDECREF(v);
	return rc;
}

static PyObject *u64(uint64_t v)
{
	return PyLong_FromUnsignedLongLong(v);
}

PyObject *python_callchain(struct engine_run *r, const struct pd_event *ev)
{
	struct sym_machine *m = r->syms;
	PyObject *list = PyList_New(0), *d;
	struct ec_chain c;
	struct sym_loc l;
	uint64_t ip;
	int rc;

	if (!list || !ev->sample->nr_callchain)
		return list;
	ec_chain_begin(&c, ev, ec_max_stack());
	while ((rc = ec_chain_frame(&c, m, ev, &ip, &l)) != 0) {
		if (rc < 0) {
			PyErr_NoMemory();
			goto fail;
		}
		/* sym_machine_resolve's names stay; an unwound chain's inline ones do not */
		d = python_frame(r->objs, ip, &l, !c.unwound);
		if (!d || PyList_Append(list, d)) {
			Py_XDECREF(d);
			goto fail;
		}
		Py_DECREF(d);
	}
	return list;
fail:
	Py_DECREF(list);
	return NULL;
}

/* perf's set_sym_in_dict: the map's dso, build-id, start and end, then the
 * symbol and its offset, each under its own key (@k: the first of six). */
static int sym_keys(struct python_objs *o, PyObject *d, const struct sym_loc *l,
		    enum python_key k)
{
	PyObject *const *key = python_keys(o) + k;

	if (l->have_map) {
		if (set(d, key[0], python_cstr_kept(o, l->dso)) || set(d, key[1], python_build_id(o, l)) ||
		    set(d, key[2], u64(l->map_start)) || set(d, key[3], u64(ec_map_end(l))))
			return -1;
	}
	if (l->sym && (set(d, key[4], python_cstr_kept(o, l->sym)) || set(d, key[5], u64(l->symoff))))
		return -1;
	return 0;
}

/* sample["values"]: (id, value, lost) per counter read with the sample. */
static PyObject *read_values(const struct pd_event *ev, uint64_t read_format)
{
	const struct pd_sample *s = ev->sample;
	uint64_t nr = s->read_values ? s->read_nr : 1;
	PyObject *list = PyList_New((Py_ssize_t)nr), *t;

	for (uint64_t i = 0; list && i < nr; i++) {
		uint64_t v = s->read_value, id = s->read_id, lost = s->read_lost;

		if (s->read_values) {
			const unsigned char *p = s->read_values + i * s->read_value_size;

			memcpy(&v, p, 8);
			id = lost = 0;
			if (s->read_value_size >= 16)
				memcpy(&id, p + 8, 8);
			if (s->read_value_size >= 24)
				memcpy(&lost, p + 16, 8);
		}
		/* perf leaves the third slot empty without PERF_FORMAT_LOST: None */
		t = PyTuple_New(3);
		if (t) {
			PyTuple_SET_ITEM(t, 0, u64(id));
			PyTuple_SET_ITEM(t, 1, u64(v));
			PyTuple_SET_ITEM(t, 2, read_format & (1ULL << 4) ? u64(lost) :
					 Py_NewRef(Py_None));
			if (!PyTuple_GET_ITEM(t, 0) || !PyTuple_GET_ITEM(t, 1) ||
			    !PyTuple_GET_ITEM(t, 2))
				Py_CLEAR(t);
		}
		if (!t) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, t);
	}
	return list;
}

static PyObject *brstack(struct engine_run *r, const struct pd_event *ev, int with_syms)
{
	const struct pd_sample *s = ev->sample;
	uint16_t mode = ec_cpumode(ev);
	PyObject *list = PyList_New(0), *d, *const *k = python_keys(r->objs);
	struct python_objs *o = r->objs;
	struct ec_branch b;
	struct sym_loc from, to;
	char f[512], t[512];

	for (uint64_t i = 0; list && s->branches && i < s->nr_branches; i++) {
		ec_branch(s, i, &b);
		if (ec_resolve(r->syms, ev, mode, b.from, 1, &from) ||
		    ec_resolve(r->syms, ev, mode, b.to, 1, &to)) {
			PyErr_NoMemory();
			goto fail;
		}
		d = PyDict_New();
		if (!d)
			goto fail;
		if (with_syms) {
			ec_symoff(&from, f, sizeof(f));
			ec_symoff(&to, t, sizeof(t));
			if (set(d, k[PK_FROM], python_cstr(o, f)) || set(d, k[PK_TO], python_cstr(o, t)) ||
			    set(d, k[PK_PRED], python_cstr(o, b.mispred ? "M" : b.predicted ? "P" : "-")) ||
			    set(d, k[PK_IN_TX], python_cstr(o, b.in_tx ? "X" : "-")) ||
			    set(d, k[PK_ABORT], python_cstr(o, b.abort ? "A" : "-")))
				goto fail_d;
		} else if (set(d, k[PK_FROM], u64(b.from)) || set(d, k[PK_TO], u64(b.to)) ||
			   set(d, k[PK_MISPRED], PyBool_FromLong(b.mispred)) ||
			   set(d, k[PK_PREDICTED], PyBool_FromLong(b.predicted)) ||
			   set(d, k[PK_IN_TX], PyBool_FromLong(b.in_tx)) ||
			   set(d, k[PK_ABORT], PyBool_FromLong(b.abort)) ||
			   set(d, k[PK_CYCLES], u64(b.cycles)) ||
			   set(d, k[PK_FROM_DSONAME],
			       python_cstr(o, from.have_map ? from.dso : "[unknown]")) ||
			   set(d, k[PK_TO_DSONAME], python_cstr(o, to.have_map ? to.dso : "[unknown]"))) {
			goto fail_d;
		}
		if (PyList_Append(list, d))
			goto fail_d;
		Py_DECREF(d);
		continue;
fail_d:
		Py_DECREF(d);
		goto fail;
	}
	return list;
fail:
	Py_XDECREF(list);
	return NULL;
}

/* perf_sample_dict["sample"]: the sample's own numbers, as perf sets them
 * (cpumode and the addr's symbol come later) */
static PyObject *sample_numbers(struct engine_run *r, const struct pd_event *ev,
				uint64_t read_format, uint64_t data_src)
{
	const struct pd_sample *s = ev->sample;
	const struct pd_evsel *e = ev->evsel;
	PyObject *sd = _PyDict_NewPresized(24), *const *k = python_keys(r->objs);

	if (!sd ||
	    /* perf's pid, tid and cpu are u32: -1 reads 4294967295 */
	    set(sd, k[PK_PID], PyLong_FromUnsignedLong((uint32_t)s->pid)) ||
	    set(sd, k[PK_TID], PyLong_FromUnsignedLong((uint32_t)s->tid)) ||
	    set(sd, k[PK_CPU], PyLong_FromUnsignedLong((uint32_t)s->cpu)) ||
	    set(sd, k[PK_IP], u64(s->ip)) ||
	    set(sd, k[PK_TIME], u64(e->sample_type & PD_S_TIME ? s->time : UINT64_MAX)) ||
	    set(sd, k[PK_PERIOD], u64(s->period)) ||
	    set(sd, k[PK_PHYS_ADDR], u64(s->phys_addr)) ||
	    set(sd, k[PK_ADDR], u64(s->addr)) ||
	    ((read_format & 1) && set(sd, k[PK_TIME_ENABLED], u64(s->time_enabled))) ||
	    ((read_format & 2) && set(sd, k[PK_TIME_RUNNING], u64(s->time_running))) ||
	    set(sd, k[PK_VALUES], read_values(ev, read_format)) ||
	    set(sd, k[PK_WEIGHT], u64(s->weight)) ||
	    set(sd, k[PK_TRANSACTION], u64(s->transaction)) ||
	    set(sd, k[PK_DATASRC], u64(data_src)) ||
	    set(sd, k[PK_DATASRC_DECODE], python_datasrc(r->objs, data_src))) {
		Py_XDECREF(sd);
		return NULL;
	}
	return sd;
}

PyObject *python_sample_dict(struct engine_run *r, const struct pd_event *ev, PyObject *callchain)
{
	const struct pd_sample *s = ev->sample;
	const struct pd_evsel *e = ev->evsel;
	struct python_objs *o = r->objs;
	uint64_t read_format, data_src = ec_data_src(e, s);
	PyObject *d = _PyDict_NewPresized(16), *sd = NULL, *const *k = python_keys(o);
	struct sym_loc al, addr_al;
	char text[2048];

	memcpy(&read_format, e->raw + 32, 8);
	if (!d)
		goto fail;
	if (ec_resolve(r->syms, ev, ec_cpumode(ev), s->ip, 0, &al)) {
		PyErr_NoMemory();
		goto fail;
	}
	if (set(d, k[PK_EV_NAME], python_cstr_kept(o, e->name)) ||
	    set(d, k[PK_ATTR], python_attr(o, e->raw)) ||
	    !(sd = sample_numbers(r, ev, read_format, data_src)) ||
	    PyDict_SetItem(d, k[PK_SAMPLE], sd) ||
	    set(d, k[PK_RAW_BUF], PyBytes_FromStringAndSize((const char *)s->raw,
							     s->raw ? (Py_ssize_t)s->raw_size : 0)) ||
	    set(d, k[PK_COMM], python_cstr(o, ev->comm)) ||
	    sym_keys(o, d, &al, PK_DSO) ||
	    PyDict_SetItem(d, k[PK_CALLCHAIN], callchain) ||
	    set(d, k[PK_BRSTACK], brstack(r, ev, 0)) ||
	    set(d, k[PK_BRSTACKSYM], brstack(r, ev, 1)) ||
	    set(sd, k[PK_CPUMODE], PyLong_FromLong(ec_cpumode(ev))))
		goto fail;
	if (ec_addr_correlates_sym(e)) {
		if (ec_resolve(r->syms, ev, ec_cpumode(ev), s->addr, 1, &addr_al)) {
			PyErr_NoMemory();
			goto fail;
		}
		if (set(sd, k[PK_ADDR_CORRELATES_SYM], PyBool_FromLong(1)) ||
		    sym_keys(o, sd, &addr_al, PK_ADDR_DSO))
			goto fail;
	}
	ec_regs(e, s, 1, text, sizeof(text));
	if (set(d, k[PK_IREGS], python_cstr(o, text)))
		goto fail;
	ec_regs(e, s, 0, text, sizeof(text));
	if (set(d, k[PK_UREGS], python_cstr(o, text)))
		goto fail;
	Py_DECREF(sd);
	return d;
fail:
	Py_XDECREF(d);
	Py_XDECREF(sd);
	return NULL;
}
