/* python_interp.c - the Python engine's interpreter: start-up (module path,
 * built-in modules, the payload's importer, exit() and quit(), the syscall
 * map), loading the script, the script's errors, and finalization. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include "util/payload.h"
#include "python/python_int.h"

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
void python_flush_stdout(void)
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
		status = (int)(PyLong_AsLong(code) & 0xff);    /* as the process status: -1 is 255 */
	} else {
		PyObject *str = PyObject_Str(code);

		if (str && PyUnicode_AsUTF8(str)) {
			ec_log(&r->core, PyUnicode_AsUTF8(str));
			ec_log(&r->core, "\n");
		}
		Py_XDECREF(str);
	}
	PyErr_Clear();
	Py_XDECREF(code);
	Py_XDECREF(type);
	Py_XDECREF(value);
	Py_XDECREF(tb);
	python_flush_stdout();
	if (r->core.st->exit_status)
		*r->core.st->exit_status = status;
	tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET, "the script exited with status %d", status);
	return 1;
}

/* Report the pending exception: a SystemExit ends the run; anything else
 * gets the flushed output, its traceback, and one summary line naming
 * @who, the event (NULL outside events) and @what happened. */
int python_raised(struct engine_run *r, struct tb_err *err, const struct pd_event *ev,
		  const char *who, const char *what)
{
	char *text;

	if (script_exit(r, err))
		return TB_ERR_STOP;
	python_flush_stdout();
	text = exception_text();
	ec_log(&r->core, text);
	free(text);
	return ec_error(err, ev, who, "%s", what);
}

/* ---- threads the script starts ---- */

/* Threads whose OS thread has not run yet: _thread.start_new_thread makes
 * the state in the caller, which the new thread then marks as its own. */
static int threads_unstarted(PyThreadState *me)
{
	int n = 0;

	for (PyThreadState *t = PyInterpreterState_ThreadHead(PyThreadState_GetInterpreter(me));
	     t; t = PyThreadState_Next(t))
		n += t != me && (t->thread_id == 0 || t->thread_id == me->thread_id);
	return n;
}

/* Let go of the GIL for a millisecond: a thread that waits for it runs
 * until it blocks (or the switch interval takes it back). */
static void yield_gil(void)
{
	struct timespec ms = { 0, 1000000 };

	Py_BEGIN_ALLOW_THREADS
	nanosleep(&ms, NULL);
	Py_END_ALLOW_THREADS
}

/*
 * perf holds the GIL from trace_begin to trace_end and starts reading
 * only after it: a thread started in trace_begin (sctop.py's printer) gets
 * the GIL at the first handler call, having waited the switch interval,
 * so it runs before any event is counted, the same in every run. Here the
 * first event comes sooner: give such threads their first turn now, once
 * each has started (for at most 100 ms), then once more.
 */
void python_threads_settle(void)
{
	PyThreadState *me = PyThreadState_Get();

	if (PyInterpreterState_ThreadHead(PyThreadState_GetInterpreter(me)) == me &&
	    !PyThreadState_Next(me))
		return;
	for (int i = 0; i < 100 && threads_unstarted(me); i++)
		yield_gil();
	yield_gil();
}

/* ---- the interpreter ---- */

static int path_exists(const char *p)
{
	struct stat st;

	return stat(p, &st) == 0;
}

/* Append the printf-formatted path to the module search path. */
__attribute__((format(printf, 2, 3)))
static int add_path(PyConfig *c, const char *fmt, ...)
{
	char *path = NULL;
	wchar_t *w = NULL;
	PyStatus s;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&path, fmt, ap);
	va_end(ap);
	if (n < 0 || !(w = Py_DecodeLocale(path, NULL))) {
		free(n < 0 ? NULL : path);
		return -1;
	}
	s = PyWideStringList_Append(&c->module_search_paths, w);
	PyMem_RawFree(w);
	free(path);
	return PyStatus_Exception(s) ? -1 : 0;
}

int python_stdout_unbuffered(void)
{
	const char *v = getenv("PYTHONUNBUFFERED");

	return v && *v;
}

int python_interpreter_start(const struct engine_start *st, struct tb_err *err)
{
	PyPreConfig pre;
	PyConfig c;
	PyStatus s;
	const char *dir;
	char *zip;
	int zip_failed = 0;
	wchar_t **wargv;

	PyPreConfig_InitIsolatedConfig(&pre);
	pre.utf8_mode = 1;
	s = Py_PreInitialize(&pre);
	if (PyStatus_Exception(s))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "cannot start Python: %s", s.err_msg);
	if (PyImport_AppendInittab("perf_trace_context", python_context_init) ||
	    PyImport_AppendInittab("_tracebox", python_payload_init))
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "cannot register modules");
	PyConfig_InitIsolatedConfig(&c);
	c.site_import = 0;
	c.install_signal_handlers = 0;
	/* as under perf, whose Python reads the environment: sys.stdout is
	 * buffered unless PYTHONUNBUFFERED is set (then print reaches fd 1 at once) */
	c.buffered_stdio = !python_stdout_unbuffered();
	c.write_bytecode = 0;
	c.parse_argv = 0;
	c.module_search_paths_set = 1;
	c._init_main = 0;          /* the payload's path hook goes in between */
	/* the script's directory first, as python does */
	dir = strrchr(st->script, '/');
	if (add_path(&c, "%.*s", dir ? (int)(dir - st->script) : 1, dir ? st->script : ".") ||
	    add_path(&c, "%s/scripts/python/Perf-Trace-Util/lib/Perf/Trace", st->exec_path))
		goto nomem;
	/* the stdlib: a zip beside the scripts (the initramfs), else the host's */
	zip = NULL;
	if (asprintf(&zip, "%s/lib/python311.zip", st->exec_path) < 0)
		goto nomem;
	if (path_exists(zip) && add_path(&c, "%s", zip))
		zip_failed = 1;
	free(zip);
	if (zip_failed || add_path(&c, "/usr/lib/python3.11"))
		goto nomem;
	/* then what the binary carries (payload.h): the disk wins */
	if (add_path(&c, "%s/scripts/python/Perf-Trace-Util/lib/Perf/Trace", PAYLOAD_ROOT) ||
	    add_path(&c, "%s/lib/python3.11", PAYLOAD_ROOT))
		goto nomem;
