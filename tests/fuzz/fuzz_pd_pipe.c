/* fuzz_pd_pipe.c - libFuzzer target: a pipe-mode ('perf record -o -')
 * stream read from a real pipe, as 'trace-report -i -' does, every sample's
 * fields converted and printed (fuzz_common.c). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "fuzz.h"
#include "perfdata/pd_session.h"
#include "tracepoint/tp_decoder.h"

static int no_op(void *ctx, const struct tp_decoder *d)
{
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_session *s;
	struct tb_err err = { 0 };
	int fd = fz_pipe(data, size);

	if (fd < 0 || pd_session_open(&s, "-", fd, &err))
		return 0;
	pd_session_process(s, fz_consumer(), &err);
	pd_session_for_each_decoder(s, no_op, NULL);      /* what trace-gen walks */
	pd_session_close(s);
	return 0;
}
