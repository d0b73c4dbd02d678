/* python_objs.c - the objects the Python engine keeps between samples:
 * perf_sample_dict's keys as interned str, and a str per text lately met
 * (symbol and DSO names by their address, build-ids, comms); and each
 * callchain frame's dicts, built with them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_sample_text.h"
#include "python/python_int.h"

#define STR_SLOTS   4096          /* direct-mapped, by the text's hash */
#define PTR_BITS    13            /* 8,192 slots, direct-mapped, by the text's address */
#define PTR_SLOTS   (1 << PTR_BITS)
#define FRAME_BITS  10            /* 1,024 callchain entries kept, direct-mapped, by address */

struct str_slot {
	uint64_t hash;            /* of the text; for ptrs[], its address */
	PyObject *str;
};

/* what a callchain entry is built from: all it holds */
struct frame_key {
	uint64_t ip, sym_start, sym_end, symoff;
	const char *sym, *dso;    /* kept: they stay until the run ends */
	int have_map, binding;
};

/* a callchain entry built for an address */
struct frame_slot {
	struct frame_key key;
	PyObject *frame;          /* the entry, or NULL */
	PyObject *sym_dict;       /* its "sym" (the entry holds it), or NULL */
	uint64_t frame_ver, sym_ver;   /* the two dicts' versions as built */
};

struct python_objs {
	PyObject *keys[PK_NR];
	PyObject *attr;           /* the last attr bytes handed out */
	uint64_t data_src;        /* and the last datasrc_decode, of this data_src */
	PyObject *data_src_text;
	struct str_slot strs[STR_SLOTS];
	struct str_slot ptrs[PTR_SLOTS];
	struct frame_slot *frames;    /* FRAME_BITS slots, made at the first entry */
	uint16_t touched[256];        /* the slots this sample's entries came from */
	size_t nr_touched;            /* > 256: look at every slot */
};

#define PYTHON_KEY_NAME(e, s) s,
static const char *const key_names[PK_NR] = { PYTHON_KEYS(PYTHON_KEY_NAME) };

struct python_objs *python_objs_new(void)
{
	struct python_objs *o = calloc(1, sizeof(*o));

	if (!o) {
		PyErr_NoMemory();
		return NULL;
	}
	for (int i = 0; i < PK_NR; i++) {
		o->keys[i] = PyUnicode_InternFromString(key_names[i]);
		if (!o->keys[i]) {
			python_objs_free(o);
			return NULL;
		}
	}
	return o;
}

void python_objs_free(struct python_objs *o)
{
	if (!o)
		return;
	for (int i = 0; i < PK_NR; i++)
		Py_XDECREF(o->keys[i]);
	Py_XDECREF(o->attr);
	Py_XDECREF(o->data_src_text);
	for (int i = 0; i < STR_SLOTS; i++)
		Py_XDECREF(o->strs[i].str);
	for (int i = 0; i < PTR_SLOTS; i++)
		Py_XDECREF(o->ptrs[i].str);
	for (int i = 0; o->frames && i < 1 << FRAME_BITS; i++)
		Py_XDECREF(o->frames[i].frame);
	free(o->frames);
	free(o);
}

PyObject *const *python_keys(const struct python_objs *o)
{
	return o->keys;
}

PyObject *python_attr(struct python_objs *o, const unsigned char raw[128])
{
	if (o->attr && !memcmp(PyBytes_AS_STRING(o->attr), raw, 128))
		return Py_NewRef(o->attr);
	Py_XSETREF(o->attr, PyBytes_FromStringAndSize((const char *)raw, 128));
	return Py_XNewRef(o->attr);
}

PyObject *python_datasrc(struct python_objs *o, uint64_t data_src)
{
	char text[100];

	if (o->data_src_text && o->data_src == data_src)
		return Py_NewRef(o->data_src_text);
	pd_data_src_text(data_src, text, sizeof(text));
	Py_XSETREF(o->data_src_text, python_cstr(o, text));
	o->data_src = data_src;
	return Py_XNewRef(o->data_src_text);
}

/* @str holds @s's text exactly (not so when bad UTF-8 was replaced) */
static int same_text(PyObject *str, const char *s)
{
	const char *t = PyUnicode_AsUTF8(str);

	if (!t) {
		PyErr_Clear();
		return 0;
	}
	return !strcmp(t, s);
}

