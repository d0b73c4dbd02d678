/* test_http.c - the HTTP client (common/util/http.h): the response parser on buffers fed whole and a byte at a time (framing, caps, each malformed case's message), and http_post's deadline, keep-alive and reconnection against a forked server on 127.0.0.1. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <arpa/inet.h>
#include <errno.h>
#include <signal.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <time.h>
#include "util/http.h"
#include "unit.h"

/* ---- the parser on a buffer ---- */

struct mem {
	const char *p;
	size_t len, pos, frag;      /* frag: bytes per read (0: all) */
	int fail;                   /* at the end: -1 with ETIMEDOUT, not 0 */
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

static struct http_resp resp;
static struct tb_err err;
static int keep_whole;          /* resp.keep when the text came in one read */

/* @text parsed with a cap of @cap, whole and a byte at a time: the same
 * outcome both ways (but keep: bytes past the response are seen only when
 * they came with it); returns the code (resp and err hold the byte-wise
 * one, keep_whole the other's keep) */
static int parse(const char *text, size_t len, size_t cap, int fail)
{
	struct mem m = { text, len, 0, 0, fail };
	struct http_src src = { mem_read, &m };
	int rc1, rc2, st1;
	char msg1[256], body1[64];
	size_t blen1;

	memset(&err, 0, sizeof(err));
	rc1 = http_read_response(&src, cap, &resp, &err);
	st1 = resp.status;
	keep_whole = resp.keep;
	blen1 = resp.body.len;
	snprintf(msg1, sizeof(msg1), "%s", err.msg);
	snprintf(body1, sizeof(body1), "%.*s", (int)resp.body.len, resp.body.p ? (char *)resp.body.p : "");
	m.pos = 0;
	m.frag = 1;
	memset(&err, 0, sizeof(err));
	rc2 = http_read_response(&src, cap, &resp, &err);
	if (rc1 != rc2 || strcmp(msg1, err.msg) || (!rc1 && (st1 != resp.status ||
	    blen1 != resp.body.len ||
	    strncmp(body1, resp.body.p ? (char *)resp.body.p : "", blen1 < 63 ? blen1 : 63))))
		T(0, "whole and byte-wise differ: rc %d/%d, '%s'/'%s'", rc1, rc2, msg1, err.msg);
	return rc2;
}

#define S(lit) lit, sizeof(lit) - 1
#define H200 "HTTP/1.1 200 OK\r\n"
#define CHUNKED H200 "Transfer-Encoding: chunked\r\n\r\n"

/* a good response: status, body, keep */
static void good(const char *what, const char *text, size_t len, int status, const char *body,
		 int keep)
{
	int rc = parse(text, len, 1024, 0);

	T_EQ(rc, 0, "%s: parsed (%s)", what, err.msg);
	if (rc)
		return;
	T_EQ(resp.status, status, "%s: status", what);
	T(resp.body.len == strlen(body) && !memcmp(resp.body.p, body, resp.body.len),
	  "%s: body '%s' (%zu bytes)", what, body, resp.body.len);
	T_EQ(keep_whole, keep, "%s: keep-alive %d", what, keep);
}

/* a bad one: an error whose message contains @msg */
static void bad(const char *what, const char *text, size_t len, size_t cap, const char *msg)
{
	int rc = parse(text, len, cap, 0);

	T(rc && strstr(err.msg, msg), "%s: refused: '%s' (got %d: '%s')", what, msg, rc, err.msg);
}

static void test_good(void)
{
	good("Content-Length", S("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nOk."), 200, "Ok.", 1);
	good("no reason phrase", S("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n"), 200, "", 1);
	good("LF line ends", S("HTTP/1.1 500 Oops\nContent-Length: 2\n\nno"), 500, "no", 1);
	good("chunked, extensions, trailers",
	     S("HTTP/1.1 200 OK\r\ntransfer-encoding:  Chunked \r\n\r\n"
	       "3;a=b ; c = \"q\\\"x;\"\r\nabc\r\n00A\r\n0123456789\r\n0;last\r\nX-T: 1\r\nY:\r\n\r\n"),
	     200, "abc0123456789", 1);
	good("chunked, empty", S("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
	     200, "", 1);
	good("a body up to the end", S("HTTP/1.1 200 OK\r\nX: y\r\n\r\nall of it"), 200,
	     "all of it", 0);
	good("100 Continue first",
	     S("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nx"),
	     200, "x", 1);
	good("204: no body", S("HTTP/1.1 204 No Content\r\nContent-Length: 5\r\n\r\n"), 204, "", 1);
	good("Connection: close", S("HTTP/1.1 200 OK\r\nConnection: keep-alive, Close\r\n"
				    "Content-Length: 1\r\n\r\nx"), 200, "x", 0);
	good("HTTP/1.0", S("HTTP/1.0 200 OK\r\nContent-Length: 1\r\n\r\nx"), 200, "x", 0);
	good("bytes past the body: not kept", S("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nxy"),
	     200, "x", 0);
	good("Content-Length twice, the same", S("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n"
						 "content-length: 02\r\n\r\nab"), 200, "ab", 1);
	/* the cap itself passes, one byte more does not */
	T(!parse(S(H200 "Content-Length: 16\r\n\r\n0123456789abcdef"), 16, 0) &&
	  resp.body.len == 16, "a body of the cap's size, Content-Length (%s)", err.msg);
	T(!parse(S(H200 "Transfer-Encoding: chunked\r\n\r\n8\r\n01234567\r\n8\r\n"
		   "89abcdef\r\n0\r\n\r\n"), 16, 0) && resp.body.len == 16,
	  "a body of the cap's size, chunked (%s)", err.msg);
	T(!parse(S(H200 "\r\n0123456789abcdef"), 16, 0) && resp.body.len == 16,
	  "a body of the cap's size, up to the end (%s)", err.msg);
}

static void test_bad(void)
{
	static char big[HTTP_HEAD_MAX + 4096];
	size_t n;

	bad("chunk size ZZZZ", S(CHUNKED "ZZZZ\r\n\r\n"), 1024,
	    "malformed chunked body: chunk size 'ZZZZ' is not hexadecimal");
	bad("chunk size empty", S(CHUNKED "\r\nabc\r\n0\r\n\r\n"), 1024, "is not hexadecimal");
	bad("chunk size -1", S(CHUNKED "-1\r\n"), 1024, "chunk size '-1' is not hexadecimal");
	bad("chunk size 0x10", S(CHUNKED "0x10\r\n"), 1024, "chunk size '0x10' has malformed extensions");
	bad("chunk size, a space, nothing", S(CHUNKED "3 \r\nabc\r\n0\r\n\r\n"), 1024,
	    "has malformed extensions");
	bad("chunk extension without a name", S(CHUNKED "3;\r\nabc\r\n0\r\n\r\n"), 1024,
	    "has malformed extensions");
	bad("chunk extension, open quote", S(CHUNKED "3;a=\"b\r\nabc\r\n0\r\n\r\n"), 1024,
	    "has malformed extensions");
	bad("chunk extension, value missing", S(CHUNKED "3;a=\r\nabc\r\n0\r\n\r\n"), 1024,
	    "has malformed extensions");
	bad("no CRLF after the chunk", S(CHUNKED "3\r\nabcXY0\r\n\r\n"), 1024,
	    "malformed chunked body: no CRLF after a chunk's data");
	bad("a CR alone after the chunk", S(CHUNKED "3\r\nabc\r0\r\n\r\n"), 1024,
	    "no CRLF after a chunk's data");
	bad("chunk size overflows", S(CHUNKED "10000000000000000000001\r\n"), (size_t)-1,
	    "the response body is over");
	bad("chunks over the cap", S(CHUNKED "8\r\n01234567\r\n9\r\n012345678\r\n0\r\n\r\n"), 16,
	    "the response body is over 16 bytes (the cap for this request)");
	bad("Content-Length over the cap", S(H200 "Content-Length: 1025\r\n\r\n"), 1024,
	    "the response body is over 1 KiB (the cap for this request)");
	bad("Content-Length 2^64", S(H200 "Content-Length: 18446744073709551616\r\n\r\n"),
	    (size_t)-1, "Content-Length '18446744073709551616' is too large");
	bad("an unframed body over the cap", S(H200 "\r\n01234567890123456"), 16,
	    "the response body is over 16 bytes");
	bad("Content-Length 12a", S(H200 "Content-Length: 12a\r\n\r\n"), 1024,
	    "malformed response header: Content-Length '12a'");
	bad("Content-Length -1", S(H200 "Content-Length: -1\r\n\r\n"), 1024, "Content-Length '-1'");
	bad("Content-Length empty", S(H200 "Content-Length:\r\n\r\n"), 1024, "an empty Content-Length");
	bad("two Content-Length", S(H200 "Content-Length: 1\r\nContent-Length: 2\r\n\r\nab"), 1024,
	    "two Content-Length values that differ");
	bad("Content-Length and chunked", S(H200 "Content-Length: 1\r\nTransfer-Encoding: chunked"
					    "\r\n\r\n1\r\na\r\n0\r\n\r\n"), 1024,
	    "both Transfer-Encoding and Content-Length");
	bad("Transfer-Encoding: gzip", S(H200 "Transfer-Encoding: gzip, chunked\r\n\r\n"), 1024,
	    "transfer coding 'gzip' is not supported");
	bad("chunked twice", S(H200 "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"),
	    1024, "chunked twice");
	bad("a space before the colon", S(H200 "Content-Length : 1\r\n\r\nx"), 1024,
	    "not a field: 'Content-Length : 1'");
	bad("obsolete line folding", S(H200 "X: a\r\n b\r\nContent-Length: 0\r\n\r\n"), 1024,
	    "a line folded the obsolete way");
	bad("a CR inside a value", S(H200 "X: a\rb\r\nContent-Length: 0\r\n\r\n"), 1024,
	    "not a field");
	bad("a NUL inside a value", S(H200 "X: a\0b\r\nContent-Length: 0\r\n\r\n"), 1024,
	    "not a field: 'X: a?b'");
	bad("a malformed trailer", S(CHUNKED "0\r\nno colon\r\n\r\n"), 1024,
	    "not a trailer field: 'no colon'");
	bad("101", S("HTTP/1.1 101 Switching Protocols\r\n\r\n"), 1024, "unexpected 101");
	bad("HTTP/2", S("HTTP/2 200\r\n\r\n"), 1024, "not an HTTP response");
	bad("status 20", S("HTTP/1.1 20 OK\r\n\r\n"), 1024, "not an HTTP response");
	bad("status 600", S("HTTP/1.1 600 OK\r\n\r\n"), 1024, "not an HTTP response");
	bad("garbage", S("\x16\x03\x01\x00\xa5garbage\r\n\r\n"), 1024, "not an HTTP response");
	bad("garbage, no line end", S("SSH-2.0-OpenSSH_9.2"), 1024, "not an HTTP response");
	bad("nothing", S(""), 1024, "the connection closed without an answer");
	bad("cut in the header", S(H200 "Content-Len"), 1024,
	    "the response was cut: the connection closed in the response header");
	bad("cut in the body", S(H200 "Content-Length: 100\r\n\r\nOk."), 1024,
	    "the response was cut: 3 of 100 body bytes, then the connection closed");
	bad("cut in a chunk", S(CHUNKED "10\r\nabc"), 1024,
	    "the connection closed inside its chunked body");
	bad("cut before the last chunk", S(CHUNKED "3\r\nabc\r\n"), 1024,
	    "the connection closed inside its chunked body");
	bad("cut in the trailers", S(CHUNKED "0\r\nX: 1\r\n"), 1024,
	    "the connection closed in the trailers of its chunked body");
	T(parse(S(H200 "Content-Length: 10\r\n\r\nabc"), 1024, 1) == TB_ERR_IO &&
	  !strcmp(err.msg, "cannot receive: Connection timed out"),
	  "the source fails: its errno (%s)", err.msg);

	/* the header cap: 64 KiB in all, trailers and 1xx included */
	n = (size_t)snprintf(big, sizeof(big), H200);
	while (n < HTTP_HEAD_MAX + 100)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "X-Pad: %0990d\r\n", 0);
	n += (size_t)snprintf(big + n, sizeof(big) - n, "Content-Length: 0\r\n\r\n");
	bad("a header over 64 KiB", big, n, 1024, "the response header is over 64 KiB");
	n = (size_t)snprintf(big, sizeof(big), H200 "X-Long: ");
	memset(big + n, 'a', sizeof(big) - n);
	bad("one header line over 64 KiB", big, sizeof(big), 1024,
	    "the response header is over 64 KiB");
	n = (size_t)snprintf(big, sizeof(big), CHUNKED "0\r\n");
	while (n < HTTP_HEAD_MAX + 100)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "X-T: %0990d\r\n", 0);
	n += (size_t)snprintf(big + n, sizeof(big) - n, "\r\n");
	bad("trailers over 64 KiB", big, n, 1024, "the response header and trailers are over 64 KiB");
	n = 0;
	while (n < HTTP_HEAD_MAX + 100)
		n += (size_t)snprintf(big + n, sizeof(big) - n, "HTTP/1.1 102 Processing\r\n\r\n");
	bad("1xx responses over 64 KiB", big, n, 1024, "the response header is over 64 KiB");
	n = (size_t)snprintf(big, sizeof(big), CHUNKED "1;x=");
	memset(big + n, 'a', 5000);
	bad("a chunk-size line over 4096 bytes", big, n + 5000, 1024,
	    "a chunk-size line over 4096 bytes");
}

