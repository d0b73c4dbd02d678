/* fuzz_recover.c - libFuzzer target: 'trace-report --recover' on a hostile
 * stream, then the recovered file read back as trace-report reads it:
 * whenever recovery succeeds the reader must take every record (else
 * abort). Its
 * seeds are kept recordings (mkseeds.py does not make them): trace-record
 * files killed with SIGKILL (one with -z), cut, and pipe streams of
 * trace-record and perf record saved to files. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz.h"
#include "record/pd_recover.h"
#include "perfdata/pd_session.h"

/* a recovered file the reader refuses: a bug of pd_recover */
static void reject(const char *what, const struct tb_err *err)
{
	fprintf(stderr, "%s: offset 0x%llx: %s\n", what,
		(unsigned long long)(err->has_offset ? err->offset : 0), err->msg);
	abort();
}

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
	int in = fz_memfd(data, size), out = out_memfd(), r;

	if (in < 0 || out < 0)
		abort();
	r = pd_recover(in, out, &st, &err);
	close(in);
	if (r) {
		/* pd_recover read its output back and the reader refused it */
		if (st.readback_failed)
			reject("pd_recover wrote what the reader refuses", &err);
		close(out);
		return 0;
	}
	/* what recovery wrote, the reader takes: every record, every field */
	lseek(out, 0, SEEK_SET);
	if ((r = pd_session_open(&s, "recovered", out, &err))) {     /* the session owns out */
		if (r != TB_ERR_NOMEM)
			reject("the reader refuses to open what pd_recover wrote", &err);
		return 0;
	}
	r = pd_session_process(s, fz_consumer(), &err);
	if (r && r != TB_ERR_NOMEM)
		reject("the reader refuses a record pd_recover wrote", &err);
	pd_session_close(s);
	return 0;
}
