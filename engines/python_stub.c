/* python_stub.c - the Python engine of a build without libpython: says how to get it. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "engine.h"

static int stub_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	(void)run;
	(void)st;
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
			  "this build has no Python engine: install python3-dev (Debian's "
			  "libpython3.11.a) and rebuild with make");
}

static int stub_generate(const struct engine_gen *g, struct tb_err *err)
{
	(void)g;
	return stub_start(NULL, NULL, err);
}

const struct engine_ops python_engine = {
	.name = "Python",
	.alias = "py",
	.ext = ".py",
	.unavailable = "not built in (install python3-dev and rebuild)",
	.start = stub_start,
	.generate = stub_generate,
};
