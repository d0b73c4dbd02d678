/* perl_stub.c - the Perl engine of a build without libperl: says how to get it. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "engine.h"

static int stub_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	(void)run;
	(void)st;
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
			  "this build has no Perl engine: install libperl-dev and rebuild "
			  "(make), which links Debian's libperl.a");
}

static int stub_generate(const struct engine_gen *g, struct tb_err *err)
{
	(void)g;
	return stub_start(NULL, NULL, err);
}

const struct engine_ops perl_engine = {
	.name = "Perl",
	.alias = "pl",
	.ext = ".pl",
	.unavailable = "not built in (the Perl engine is not written yet)",
	.start = stub_start,
	.generate = stub_generate,
};