/* ---- http_post against a forked server ---- */

static int64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* A server on 127.0.0.1 in a child: *@port; request i (counted over all
 * connections) gets @answers[i], or the last one (if @trickle_ms, one byte
 * at a time that far apart); a connection closes after @per_conn requests,
 * at most @conns connections, none after 0.5 s without one. Its exit
 * status: the requests it read. */
static pid_t serve(int *port, const char *const *answers, int nr, int trickle_ms, int per_conn,
		   int conns)
{
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t al = sizeof(a);
	int ls = socket(AF_INET, SOCK_STREAM, 0), served = 0;
	pid_t pid;

	if (ls < 0 || bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 4) ||
	    getsockname(ls, (struct sockaddr *)&a, &al))
		return -1;
	*port = ntohs(a.sin_port);
	pid = fork();
	if (pid) {
		close(ls);
		return pid;
	}
	signal(SIGPIPE, SIG_IGN);
	alarm(10);
	for (int c = 0; c < conns; c++) {
		struct pollfd pf = { .fd = ls, .events = POLLIN };
		int fd;

		if (poll(&pf, 1, 500) <= 0)
			break;          /* no client came back within 0.5 s */
		fd = accept(ls, NULL, NULL);

		for (int q = 0; fd >= 0 && q < per_conn; q++) {
			const char *answer = answers[served < nr ? served : nr - 1];
			char req[4096];
			ssize_t k = 0, got;

			/* the request: a header and a body of "x" (its Content-Length: 1) */
			while ((got = read(fd, req + k, sizeof(req) - 1 - (size_t)k)) > 0) {
				k += got;
				req[k] = 0;
				if (strstr(req, "\r\n\r\nx"))
					break;
			}
			if (got <= 0)
				break;
			served++;
			for (const char *p = answer; *p; p += trickle_ms ? 1 : strlen(p)) {
				if (write(fd, p, trickle_ms ? 1 : strlen(p)) < 0)
					break;
				if (trickle_ms)
					usleep((useconds_t)trickle_ms * 1000);
			}
		}
		close(fd);
	}
	_exit(served);
}

