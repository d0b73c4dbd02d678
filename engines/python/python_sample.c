/* python_sample.c - perf's perf_sample_dict and callchain list for Python
 * scripts: what trace-event-python.c's get_perf_sample_dict and
 * python_process_callchain fill, key for key and in perf's order. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <string.h>
#include "perfdata/pd_sample_text.h"
#include "python/python_int.h"

/* @d[@key] = @v, releasing @v; 0, or -1 with the exception set. */
static int set(PyObject *d, const char *key, PyObject *v)
{
	int rc = v ? PyDict_SetItemString(d, key, v) : -1;

	Py_XDECREF(v);
	return rc;
}

static PyObject *str(const char *s)
{
	return PyUnicode_DecodeUTF8(s, (Py_ssize_t)strlen(s), "replace");
}

static PyObject *u64(uint64_t v)
{
	return PyLong_FromUnsignedLongLong(v);
}

/* One resolved callchain entry: ip, sym {start, end, binding, name},
 * sym_off, dso, as perf adds them. */
static PyObject *frame(uint64_t ip, const struct sym_loc *l)
{
	PyObject *d = PyDict_New(), *sym;

	if (!d || set(d, "ip", u64(ip)))
		goto fail;
	if (l->sym) {
		sym = PyDict_New();
		if (!sym || set(sym, "start", u64(l->sym_start)) || set(sym, "end", u64(l->sym_end)) ||
		    set(sym, "binding", PyLong_FromLong(ec_sym_binding(l))) ||
		    set(sym, "name", str(l->sym)) || set(d, "sym", sym))
			goto fail;
		if (l->have_map && set(d, "sym_off", u64(l->symoff)))
			goto fail;
	}
	if (l->have_map && set(d, "dso", str(l->dso)))
		goto fail;
	return d;
fail:
	Py_XDECREF(d);
	return NULL;
}

