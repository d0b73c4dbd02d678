/* http.c - the HTTP/1.1 client of http.h: one request at a time on a kept-alive
 * socket; Content-Length, chunked and close-delimited bodies. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <unistd.h>
#include "util/http.h"
#include "util/io.h"

#define HEAD_MAX 65536

static char *b64(const char *s)
{
	static const char tab[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
	size_t n = strlen(s), o = 0;
	char *out = malloc(4 * (n / 3 + 1) + 1);

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i += 3) {
		unsigned v = (unsigned char)s[i] << 16;

		if (i + 1 < n)
			v |= (unsigned char)s[i + 1] << 8;
		if (i + 2 < n)
			v |= (unsigned char)s[i + 2];
		out[o++] = tab[v >> 18 & 63];
		out[o++] = tab[v >> 12 & 63];
		out[o++] = i + 1 < n ? tab[v >> 6 & 63] : '=';
		out[o++] = i + 2 < n ? tab[v & 63] : '=';
	}
	out[o] = 0;
	return out;
}

int http_init(struct http_conn *c, const char *host, const char *port, const char *user,
	      const char *pass, int timeout_ms)
{
	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->timeout_ms = timeout_ms;
	c->host = strdup(host);
	c->port = strdup(port);
	if (!c->host || !c->port)
		return TB_ERR_NOMEM;
	if (user) {
		char *up, *enc;

		if (asprintf(&up, "%s:%s", user, pass ? pass : "") < 0)
			return TB_ERR_NOMEM;
		enc = b64(up);
		free(up);
		if (!enc || asprintf(&c->auth, "Basic %s", enc) < 0) {
			free(enc);
			c->auth = NULL;
			return TB_ERR_NOMEM;
		}
		free(enc);
	}
	return 0;
}

void http_close(struct http_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->host);
	free(c->port);
	free(c->auth);
	c->host = c->port = c->auth = NULL;
}

static void disconnect(struct http_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->reused = 0;
}

/* Connect within the timeout, then set it on every send and receive. */
static int do_connect(struct http_conn *c, struct tb_err *err)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	struct timeval tv = { c->timeout_ms / 1000, (c->timeout_ms % 1000) * 1000 };
	int e, last = ECONNREFUSED;

	hints.ai_socktype = SOCK_STREAM;
	e = getaddrinfo(c->host, c->port, &hints, &res);
	if (e)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot resolve: %s", gai_strerror(e));
	for (ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
				ai->ai_protocol);
		struct pollfd p;
		socklen_t sl = sizeof(e);

		if (fd < 0) {
			last = errno;
			continue;
		}
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) && errno != EINPROGRESS) {
			last = errno;
			close(fd);
			continue;
		}
		p.fd = fd;
		p.events = POLLOUT;
		e = poll(&p, 1, c->timeout_ms);
		if (e <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &sl) || e) {
			last = e > 0 ? e : ETIMEDOUT;
			close(fd);
			continue;
		}
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
		setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
		c->fd = fd;
		c->reused = 0;
		freeaddrinfo(res);
		return 0;
	}
	freeaddrinfo(res);
	return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot connect: %s", strerror(last));
}

static int send_all(struct http_conn *c, struct iovec *iov, int n)
{
	return sendvn(c->fd, iov, n, MSG_NOSIGNAL, NULL);
}

/* The connection's read side: a buffer of what came and was not used yet. */
struct rd {
	struct http_conn *c;
	char buf[16384];
	size_t pos, len;
	int got_any;
};

static int rd_fill(struct rd *r)
{
	ssize_t n;

	n = read_some(r->c->fd, r->buf, sizeof(r->buf));     /* recv(2) with no flags */
	if (n <= 0)
		return n == 0 ? 0 : -1;
	r->pos = 0;
	r->len = (size_t)n;
	r->got_any = 1;
	return 1;
}

/* One line (CRLF or LF ended) into @line, at most @cap - 1 bytes; 0, or -1. */
static int rd_line(struct rd *r, char *line, size_t cap)
{
	size_t n = 0;

	for (;;) {
		if (r->pos == r->len && rd_fill(r) <= 0)
			return -1;
		char ch = r->buf[r->pos++];

		if (ch == '\n')
			break;
		if (n + 1 >= cap)
			return -1;
		line[n++] = ch;
	}
	if (n && line[n - 1] == '\r')
		n--;
	line[n] = 0;
	return 0;
}