/* the server's exit status: the requests it read (-1: killed) */
static int served(pid_t pid, int kill_it)
{
	int st;

	if (kill_it)
		kill(pid, SIGTERM);
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void test_post(void)
{
	static const char *const slow[] = { H200 "Content-Length: 0\r\n\r\n" };
	static const char *const ok[] = { H200 "Content-Length: 3\r\n\r\nOk." };
	static const char *const ok_then_zzzz[] = { ok[0], CHUNKED "ZZZZ\r\n\r\n" };
	struct http_conn c;
	char port[16];
	int64_t t0, t;
	pid_t pid;
	int p, rc;

	/* a byte every 200 ms: the 600 ms deadline ends the request */
	pid = serve(&p, slow, 1, 200, 1, 1);
	snprintf(port, sizeof(port), "%d", p);
	unsetenv("TRACEBOX_HTTP_TIMEOUT_MS");
	http_init(&c, "127.0.0.1", port, NULL, NULL, 600);
	t0 = ms_now();
	rc = http_post(&c, "/", "x", 1, 1024, &resp, &err);
	t = ms_now() - t0;
	T(rc == TB_ERR_IO && !strcmp(err.msg, "no complete response within 600 ms"),
	  "a byte every 200 ms: '%s'", err.msg);
	T(t >= 550 && t < 1500, "within the deadline: %lld ms", (long long)t);
	T_EQ(c.fd, -1, "the connection closed after the failure");
	http_close(&c);
	served(pid, 1);

	/* a server that takes the connection but never reads: a 32 MiB body
	 * fills the socket's buffers, the deadline ends the send */
	{
		struct sockaddr_in a = { .sin_family = AF_INET,
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
		socklen_t al = sizeof(a);
		int ls = socket(AF_INET, SOCK_STREAM, 0);
		size_t big = 32u << 20;
		char *body = calloc(1, big);

		if (ls < 0 || !body || bind(ls, (struct sockaddr *)&a, sizeof(a)) || listen(ls, 4) ||
		    getsockname(ls, (struct sockaddr *)&a, &al)) {
			T(0, "a listening socket: %s", strerror(errno));
		} else {
			snprintf(port, sizeof(port), "%d", ntohs(a.sin_port));
			http_init(&c, "127.0.0.1", port, NULL, NULL, 500);
			t0 = ms_now();
			rc = http_post(&c, "/", body, big, 1024, &resp, &err);
			t = ms_now() - t0;
			T(rc == TB_ERR_IO && !strcmp(err.msg, "cannot send the request within 500 ms"),
			  "a server that never reads: '%s'", err.msg);
			T(t >= 450 && t < 1500, "the send within the deadline: %lld ms", (long long)t);
			http_close(&c);
		}
		if (ls >= 0)
			close(ls);
		free(body);
	}

	/* the environment's deadline replaces the caller's */
	setenv("TRACEBOX_HTTP_TIMEOUT_MS", "250", 1);
	http_init(&c, "127.0.0.1", "1", NULL, NULL, 60000);
	T_EQ(c.timeout_ms, 250, "TRACEBOX_HTTP_TIMEOUT_MS=250");
	http_close(&c);
	setenv("TRACEBOX_HTTP_TIMEOUT_MS", "25x", 1);
	http_init(&c, "127.0.0.1", "1", NULL, NULL, 60000);
	T_EQ(c.timeout_ms, 60000, "TRACEBOX_HTTP_TIMEOUT_MS=25x: ignored");
	http_close(&c);
	unsetenv("TRACEBOX_HTTP_TIMEOUT_MS");

	/* kept alive for two requests, then closed: the third reconnects */
	pid = serve(&p, ok, 1, 0, 2, 2);
	snprintf(port, sizeof(port), "%d", p);
	http_init(&c, "127.0.0.1", port, NULL, NULL, 5000);
	for (int i = 0; i < 4; i++) {
		rc = http_post(&c, "/", "x", 1, 1024, &resp, &err);
		T(!rc && resp.status == 200 && resp.body.len == 3, "request %d: 200 Ok. (%s)", i + 1,
		  rc ? err.msg : "");
		T_EQ(c.reused, 1, "request %d: the connection kept", i + 1);
	}
	http_close(&c);
	T_EQ(served(pid, 0), 4, "four requests on two connections");

	/* a malformed answer on a kept-alive connection: closed, not sent again */
	pid = serve(&p, ok_then_zzzz, 2, 0, 2, 2);
	snprintf(port, sizeof(port), "%d", p);
	http_init(&c, "127.0.0.1", port, NULL, NULL, 5000);
	rc = http_post(&c, "/", "x", 1, 1024, &resp, &err);
	T(!rc && c.reused, "ZZZZ: the first answer kept the connection (%s)", err.msg);
	rc = http_post(&c, "/", "x", 1, 1024, &resp, &err);
	T(rc == TB_ERR_FORMAT && strstr(err.msg, "'ZZZZ' is not hexadecimal"), "ZZZZ: '%s'", err.msg);
	T_EQ(c.fd, -1, "ZZZZ: the connection closed");
	http_close(&c);
	T_EQ(served(pid, 0), 2, "ZZZZ: the request not sent again");
}

int main(void)
{
	test_good();
	test_bad();
	test_post();
	bb_free(&resp.body);
	return done();
}
