/* export_clickhouse.c - trace-report --export clickhouse://...: (in progress). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include "export_core.h"

int xch_start(struct engine_run **run, const struct engine_start *st, struct tb_err *err)
{
	*run = NULL;
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "not yet");
}
int xch_event(struct engine_run *run, const struct pd_event *ev, struct tb_err *err) { return 0; }
int xch_stop(struct engine_run *run, struct tb_err *err) { return 0; }
