/* http.h - a small HTTP/1.1 client over a TCP socket: POST with a sized body
 * and GET, keep-alive, a deadline per request, capped answers, basic
 * authentication (ClickHouse's HTTP interface, debuginfod servers). RFC 9112
 * (HTTP/1.1 message syntax). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HTTP_H
#define HTTP_H

#include <stddef.h>
#include <sys/types.h>
#include "util/bytebuf.h"
#include "util/tb_err.h"

/*
 * What a server may send is bounded; past a bound the request fails with
 * one line saying which (the connection is closed, nothing is retried):
 *
 * - HTTP_HEAD_MAX: the status line and header fields of a response, 1xx
 *   interim responses before it and a chunked body's trailer fields, all
 *   together: "the response header is over 64 KiB".
 * - HTTP_CHUNK_LINE_MAX: one chunk-size line, its extensions included.
 * - the body: a cap the caller passes to http_post, what the request can
 *   need: "the response body is over 1 MiB (the cap for this request)",
 *   as soon as a Content-Length or a chunk size says so, or when the bytes
 *   pass it. ClickHouse's answers (engines/export/export_ch_request.c):
 *   HTTP_BODY_ANSWER for INSERT and DDL (an empty body, or an error text),
 *   HTTP_BODY_LIST for a SELECT of names (a database's tables, a table's
 *   columns: some 200 KB for every tracepoint of a 6.1 kernel).
 * - time: each request, connect to last byte, within the connection's
 *   timeout_ms, measured on CLOCK_MONOTONIC and handed to every poll(2):
 *   a server that trickles a byte at a time fails it too. Name resolution
 *   (getaddrinfo) runs first, under the resolver's own timeouts.
 *
 * Framing is checked as RFC 9112 says: a status line "HTTP/1.x NNN",
 * header fields "name: value" (no space before the colon, no obsolete line
 * folding, no control bytes), one Content-Length (digits only; repeats must
 * agree), Transfer-Encoding "chunked" only (never with a Content-Length),
 * chunk sizes in hexadecimal with well-formed extensions (ignored), CRLF
 * (or a lone LF) after each chunk, trailer fields well-formed (ignored). A
 * body cut short by the connection's end is an error; a body with no length
 * ends with the connection. 1xx responses before the final one are skipped.
 */
#define HTTP_HEAD_MAX        (64u << 10)
#define HTTP_CHUNK_LINE_MAX  4096u
#define HTTP_BODY_ANSWER     (1u << 20)
#define HTTP_BODY_LIST       (16u << 20)

struct http_conn {
	char *host, *port;         /* as given */
	char *auth;                /* "Basic ..." or NULL */
	int fd;                    /* -1: not connected */
	int timeout_ms;            /* the budget of one whole request */
	int reused;                /* the connection served a request before */
};

struct http_resp {
	int status;                /* 200, ... */
	struct bytebuf body;       /* the whole body (chunked bodies joined) */
	int keep;                  /* the connection may carry the next request */
	size_t got;                /* bytes received for this response (0: none came) */
};

/**
 * http_init - a connection to @host:@port (not opened yet); @user (NULL:
 * none) and @pass for basic authentication; @timeout_ms, each request's
 * whole budget. TRACEBOX_HTTP_TIMEOUT_MS in the environment, a positive
 * number of milliseconds, replaces @timeout_ms (tests, slow links).
 * Returns 0 or TB_ERR_NOMEM.
 */
int http_init(struct http_conn *c, const char *host, const char *port, const char *user,
	      const char *pass, int timeout_ms);

/**
 * http_post - POST @len bytes of @body to @target ("/?query=..."), wait for
 * the whole response into @r (its body replaced), at most @max_body bytes
 * of body. Connects when needed; a kept-alive connection the server closed
 * meanwhile (the send fails, or it closes before a byte of the answer) is
 * opened again once, within the same deadline. Any status is a response:
 * the caller judges it. After any failure the connection is closed.
 * Returns 0; TB_ERR_IO with @err saying what failed (connect, send,
 * receive, the deadline, a cut answer); TB_ERR_FORMAT for a malformed or
 * oversized answer; TB_ERR_NOMEM.
 */
int http_post(struct http_conn *c, const char *target, const void *body, size_t len,
	      size_t max_body, struct http_resp *r, struct tb_err *err);

/** http_get - http_post's GET: @target fetched, no body sent */
int http_get(struct http_conn *c, const char *target, size_t max_body, struct http_resp *r,
	     struct tb_err *err);

/** http_close - close the socket and free @c's strings */
void http_close(struct http_conn *c);

/** http_urlencode - @s percent-encoded for a query string, appended to @b */
void http_urlencode(struct bytebuf *b, const char *s);

/*
 * The response parser on its own, for http_post, tests and the fuzz target:
 * it takes bytes from any source.
 */

/* Where a response's bytes come from: read at most @n bytes into @buf;
 * returns how many (0: the connection ended), or -1 with errno. */
struct http_src {
	ssize_t (*read)(void *ctx, void *buf, size_t n);
	void *ctx;
};

/**
 * http_read_response - read one response (after any 1xx ones) from @src
 * into @r: status, body (at most @max_body bytes), @r->keep (HTTP/1.1, no
 * "Connection: close", a body with a length or chunked, and no byte read
 * past its end) and @r->got.
 * Returns 0; TB_ERR_IO when @src failed or ended before the response did
 * (@err says which, with errno's text); TB_ERR_FORMAT for a malformed or
 * oversized response; TB_ERR_NOMEM. Never reads past the response's end
 * in a way the next one loses: what it read past the end clears @r->keep.
 */
int http_read_response(const struct http_src *src, size_t max_body, struct http_resp *r,
		       struct tb_err *err);

#endif