PyObject *python_cstr(struct python_objs *o, const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;    /* FNV-1a */
	struct str_slot *slot;
	size_t n = 0;
	PyObject *str;

	for (; s[n]; n++)
		h = (h ^ (unsigned char)s[n]) * 0x100000001b3ULL;
	if (!n)
		return PyUnicode_FromStringAndSize("", 0);
	slot = &o->strs[h & (STR_SLOTS - 1)];
	if (slot->str && slot->hash == h && same_text(slot->str, s))
		return Py_NewRef(slot->str);
	str = PyUnicode_DecodeUTF8(s, (Py_ssize_t)n, "replace");
	if (!str)
		return NULL;
	Py_XSETREF(slot->str, Py_NewRef(str));
	slot->hash = h;
	return str;
}

/* The slot for what is made of the bytes at @p, which stay until the run
 * ends; NULL when it has something else */
static struct str_slot *kept_slot(struct python_objs *o, const void *p, struct str_slot **slot)
{
	uint64_t h = (uint64_t)(uintptr_t)p;

	*slot = &o->ptrs[(h * 0x9e3779b97f4a7c15ULL) >> (64 - PTR_BITS)];
	if ((*slot)->str && (*slot)->hash == h)
		return *slot;
	Py_CLEAR((*slot)->str);
	(*slot)->hash = h;
	return NULL;
}

PyObject *python_cstr_kept(struct python_objs *o, const char *s)
{
	struct str_slot *slot;

	if (!kept_slot(o, s, &slot))
		slot->str = python_cstr(o, s);
	return Py_XNewRef(slot->str);
}

PyObject *python_build_id(struct python_objs *o, const struct sym_loc *l)
{
	struct str_slot *slot;
	char bid[2 * 20 + 1];

	if (!l->build_id || !l->build_id_len)
		return PyUnicode_FromStringAndSize("", 0);
	if (!kept_slot(o, l->build_id, &slot)) {
		ec_build_id_hex(l, bid, sizeof(bid));
		slot->str = python_cstr(o, bid);
	}
	return Py_XNewRef(slot->str);
}

/* @d[@k] = @v, releasing @v; 0, or -1 with the exception set */
static int put(PyObject *d, PyObject *k, PyObject *v)
{
	int rc = v ? PyDict_SetItem(d, k, v) : -1;

	Py_XDECREF(v);
	return rc;
}

/*
 * A sample's frames, as perf builds them: new dicts a script may change,
 * keep or share. Copies of dicts built once per distinct frame (PyDict_Copy
 * of a template, 16,384 kept in a two-way table, 86% hits) took fewer
 * instructions (callgrind, stackcollapse.py on the report-stacks profile:
 * 50k a sample against 54k) but more time (user CPU 1.22 s against 0.91 s;
 * 1,024 kept: 1.10 s): the templates and their values, spread over some
 * 10 MB, miss the caches on every copy and reference count, where fresh
 * objects come from warm free lists. Copies of just the "sym" dict, one
 * kept per symbol (4,096 direct-mapped by name, start and end; 95% hits),
 * did the same: 7% fewer instructions, 5% more CPU time (0.61 s against
 * 0.58 s, a 120k-sample profile): a copy's key table comes from malloc.
 * What python_frame hands out again instead is the entry itself (below).
 */
static PyObject *sym_dict(struct python_objs *o, const struct sym_loc *l, int kept)
{
	PyObject **k = o->keys, *sym = PyDict_New();

	if (sym && (put(sym, k[PK_START], PyLong_FromUnsignedLongLong(l->sym_start)) ||
		    put(sym, k[PK_END], PyLong_FromUnsignedLongLong(l->sym_end)) ||
		    put(sym, k[PK_BINDING], PyLong_FromLong(ec_sym_binding(l))) ||
		    put(sym, k[PK_NAME], kept ? python_cstr_kept(o, l->sym) : python_cstr(o, l->sym))))
		Py_CLEAR(sym);
	return sym;
}

static PyObject *frame_new(struct python_objs *o, uint64_t ip, const struct sym_loc *l, int kept)
{
	PyObject **k = o->keys, *d = PyDict_New();

	if (!d || put(d, k[PK_IP], PyLong_FromUnsignedLongLong(ip)))
		goto fail;
	if (l->sym) {
		if (put(d, k[PK_SYM], sym_dict(o, l, kept)))
			goto fail;
		if (l->have_map && put(d, k[PK_SYM_OFF], PyLong_FromUnsignedLongLong(l->symoff)))
			goto fail;
	}
	if (l->have_map && put(d, k[PK_DSO], python_cstr_kept(o, l->dso)))
		goto fail;
	return d;
fail:
	Py_XDECREF(d);
	return NULL;
}