/* @n bytes (or up to the end when @n is SIZE_MAX) into @b; 0, or -1. */
static int rd_body(struct rd *r, struct bytebuf *b, size_t n)
{
	while (n) {
		size_t k;
		int f;

		if (r->pos == r->len) {
			f = rd_fill(r);
			if (f == 0 && n == SIZE_MAX)
				return 0;
			if (f <= 0)
				return -1;
		}
		k = r->len - r->pos;
		if (k > n)
			k = n;
		bb_put(b, r->buf + r->pos, k);
		r->pos += k;
		if (n != SIZE_MAX)
			n -= k;
	}
	return b->oom ? -1 : 0;
}

static int read_response(struct http_conn *c, struct http_resp *resp, int *closing,
			 int *got_any, struct tb_err *err)
{
	struct rd *r = malloc(sizeof(*r));
	char line[4096];
	size_t clen = SIZE_MAX, head = 0;
	int chunked = 0, rc = -1, minor = 1;

	if (!r)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	r->c = c;
	r->pos = r->len = 0;
	r->got_any = 0;
	resp->body.len = 0;
	*closing = 0;
	if (rd_line(r, line, sizeof(line)) ||
	    sscanf(line, "HTTP/1.%d %d", &minor, &resp->status) != 2) {
		*got_any = r->got_any;
		rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "%s", r->got_any ?
				"not an HTTP response" : errno == EAGAIN ? "no answer (timed out)" :
				"the connection closed without an answer");
		goto out;
	}
	*got_any = 1;
	*closing = minor == 0;
	for (;;) {
		if (rd_line(r, line, sizeof(line))) {
			rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cut or oversized response header");
			goto out;
		}
		head += strlen(line);
		if (!line[0])
			break;
		if (head > HEAD_MAX) {
			rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "response header too large");
			goto out;
		}
		if (!strncasecmp(line, "Content-Length:", 15))
			clen = strtoull(line + 15, NULL, 10);
		else if (!strncasecmp(line, "Transfer-Encoding:", 18) && strcasestr(line, "chunked"))
			chunked = 1;
		else if (!strncasecmp(line, "Connection:", 11) && strcasestr(line, "close"))
			*closing = 1;
	}
	if (chunked) {
		for (;;) {
			size_t n;

			if (rd_line(r, line, sizeof(line)))
				goto cut;
			n = strtoull(line, NULL, 16);
			if (!n)
				break;
			if (rd_body(r, &resp->body, n) || rd_line(r, line, sizeof(line)))
				goto cut;
		}
		while (!rd_line(r, line, sizeof(line)) && line[0])   /* trailers */
			;
	} else if (clen != SIZE_MAX) {
		if (rd_body(r, &resp->body, clen))
			goto cut;
	} else {
		*closing = 1;
		if (rd_body(r, &resp->body, SIZE_MAX))
			goto cut;
	}
	rc = 0;
	goto out;
cut:
	rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "the response was cut (%s)",
			errno == EAGAIN ? "timed out" : "connection closed");
out:
	free(r);
	return rc;
}

int http_post(struct http_conn *c, const char *target, const void *body, size_t len,
	      struct http_resp *r, struct tb_err *err)
{
	for (int attempt = 0;; attempt++) {
		char head[1024];
		struct iovec iov[4];
		int n = 0, closing = 1, got_any = 0, was_reused, rc;

		if (c->fd < 0 && (rc = do_connect(c, err)))
			return rc;
		was_reused = c->reused;
		snprintf(head, sizeof(head), " HTTP/1.1\r\nHost: %s:%s\r\nContent-Length: %zu\r\n"
			 "Content-Type: application/octet-stream\r\n%s%s%s\r\n", c->host, c->port,
			 len, c->auth ? "Authorization: " : "", c->auth ? c->auth : "",
			 c->auth ? "\r\n" : "");
		iov[n++] = (struct iovec){ "POST ", 5 };
		iov[n++] = (struct iovec){ (void *)target, strlen(target) };
		iov[n++] = (struct iovec){ head, strlen(head) };
		if (len)
			iov[n++] = (struct iovec){ (void *)body, len };
		if (send_all(c, iov, n)) {
			int e = errno;

			disconnect(c);
			if (was_reused && !attempt)
				continue;     /* the server closed the kept-alive connection */
			return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot send: %s",
					  e == EAGAIN ? "timed out" : strerror(e));
		}
		rc = read_response(c, r, &closing, &got_any, err);
		if (rc) {
			disconnect(c);
			if (was_reused && !attempt && !got_any)
				continue;
			return rc;
		}
		if (closing)
			disconnect(c);
		else
			c->reused = 1;
		return 0;
	}
}

void http_urlencode(struct bytebuf *b, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";

	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;

		if ((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
		    ch == '-' || ch == '_' || ch == '.' || ch == '~') {
			bb_put(b, s, 1);
		} else {
			char e[3] = { '%', hex[ch >> 4], hex[ch & 15] };

			bb_put(b, e, 3);
		}
	}
}
