/* fuzz_recover.c - libFuzzer target: 'trace-report --recover' on a hostile
 * stream, then the recovered file read back as trace-report reads it. Its
 * seeds are kept recordings (mkseeds.py does not make them): trace-record
 * files killed with SIGKILL (one with -z), cut, and pipe streams of
 * trace-record and perf record saved to files. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz.h"
#include "record/pd_recover.h"
#include "perfdata/pd_session.h"

/* the output: a second memfd (fz_memfd's is the input's), emptied each time */
static int out_memfd(void)
{
	static int fd = -1;

	if (fd < 0)
		fd = memfd_create("fuzz-output", 0);
	if (fd < 0 || ftruncate(fd, 0) || lseek(fd, 0, SEEK_SET) != 0)
		abort();
	return dup(fd);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pd_recover_stats st;
	struct pd_session *s;
	struct tb_err err = { 0 };
	int in = fz_memfd(data, size), out = out_memfd();

	if (in < 0 || out < 0)
		abort();
	if (pd_recover(in, out, &st, &err)) {
		close(in);
		close(out);
		return 0;
	}
	close(in);
	lseek(out, 0, SEEK_SET);
	if (pd_session_open(&s, "recovered", out, &err))
		return 0;                  /* the session owns out */
	pd_session_process(s, fz_consumer(), &err);
	pd_session_close(s);
	return 0;
}