/*
 * An entry kept per address is handed out again, the same object, when no
 * script can tell it from a new one: built from the same resolution, held
 * by nothing but this table (the last sample's list is gone: a script that
 * kept it, the entry or its "sym" holds a reference), and changed by no
 * one (a dict's version tag moves with every change to it: PEP 509, in
 * CPython 3.11's PyDictObject). Anything else builds a new entry, which
 * takes the slot. stackcollapse.py on the report-stacks profile: the
 * entries' building and freeing were 40% of the run's instructions.
 */
#if PY_VERSION_HEX < 0x030C0000
#define DICT_VERSION(d) (((PyDictObject *)(d))->ma_version_tag)

/* The slot's entry and its "sym" are as built, the entry held at most
 * @refs times and its "sym" by the entry alone (the entry first: while it
 * is unchanged, it still holds its "sym") */
static int as_built(const struct frame_slot *s, Py_ssize_t refs)
{
	if (Py_REFCNT(s->frame) > refs || DICT_VERSION(s->frame) != s->frame_ver)
		return 0;
	return !s->sym_dict ||
	       (Py_REFCNT(s->sym_dict) == 1 && DICT_VERSION(s->sym_dict) == s->sym_ver);
}

static void slot_take(struct frame_slot *s, const struct frame_key *k, PyObject *d,
		      PyObject *sym_key)
{
	Py_XSETREF(s->frame, Py_NewRef(d));
	s->key = *k;
	s->sym_dict = k->sym ? PyDict_GetItemWithError(d, sym_key) : NULL;
	s->frame_ver = DICT_VERSION(d);
	s->sym_ver = s->sym_dict ? DICT_VERSION(s->sym_dict) : 0;
}

PyObject *python_frame(struct python_objs *o, uint64_t ip, const struct sym_loc *l, int kept)
{
	struct frame_key k;
	struct frame_slot *s;
	PyObject *d;

	if (!kept)
		return frame_new(o, ip, l, 0);
	if (!o->frames && !(o->frames = calloc(1u << FRAME_BITS, sizeof(*o->frames))))
		return frame_new(o, ip, l, 1);
	s = &o->frames[(ip * 0x9e3779b97f4a7c15ULL) >> (64 - FRAME_BITS)];
	if (o->nr_touched < sizeof(o->touched) / sizeof(o->touched[0]))
		o->touched[o->nr_touched] = (uint16_t)(s - o->frames);
	o->nr_touched++;
	memset(&k, 0, sizeof(k));       /* the padding too: keys compare whole */
	k.ip = ip;
	k.sym_start = l->sym_start;
	k.sym_end = l->sym_end;
	k.symoff = l->symoff;
	k.sym = l->sym;
	k.dso = l->dso;
	k.have_map = l->have_map;
	k.binding = l->binding;
	/* nothing but this table holds it (the last sample's list is gone) */
	if (s->frame && !memcmp(&s->key, &k, sizeof(k)) && as_built(s, 1))
		return Py_NewRef(s->frame);
	d = frame_new(o, ip, l, 1);
	if (d)
		slot_take(s, &k, d, o->keys[PK_SYM]);
	return d;
}

/* After the call, while the sample's list still holds its entries once:
 * an entry the script changed (or whose "sym" it changed), or holds, is
 * the script's alone now, so that it and what the script hung on it go
 * when the list goes, in perf's order. */
static void settle(struct frame_slot *s)
{
	if (s->frame && !as_built(s, 2))
		Py_CLEAR(s->frame);
}

void python_frames_settle(struct python_objs *o)
{
	size_t n = o->nr_touched, max = sizeof(o->touched) / sizeof(o->touched[0]);

	o->nr_touched = 0;
	if (!o->frames || !n)
		return;
	for (size_t i = 0; i < (n > max ? (size_t)1 << FRAME_BITS : n); i++)
		settle(&o->frames[n > max ? i : o->touched[i]]);
}
#else
/* no version tags to tell a changed dict by: every entry new */
PyObject *python_frame(struct python_objs *o, uint64_t ip, const struct sym_loc *l, int kept)
{
	return frame_new(o, ip, l, kept);
}

void python_frames_settle(struct python_objs *o)
{
}
#endif