#ifdef TRACEBOX_DYNAMIC
	add_path(&c, "/usr/lib/python3.11/lib-dynload");
#endif
	wargv = calloc((size_t)st->argc + 1, sizeof(*wargv));
	if (!wargv)
		goto nomem;
	for (int i = 0; i < st->argc; i++)
		wargv[i] = Py_DecodeLocale(st->argv[i], NULL);
	s = PyConfig_SetArgv(&c, st->argc, wargv);
	for (int i = 0; i < st->argc; i++)
		PyMem_RawFree(wargv[i]);
	free(wargv);
	if (!PyStatus_Exception(s))
		s = Py_InitializeFromConfig(&c);
	PyConfig_Clear(&c);
	if (!PyStatus_Exception(s) && python_payload_install())
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "cannot start Python: the payload's importer failed (above)");
	if (!PyStatus_Exception(s))
		s = _Py_InitializeMain();
	if (PyStatus_Exception(s))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "cannot start Python: %s", s.err_msg ? s.err_msg : "?");
	/* what CPython's own signal set-up does (install_signal_handlers,
	 * off here for SIGINT, which the applet handles): a write to a closed
	 * pipe or socket, or past the file size limit, is an OSError the
	 * script may catch, as under perf, not a silent death */
	signal(SIGPIPE, SIG_IGN);
	signal(SIGXFSZ, SIG_IGN);
	return 0;
nomem:
	PyConfig_Clear(&c);
	return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
}

/* exit() and quit(), which python's site module defines and perf's
 * embedded interpreter has (site is not imported here): they raise
 * SystemExit(code), which ends the run with that status. */
static const char quitters[] =
	"class _Quitter:\n"
	"    def __init__(self, name):\n"
	"        self.name = name\n"
	"    def __repr__(self):\n"
	"        return 'Use %s() or Ctrl-D (i.e. EOF) to exit' % self.name\n"
	"    def __call__(self, code=None):\n"
	"        raise SystemExit(code)\n"
	"import builtins\n"
	"builtins.exit = _Quitter('exit')\n"
	"builtins.quit = _Quitter('quit')\n";

int python_define_quitters(void)
{
	PyObject *g = PyDict_New(), *res = NULL;

	if (g && !PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()))
		res = PyRun_String(quitters, Py_file_input, g, g);
	Py_XDECREF(g);
	if (!res)
		return -1;
	Py_DECREF(res);
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

/* A script the binary carries (payload.h): compiled from its bytes. */
static PyObject *run_payload_script(struct engine_run *r, struct tb_err *err)
{
	unsigned char *text;
	PyObject *code, *res;
	size_t len;
	int rc = payload_read(r->core.st->script, &text, &len);

	if (rc) {
		tb_err_set(err, rc == TB_ERR_NOMEM ? rc : TB_ERR_IO, TB_NO_OFFSET,
			   "cannot read script %s from the payload", r->core.st->script);
		return NULL;
	}
	code = Py_CompileStringExFlags((const char *)text, r->core.st->script, Py_file_input,
				       NULL, -1);
	free(text);
	res = code ? PyEval_EvalCode(code, r->main, r->main) : NULL;
	Py_XDECREF(code);
	return res;
}

int python_run_script(struct engine_run *r, struct tb_err *err)
{
	int carried = payload_is(r->core.st->script);
	FILE *fp = carried ? NULL : fopen(r->core.st->script, "r");
	PyObject *res, *file;

	if (!fp && !carried)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot open script %s: %m",
				  r->core.st->script);
	file = PyUnicode_FromString(r->core.st->script);
	if (file) {
		PyDict_SetItemString(r->main, "__file__", file);
		Py_DECREF(file);
	}
	res = carried ? run_payload_script(r, err) :
	      PyRun_FileExFlags(fp, r->core.st->script, Py_file_input, r->main, r->main, 1, NULL);
	if (!res && err->code)
		return err->code;
	if (res) {
		Py_DECREF(res);
		return 0;
	}
	if (static_build_limit(err))
		return err->code;
	if (PyErr_ExceptionMatches(PyExc_SyntaxError)) {
		char *text = exception_text();

		ec_log(&r->core, text);
		free(text);
		return tb_err_set(err, TB_ERR_STOP, TB_NO_OFFSET, "syntax error (above)");
	}
	return python_raised(r, err, NULL, r->core.st->script,
			     "raised while loading (traceback above)");
}

/* perf_trace_context.syscall_map, from the map ec_syscall_map chooses. */
int python_set_syscall_map(struct engine_run *r)
{
	struct syscall_map builtin;
	const struct syscall_map *map = ec_syscall_map(r->core.st->session, &builtin);
	PyObject *m = PyImport_ImportModule("perf_trace_context"), *d;
	int rc = 0;

	d = m ? PyObject_GetAttrString(m, "syscall_map") : NULL;
	Py_XDECREF(m);
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
	scmap_free(&builtin);
	return rc;
}

int python_interpreter_stop(void)
{
	python_flush_stdout();
	return Py_FinalizeEx();
}
