/* stubs.c - the engines a build lacks: each registers under its own name and
 * says how to get it (perf's *_unsupported_ops), so the catalogue and the
 * language list stay whole. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "engine.h"

#if !defined(HAVE_PYTHON) || !defined(HAVE_PERL)
static int stub_start(const char *how, struct tb_err *err)
{
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "%s", how);
}
#endif

/* STUB(var, name, alias, ext, dir, how): an engine that only says @how. */
#define STUB(var, nm, al, ex, dr, how)							\
	static int var##_start(struct engine_run **run, const struct engine_start *st,	\
			       struct tb_err *err)					\
	{										\
		(void)run;								\
		(void)st;								\
		return stub_start(how, err);						\
	}										\
	static int var##_generate(const struct engine_gen *g, struct tb_err *err)	\
	{										\
		(void)g;								\
		return stub_start(how, err);						\
	}										\
	const struct engine_ops var = {							\
		.name = nm, .alias = al, .ext = ex, .dir = dr,				\
		.unavailable = "not built in: " how,					\
		.start = var##_start, .generate = var##_generate,			\
	};

#ifndef HAVE_PYTHON
STUB(python_engine, "Python", "py", ".py", "python",
     "this build has no Python engine: install python3-dev (Debian's libpython3.11.a) "
     "and rebuild with make")
#endif
#ifndef HAVE_PERL
STUB(perl_engine, "Perl", "pl", ".pl", "perl",
     "this build has no Perl engine: install libperl-dev (Debian's libperl.a) and "
     "rebuild with make")
#endif
