/* python_objs.c - the objects the Python engine keeps between samples:
 * perf_sample_dict's keys as interned str, a str per text lately met
 * (symbol and DSO names, build-ids, comms), and each distinct callchain
 * frame's dicts, built once and copied for every sample showing it (perf
 * builds them afresh each time; a copy is what a script can tell apart). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_sample_text.h"
#include "python/python_int.h"

#define STR_SLOTS   4096          /* direct-mapped, by the text's hash */
#define PTR_BITS    13            /* 8,192 slots, direct-mapped, by the text's address */
#define PTR_SLOTS   (1 << PTR_BITS)
#define FRAME_BITS  13            /* 8,192 sets of two ways: 16,384 frames, some 10 MB */
#define FRAME_SETS  (1 << FRAME_BITS)

struct str_slot {
	uint64_t hash;            /* of the text; for ptrs[], its address */
	PyObject *str;
};

/* One frame as built: what it was built from (the texts through their
 * addresses, and their str), its dict and its sym dict (NULL: none), the
 * template to copy. */
struct frame_slot {
	uint64_t ip, sym_start, sym_end, symoff;
	int binding, have_map;
	const char *sym_text, *dso_text;
	PyObject *name, *dso;     /* borrowed from the dicts; NULL: none */
	PyObject *tpl, *sym_tpl;
};

struct python_objs {
	PyObject *keys[PK_NR];
	PyObject *attr;           /* the last attr bytes handed out */
	uint64_t data_src;        /* and the last datasrc_decode, of this data_src */
	PyObject *data_src_text;
	struct str_slot strs[STR_SLOTS];
	struct str_slot ptrs[PTR_SLOTS];
	struct frame_slot frames[FRAME_SETS][2];
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

static void frame_clear(struct frame_slot *f)
{
	Py_CLEAR(f->tpl);
	Py_CLEAR(f->sym_tpl);
	f->name = f->dso = NULL;
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
	for (int i = 0; i < FRAME_SETS; i++) {
		frame_clear(&o->frames[i][0]);
		frame_clear(&o->frames[i][1]);
	}
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

/* @s is @f's text @t: the same address when the texts stay (@kept), else
 * the same text */
static int same(const char *t, PyObject *str, const char *s, int kept)
{
	return t == s || (!kept && same_text(str, s));
}

static int frame_is(const struct frame_slot *f, uint64_t ip, const struct sym_loc *l, int kept)
{
	if (!f->tpl || f->ip != ip || f->have_map != l->have_map || !f->name != !l->sym)
		return 0;
	if (l->sym && (f->sym_start != l->sym_start || f->sym_end != l->sym_end ||
		       f->binding != l->binding || !same(f->sym_text, f->name, l->sym, kept)))
		return 0;
	if (l->have_map && (f->symoff != l->symoff || !same(f->dso_text, f->dso, l->dso, kept)))
		return 0;
	return 1;
}

/* @d[@k] = @v, releasing @v; 0, or -1 with the exception set */
static int put(PyObject *d, PyObject *k, PyObject *v)
{
	int rc = v ? PyDict_SetItem(d, k, v) : -1;

	Py_XDECREF(v);
	return rc;
}

/* Build @f for @ip at @l, as perf's python_process_callchain adds the keys. */
static int frame_build(struct python_objs *o, struct frame_slot *f, uint64_t ip,
		       const struct sym_loc *l, int kept)
{
	PyObject **k = o->keys, *d = PyDict_New(), *sym = NULL, *name = NULL, *dso = NULL;

	if (!d || put(d, k[PK_IP], PyLong_FromUnsignedLongLong(ip)))
		goto fail;
	if (l->sym) {
		sym = PyDict_New();
		name = kept ? python_cstr_kept(o, l->sym) : python_cstr(o, l->sym);
		if (!sym || put(sym, k[PK_START], PyLong_FromUnsignedLongLong(l->sym_start)) ||
		    put(sym, k[PK_END], PyLong_FromUnsignedLongLong(l->sym_end)) ||
		    put(sym, k[PK_BINDING], PyLong_FromLong(ec_sym_binding(l))) ||
		    put(sym, k[PK_NAME], Py_XNewRef(name)) || PyDict_SetItem(d, k[PK_SYM], sym))
			goto fail;
		if (l->have_map && put(d, k[PK_SYM_OFF], PyLong_FromUnsignedLongLong(l->symoff)))
			goto fail;
	}
	if (l->have_map && put(d, k[PK_DSO], Py_XNewRef(dso = python_cstr_kept(o, l->dso))))
		goto fail;
	*f = (struct frame_slot){ .ip = ip, .sym_start = l->sym_start, .sym_end = l->sym_end,
				  .symoff = l->symoff, .binding = l->binding,
				  .have_map = l->have_map, .sym_text = l->sym, .dso_text = l->dso,
				  .name = name, .dso = dso,
				  .tpl = d, .sym_tpl = sym };
	Py_XDECREF(name);         /* the dicts hold them */
	Py_XDECREF(dso);
	return 0;
fail:
	Py_XDECREF(d);
	Py_XDECREF(sym);
	Py_XDECREF(name);
	Py_XDECREF(dso);
	return -1;
}

PyObject *python_frame(struct python_objs *o, uint64_t ip, const struct sym_loc *l, int kept)
{
	uint64_t h = (ip ^ (uintptr_t)l->dso * 31) * 0x9e3779b97f4a7c15ULL;
	struct frame_slot *set = o->frames[h >> (64 - FRAME_BITS)], tmp;
	PyObject *d, *sym;

	if (frame_is(&set[0], ip, l, kept)) {
		/* the last one used */
	} else if (frame_is(&set[1], ip, l, kept)) {
		tmp = set[0];
		set[0] = set[1];
		set[1] = tmp;
	} else {                  /* the older goes, the newer moves over */
		frame_clear(&set[1]);
		set[1] = set[0];
		memset(&set[0], 0, sizeof(set[0]));
		if (frame_build(o, &set[0], ip, l, kept))
			return NULL;
	}
	d = PyDict_Copy(set[0].tpl);
	if (!d || !set[0].sym_tpl)
		return d;
	sym = PyDict_Copy(set[0].sym_tpl);
	if (put(d, o->keys[PK_SYM], sym)) {
		Py_DECREF(d);
		return NULL;
	}
	return d;
}
