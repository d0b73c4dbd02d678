/* fuzz_http.c - libFuzzer target: HTTP responses from a hostile server through http_read_response (common/util/http_resp.c), as http_post reads them on a kept-alive connection. */
/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The input's first byte sets how the bytes come and what is allowed:
 *   bits 0-3  bytes per read (0: as many as asked), so that lines, chunk
 *             sizes and CRLFs split across reads anywhere
 *   bits 4-5  the body cap: 16 bytes, 1 KiB, 1 MiB (HTTP_BODY_ANSWER),
 *             16 MiB (HTTP_BODY_LIST)
 *   bit 6     the source fails (ETIMEDOUT) at its end instead of ending
 * The rest is what the server sent: responses are read one after the
 * other while the parser says the connection can carry another (at most 8).
 * Aborts when a result breaks the contract: a body over its cap, a status
 * outside 100..599, keep set after a failure, more bytes taken than given.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "fuzz.h"
#include "util/http.h"

struct mem {
	const uint8_t *p;
	size_t len, pos, frag;
	int fail;
};

static ssize_t mem_read(void *ctx, void *buf, size_t n)
{
	struct mem *m = ctx;
	size_t k = m->len - m->pos;

	if (!k && m->fail) {
		errno = ETIMEDOUT;
		return -1;
	}
	if (m->frag && k > m->frag)
		k = m->frag;
	if (k > n)
		k = n;
	memcpy(buf, m->p + m->pos, k);
	m->pos += k;
	return (ssize_t)k;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t caps[4] = { 16, 1024, HTTP_BODY_ANSWER, HTTP_BODY_LIST };
	struct http_resp r = { 0 };
	struct mem m = { 0 };
	struct http_src src = { mem_read, &m };
	size_t cap;

	if (!size)
		return 0;
	m.frag = data[0] & 15;
	m.fail = data[0] >> 6 & 1;
	cap = caps[data[0] >> 4 & 3];
	m.p = data + 1;
	m.len = size - 1;
	for (int i = 0; i < 8; i++) {
		struct tb_err err = { 0 };
		size_t before = m.pos;
		int rc = http_read_response(&src, cap, &r, &err);

		if (m.pos > m.len || r.got != m.pos - before)
			abort();            /* took bytes the source never gave */
		if (r.body.len > cap)
			abort();            /* past the cap */
		if (rc) {
			if (r.keep || !err.msg[0] || strchr(err.msg, '\n'))
				abort();    /* a failure must close and say one line */
			break;
		}
		if (r.status < 200 || r.status > 599)
			abort();            /* a final status, 1xx skipped */
		if (!r.keep || m.pos == m.len)
			break;
	}
	bb_free(&r.body);
	return 0;
}
