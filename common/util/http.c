/* http.c - the HTTP/1.1 client of http.h: one request at a time on a kept-alive
 * socket, each within one deadline on the monotonic clock; the answer goes
 * through http_resp.c's parser. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <limits.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>
#include "util/http.h"

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

/* a secret's copy: zeroed before its memory goes back */
static void wipe_free(char *s)
{
	if (s)
		explicit_bzero(s, strlen(s));
	free(s);
}

int http_init(struct http_conn *c, const char *host, const char *port, const char *user,
	      const char *pass, int timeout_ms)
{
	const char *v = getenv("TRACEBOX_HTTP_TIMEOUT_MS");

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	if (v && *v) {
		char *end;
		long ms;

		errno = 0;
		ms = strtol(v, &end, 10);
		if (!errno && !*end && ms > 0 && ms <= INT_MAX)
			timeout_ms = (int)ms;
	}
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
		wipe_free(up);
		if (!enc || asprintf(&c->auth, "Basic %s", enc) < 0) {
			wipe_free(enc);
			c->auth = NULL;
			return TB_ERR_NOMEM;
		}
		wipe_free(enc);
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
	wipe_free(c->auth);
	c->host = c->port = c->auth = NULL;
}

/* ---- the socket, within the request's deadline ---- */

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Wait until @fd is ready for @events: 1; the deadline passed: 0; -1 with errno. */
static int wait_fd(int fd, short events, int64_t deadline)
{
	for (;;) {
		int64_t left = deadline - now_ms();
		struct pollfd p = { .fd = fd, .events = events };
		int n;

		if (left <= 0)
			return 0;
		n = poll(&p, 1, left > INT_MAX ? INT_MAX : (int)left);
		if (n > 0)
			return 1;      /* POLLERR and POLLHUP too: the next call says what */
		if (n < 0 && errno != EINTR)
			return -1;
	}
}

struct sock_src {
	int fd;
	int64_t deadline;
	int timed_out;
};

static ssize_t sock_read(void *ctx, void *buf, size_t n)
{
	struct sock_src *s = ctx;

	for (;;) {
		int w = wait_fd(s->fd, POLLIN, s->deadline);
		ssize_t got;

		if (w == 0) {
			s->timed_out = 1;
			errno = ETIMEDOUT;
		}
		if (w <= 0)
			return -1;
		got = recv(s->fd, buf, n, MSG_DONTWAIT);
		if (got >= 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK))
			return got;
	}
}

/* All of @iov[0..@cnt) out before @deadline: 0, or -1 with errno (ETIMEDOUT). */
static int send_within(int fd, struct iovec *iov, int cnt, int64_t deadline)
{
	while (cnt > 0) {
		ssize_t k;
		int w;

		if (!iov->iov_len) {
			iov++;
			cnt--;
			continue;
		}
		w = wait_fd(fd, POLLOUT, deadline);
		if (w == 0)
			errno = ETIMEDOUT;
		if (w <= 0)
			return -1;
		k = sendmsg(fd, &(struct msghdr){ .msg_iov = iov, .msg_iovlen = (size_t)cnt },
			    MSG_NOSIGNAL | MSG_DONTWAIT);
		if (k < 0) {
			if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK)
				continue;
			return -1;
		}
		while (cnt > 0 && (size_t)k >= iov->iov_len) {
			k -= (ssize_t)iov->iov_len;
			iov++;
			cnt--;
		}
		if (cnt > 0) {
			iov->iov_base = (char *)iov->iov_base + k;
			iov->iov_len -= (size_t)k;
		}
	}
	return 0;
}

static void disconnect(struct http_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->reused = 0;
}

/* Connect before @deadline; the socket stays non-blocking. */
static int do_connect(struct http_conn *c, int64_t deadline, struct tb_err *err)
{
	struct addrinfo hints = { 0 }, *res, *ai;
	int e, last = ECONNREFUSED;

	hints.ai_socktype = SOCK_STREAM;
	e = getaddrinfo(c->host, c->port, &hints, &res);
	if (e)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot resolve: %s", gai_strerror(e));
	for (ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK,
				ai->ai_protocol), w;
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
		w = wait_fd(fd, POLLOUT, deadline);
		e = 0;
		if (w <= 0 || getsockopt(fd, SOL_SOCKET, SO_ERROR, &e, &sl) || e) {
			last = w == 0 ? ETIMEDOUT : e ? e : errno;
			close(fd);
			if (w == 0)
				break;
			continue;
		}
		c->fd = fd;
		c->reused = 0;
		freeaddrinfo(res);
		return 0;
	}
	freeaddrinfo(res);
	if (last == ETIMEDOUT)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot connect within %d ms",
				  c->timeout_ms);
	return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot connect: %s", strerror(last));
}

/* one request: "POST" with @len bytes of @body, or "GET" with none */
static int request(struct http_conn *c, int get, const char *target, const void *body,
		   size_t len, size_t max_body, struct http_resp *r, struct tb_err *err)
{
	int64_t deadline = now_ms() + c->timeout_ms;

	for (int attempt = 0;; attempt++) {
		struct sock_src s = { .fd = -1, .deadline = deadline };
		struct http_src src = { sock_read, &s };
		struct iovec iov[4];
		char *head;
		int n = 0, was_reused, rc, e;

		if (c->fd < 0 && (rc = do_connect(c, deadline, err)))
			return rc;
		was_reused = c->reused;
		if (get ? asprintf(&head, " HTTP/1.1\r\nHost: %s:%s\r\n%s%s%s\r\n", c->host, c->port,
				   c->auth ? "Authorization: " : "", c->auth ? c->auth : "",
				   c->auth ? "\r\n" : "") < 0
			: asprintf(&head, " HTTP/1.1\r\nHost: %s:%s\r\nContent-Length: %zu\r\n"
				   "Content-Type: application/octet-stream\r\n%s%s%s\r\n", c->host,
				   c->port, len, c->auth ? "Authorization: " : "",
				   c->auth ? c->auth : "", c->auth ? "\r\n" : "") < 0)
			return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
		iov[n++] = get ? (struct iovec){ "GET ", 4 } : (struct iovec){ "POST ", 5 };
		iov[n++] = (struct iovec){ (void *)target, strlen(target) };
		iov[n++] = (struct iovec){ head, strlen(head) };
		if (len)
			iov[n++] = (struct iovec){ (void *)body, len };
		rc = send_within(c->fd, iov, n, deadline);
		e = errno;
		free(head);
		if (rc) {
			disconnect(c);
			if (e == ETIMEDOUT)
				return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
						  "cannot send the request within %d ms", c->timeout_ms);
			if (was_reused && !attempt)
				continue;     /* the server closed the kept-alive connection */
			return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot send: %s", strerror(e));
		}
		s.fd = c->fd;
		rc = http_read_response(&src, max_body, r, err);
		if (rc) {
			disconnect(c);
			if (s.timed_out)
				return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
						  "no complete response within %d ms", c->timeout_ms);
			if (was_reused && !attempt && !r->got && rc == TB_ERR_IO)
				continue;     /* closed before a byte of the answer: stale */
			return rc;
		}
		if (r->keep)
			c->reused = 1;
		else
			disconnect(c);
		return 0;
	}
}

int http_post(struct http_conn *c, const char *target, const void *body, size_t len,
	      size_t max_body, struct http_resp *r, struct tb_err *err)
{
	return request(c, 0, target, body, len, max_body, r, err);
}

int http_get(struct http_conn *c, const char *target, size_t max_body, struct http_resp *r,
	     struct tb_err *err)
{
	return request(c, 1, target, NULL, 0, max_body, r, err);
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
