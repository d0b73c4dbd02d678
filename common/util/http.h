/* http.h - a small HTTP/1.1 client over a TCP socket: POST with a sized body,
 * keep-alive, timeouts, basic authentication (for ClickHouse's HTTP interface). */
/* SPDX-License-Identifier: GPL-2.0-only */
#ifndef HTTP_H
#define HTTP_H

#include <stddef.h>
#include "util/bytebuf.h"
#include "util/tb_err.h"

struct http_conn {
	char *host, *port;         /* as given */
	char *auth;                /* "Basic ..." or NULL */
	int fd;                    /* -1: not connected */
	int timeout_ms;            /* connect, and each send or receive */
	int reused;                /* the connection served a request before */
};

struct http_resp {
	int status;                /* 200, ... */
	struct bytebuf body;       /* the whole body (chunked bodies joined) */
};

/**
 * http_init - a connection to @host:@port (not opened yet); @user (NULL:
 * none) and @pass for basic authentication. Returns 0 or TB_ERR_NOMEM.
 */
int http_init(struct http_conn *c, const char *host, const char *port, const char *user,
	      const char *pass, int timeout_ms);

/**
 * http_post - POST @len bytes of @body to @target ("/?query=..."), wait for
 * the whole response into @r (its body replaced). Connects when needed; a
 * kept-alive connection the server closed meanwhile is opened again once.
 * Any status is a response: the caller judges it. Returns 0 or TB_ERR_IO
 * with @err saying what failed (connect, send, receive, a malformed reply).
 */
int http_post(struct http_conn *c, const char *target, const void *body, size_t len,
	      struct http_resp *r, struct tb_err *err);

/** http_close - close the socket and free @c's strings */
void http_close(struct http_conn *c);

/** http_urlencode - @s percent-encoded for a query string, appended to @b */
void http_urlencode(struct bytebuf *b, const char *s);

#endif