PyObject *python_callchain(const struct pd_event *ev, struct sym_machine *m)
{
	PyObject *list = PyList_New(0), *d;
	struct ec_chain c;
	struct sym_loc l;
	uint64_t ip;
	int r;

	if (!list || !ev->sample->nr_callchain)
		return list;
	ec_chain_begin(&c, ev, ec_max_stack());
	while ((r = ec_chain_frame(&c, m, ev, &ip, &l)) != 0) {
		if (r < 0) {
			PyErr_NoMemory();
			goto fail;
		}
		d = frame(ip, &l);
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
 * symbol and its offset, each under its own key. */
static int sym_keys(PyObject *d, const struct sym_loc *l, const char *const k[6])
{
	char bid[2 * 20 + 1];

	if (l->have_map) {
		ec_build_id_hex(l, bid, sizeof(bid));
		if (set(d, k[0], str(l->dso)) || set(d, k[1], str(bid)) ||
		    set(d, k[2], u64(l->map_start)) || set(d, k[3], u64(ec_map_end(l))))
			return -1;
	}
	if (l->sym && (set(d, k[4], str(l->sym)) || set(d, k[5], u64(l->symoff))))
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
		t = Py_BuildValue("(KKN)", (unsigned long long)id, (unsigned long long)v,
				  read_format & (1ULL << 4) ? u64(lost) : Py_NewRef(Py_None));
		if (!t) {
			Py_CLEAR(list);
			break;
		}
		PyList_SET_ITEM(list, (Py_ssize_t)i, t);
	}
	return list;
}

static PyObject *brstack(const struct pd_event *ev, struct sym_machine *m, int with_syms)
{
	const struct pd_sample *s = ev->sample;
	uint16_t mode = ec_cpumode(ev);
	PyObject *list = PyList_New(0), *d;
	struct ec_branch b;
	struct sym_loc from, to;
	char f[512], t[512];

	for (uint64_t i = 0; list && s->branches && i < s->nr_branches; i++) {
		ec_branch(s, i, &b);
		if (ec_resolve(m, ev, mode, b.from, 1, &from) ||
		    ec_resolve(m, ev, mode, b.to, 1, &to)) {
			PyErr_NoMemory();
			goto fail;
		}
		d = PyDict_New();
		if (!d)
			goto fail;
		if (with_syms) {
			ec_symoff(&from, f, sizeof(f));
			ec_symoff(&to, t, sizeof(t));
			if (set(d, "from", str(f)) || set(d, "to", str(t)) ||
			    set(d, "pred", str(b.mispred ? "M" : b.predicted ? "P" : "-")) ||
			    set(d, "in_tx", str(b.in_tx ? "X" : "-")) ||
			    set(d, "abort", str(b.abort ? "A" : "-")))
				goto fail_d;
		} else if (set(d, "from", u64(b.from)) || set(d, "to", u64(b.to)) ||
			   set(d, "mispred", PyBool_FromLong(b.mispred)) ||
			   set(d, "predicted", PyBool_FromLong(b.predicted)) ||
			   set(d, "in_tx", PyBool_FromLong(b.in_tx)) ||
			   set(d, "abort", PyBool_FromLong(b.abort)) ||
			   set(d, "cycles", u64(b.cycles)) ||
			   set(d, "from_dsoname", str(from.have_map ? from.dso : "[unknown]")) ||
			   set(d, "to_dsoname", str(to.have_map ? to.dso : "[unknown]"))) {
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

static const char *const sym_names[6] = {
	"dso", "dso_bid", "dso_map_start", "dso_map_end", "symbol", "symoff"
};
static const char *const addr_names[6] = {
	"addr_dso", "addr_dso_bid", "addr_dso_map_start", "addr_dso_map_end", "addr_symbol",
	"addr_symoff"
};

PyObject *python_sample_dict(const struct pd_event *ev, struct sym_machine *m, PyObject *callchain)
{
	const struct pd_sample *s = ev->sample;
	const struct pd_evsel *e = ev->evsel;
	uint64_t read_format, data_src = ec_data_src(e, s);
	PyObject *d = PyDict_New(), *sd = PyDict_New();
	struct sym_loc al, addr_al;
	char text[2048];

	memcpy(&read_format, e->raw + 32, 8);
	if (!d || !sd)
		goto fail;
	if (ec_resolve(m, ev, ec_cpumode(ev), s->ip, 0, &al)) {
		PyErr_NoMemory();
		goto fail;
	}
	if (set(d, "ev_name", str(e->name)) ||
	    set(d, "attr", PyBytes_FromStringAndSize((const char *)e->raw, 128)) ||
	    /* perf's pid, tid and cpu are u32: -1 reads 4294967295 */
	    set(sd, "pid", PyLong_FromUnsignedLong((uint32_t)s->pid)) ||
	    set(sd, "tid", PyLong_FromUnsignedLong((uint32_t)s->tid)) ||
	    set(sd, "cpu", PyLong_FromUnsignedLong((uint32_t)s->cpu)) ||
	    set(sd, "ip", u64(s->ip)) ||
	    set(sd, "time", u64(e->sample_type & PD_S_TIME ? s->time : UINT64_MAX)) ||
	    set(sd, "period", u64(s->period)) ||
	    set(sd, "phys_addr", u64(s->phys_addr)) ||
	    set(sd, "addr", u64(s->addr)))
		goto fail;
	if ((read_format & 1) && set(sd, "time_enabled", u64(s->time_enabled)))
		goto fail;
	if ((read_format & 2) && set(sd, "time_running", u64(s->time_running)))
		goto fail;
	pd_data_src_text(data_src, text, 100);
	if (set(sd, "values", read_values(ev, read_format)) ||
	    set(sd, "weight", u64(s->weight)) ||
	    set(sd, "transaction", u64(s->transaction)) ||
	    set(sd, "datasrc", u64(data_src)) ||
	    set(sd, "datasrc_decode", str(text)) ||
	    PyDict_SetItemString(d, "sample", sd) ||
	    set(d, "raw_buf", PyBytes_FromStringAndSize((const char *)s->raw,
							 s->raw ? (Py_ssize_t)s->raw_size : 0)) ||
	    set(d, "comm", str(ev->comm)) ||
	    sym_keys(d, &al, sym_names) ||
	    PyDict_SetItemString(d, "callchain", callchain) ||
	    set(d, "brstack", brstack(ev, m, 0)) ||
	    set(d, "brstacksym", brstack(ev, m, 1)) ||
	    set(sd, "cpumode", PyLong_FromLong(ec_cpumode(ev))))
		goto fail;
	if (ec_addr_correlates_sym(e)) {
		if (ec_resolve(m, ev, ec_cpumode(ev), s->addr, 1, &addr_al)) {
			PyErr_NoMemory();
			goto fail;
		}
		if (set(sd, "addr_correlates_sym", PyBool_FromLong(1)) ||
		    sym_keys(sd, &addr_al, addr_names))
			goto fail;
	}
	ec_regs(e, s, 1, text, sizeof(text));
	if (set(d, "iregs", str(text)))
		goto fail;
	ec_regs(e, s, 0, text, sizeof(text));
	if (set(d, "uregs", str(text)))
		goto fail;
	Py_DECREF(sd);
	return d;
fail:
	Py_XDECREF(d);
	Py_XDECREF(sd);
	return NULL;
}
