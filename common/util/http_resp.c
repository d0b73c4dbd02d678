/* http_resp.c - the response parser of http.h (RFC 9112): bytes from any
 * source (a socket, a buffer), every byte of framing checked, the header
 * and the body capped; http.c drives it over the socket. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "util/http.h"

/* What was read and not used yet, the line being read, the header budget. */
struct rd {
	const struct http_src *src;
	unsigned char buf[16384];
	size_t pos, len;
	size_t got;                 /* bytes the source gave */
	int ended;                  /* the source ended */
	int rd_errno;               /* the source failed with it */
	size_t head_left;           /* of HTTP_HEAD_MAX */
	size_t line_len;            /* r->line's bytes, the line end left out */
	char line[HTTP_HEAD_MAX + 1];
};

/* Bytes in r->buf: 1; the source ended: 0; it failed: -1 (r->rd_errno). */
static int rd_fill(struct rd *r)
{
	ssize_t n;

	if (r->pos < r->len)
		return 1;
	if (r->ended || r->rd_errno)
		return r->ended ? 0 : -1;
	errno = 0;
	n = r->src->read(r->src->ctx, r->buf, sizeof(r->buf));
	if (n < 0 || (size_t)n > sizeof(r->buf)) {
		r->rd_errno = n < 0 && errno ? errno : EIO;
		return -1;
	}
	if (n == 0) {
		r->ended = 1;
		return 0;
	}
	r->pos = 0;
	r->len = (size_t)n;
	r->got += (size_t)n;
	return 1;
}

#define L_END  (-1)    /* the source ended or failed first */
#define L_LONG (-2)    /* more than @max bytes */

/* One line, ended by CRLF or a lone LF, into r->line (its end removed, a
 * NUL after it, r->line_len its length), at most @max bytes with its end.
 * Returns the bytes it took, L_END or L_LONG (r->line then holds what fit). */
static long rd_line(struct rd *r, size_t max)
{
	size_t n = 0;
	unsigned char *s, *nl;
	size_t k;

	for (;;) {
		if (rd_fill(r) <= 0) {
			r->line_len = n;
			r->line[n] = 0;
			return L_END;
		}
		s = r->buf + r->pos;
		nl = memchr(s, '\n', r->len - r->pos);
		k = nl ? (size_t)(nl - s) + 1 : r->len - r->pos;
		if (n + k > max) {
			k = max - n;
			memcpy(r->line + n, s, k);
			r->pos += k;
			r->line_len = n + k;
			r->line[n + k] = 0;
			return L_LONG;
		}
		memcpy(r->line + n, s, k);
		n += k;
		r->pos += k;
		if (nl)
			break;
	}
	r->line_len = n - 1;
	if (r->line_len && r->line[r->line_len - 1] == '\r')
		r->line_len--;
	r->line[r->line_len] = 0;
	return (long)n;
}

static int is_tchar(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
	       (ch && strchr("!#$%&'*+-.^_`|~", ch));
}

/* a field value's byte: HTAB, SP, VCHAR, obs-text (no CR, LF, NUL, DEL...) */
static int is_vbyte(unsigned char ch)
{
	return ch == '\t' || (ch >= ' ' && ch != 0x7f);
}

static int is_ows(char ch)
{
	return ch == ' ' || ch == '\t';
}

/* @s (@n bytes from the server) fit for a message: printable ASCII, at most 32 */
static const char *shown(const char *s, size_t n, char out[40])
{
	size_t k = 0;

	for (; k < n && k < 32; k++)
		out[k] = s[k] >= ' ' && s[k] < 0x7f && s[k] != '\'' ? s[k] : '?';
	if (n > 32) {
		memcpy(out + k, "...", 3);
		k += 3;
	}
	out[k] = 0;
	return out;
}

/* A byte count for a message: "1 MiB", "64 KiB", "100 bytes" */
static const char *size_text(size_t n, char out[32])
{
	if (n && !(n & ((1u << 20) - 1)))
		snprintf(out, 32, "%zu MiB", n >> 20);
	else if (n && !(n & 1023))
		snprintf(out, 32, "%zu KiB", n >> 10);
	else
		snprintf(out, 32, "%zu bytes", n);
	return out;
}

static int over_cap(size_t max_body, struct tb_err *err)
{
	char t[32];

	return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
			  "the response body is over %s (the cap for this request)",
			  size_text(max_body, t));
}

/* The source failed or ended where the response goes on: say which. */
static int cut(struct rd *r, const char *where, struct tb_err *err)
{
	if (r->rd_errno)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "cannot receive: %s",
				  strerror(r->rd_errno));
	if (!r->got)
		return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
				  "the connection closed without an answer");
	return tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET,
			  "the response was cut: the connection closed %s", where);
}

/* "HTTP/1.D NNN[ reason]": 0 and the minor version and status, or -1 */
static int parse_status(const char *l, size_t n, int *minor, int *status)
{
	if (n < 12 || memcmp(l, "HTTP/1.", 7) || l[7] < '0' || l[7] > '9' || l[8] != ' ' ||
	    l[9] < '1' || l[9] > '5' || l[10] < '0' || l[10] > '9' || l[11] < '0' ||
	    l[11] > '9' || (n > 12 && l[12] != ' '))
		return -1;
	for (size_t i = 12; i < n; i++)
		if (!is_vbyte((unsigned char)l[i]))
			return -1;
	*minor = l[7] - '0';
	*status = (l[9] - '0') * 100 + (l[10] - '0') * 10 + (l[11] - '0');
	return 0;
}

/* "name: value": 0 with the name's length and the value without its
 * surrounding whitespace, or -1 (a space before the colon, a line folded
 * the obsolete way, a control byte) */
static int parse_field(const char *l, size_t n, size_t *name_len, const char **val,
		       size_t *val_len)
{
	size_t i = 0, e;

	while (i < n && is_tchar((unsigned char)l[i]))
		i++;
	if (!i || i == n || l[i] != ':')
		return -1;
	*name_len = i;
	for (e = ++i; e < n; e++)
		if (!is_vbyte((unsigned char)l[e]))
			return -1;
	while (i < n && is_ows(l[i]))
		i++;
	while (n > i && is_ows(l[n - 1]))
		n--;
	*val = l + i;
	*val_len = n - i;
	return 0;
}

static int name_is(const char *l, size_t n, const char *name)
{
	return n == strlen(name) && !strncasecmp(l, name, n);
}

/* The next element of a comma-separated list at *@s (before @end), without
 * its whitespace: its start and *@n, or NULL at the end. Empty elements are
 * skipped (RFC 9110 5.6.1). */
static const char *list_next(const char **s, const char *end, size_t *n)
{
	while (*s < end) {
		const char *a = *s, *b = memchr(a, ',', (size_t)(end - a));
		const char *z = b ? b : end;

		*s = b ? b + 1 : end;
		while (a < z && is_ows(*a))
			a++;
		while (z > a && is_ows(z[-1]))
			z--;
		if (z > a) {
			*n = (size_t)(z - a);
			return a;
		}
	}
	return NULL;
}

/* What the header says about the body. */
struct framing {
	int minor, status;
	int close;                  /* Connection: close */
	int chunked;
	int has_len;
	uint64_t len;               /* Content-Length */
};

static int bad_header(const char *what, struct tb_err *err)
{
	return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "malformed response header: %s", what);
}

/* One header field into @f: 0, or an error. */
static int header_field(struct framing *f, const char *l, size_t n, struct tb_err *err)
{
	const char *v, *e, *el;
	size_t nl, vl, k;
	char t[40];

	if (is_ows(l[0]))
		return bad_header("a line folded the obsolete way", err);
	if (parse_field(l, n, &nl, &v, &vl))
		return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
				  "malformed response header: not a field: '%s'", shown(l, n, t));
	e = v + vl;
	if (name_is(l, nl, "Content-Length")) {
		uint64_t x = 0;

		if (!vl)
			return bad_header("an empty Content-Length", err);
		for (const char *p = v; p < e; p++) {
			if (*p < '0' || *p > '9')
				return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
						  "malformed response header: Content-Length '%s'",
						  shown(v, vl, t));
			if (x > (UINT64_MAX - 9) / 10)
				return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
						  "malformed response header: Content-Length '%s' "
						  "is too large", shown(v, vl, t));
			x = x * 10 + (uint64_t)(*p - '0');
		}
		if (f->has_len && f->len != x)
			return bad_header("two Content-Length values that differ", err);
		f->has_len = 1;
		f->len = x;
	} else if (name_is(l, nl, "Transfer-Encoding")) {
		while ((el = list_next(&v, e, &k))) {
			if (!name_is(el, k, "chunked"))
				return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
						  "transfer coding '%s' is not supported",
						  shown(el, k, t));
			if (f->chunked)
				return bad_header("chunked twice", err);
			f->chunked = 1;
		}
	} else if (name_is(l, nl, "Connection")) {
		while ((el = list_next(&v, e, &k)))
			if (name_is(el, k, "close"))
				f->close = 1;
	}
	return 0;
}

/* The status line and the header fields, after any 1xx responses. */
static int read_head(struct rd *r, struct framing *f, struct tb_err *err)
{
	for (;;) {
		long k = rd_line(r, r->head_left);
		int rc;

		if (k == L_END && !r->line_len)
			return cut(r, "before the status line", err);
		if (k < 0 && (r->line_len < 5 ? memcmp(r->line, "HTTP/", r->line_len) :
			      memcmp(r->line, "HTTP/", 5)))
			return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "not an HTTP response");
		if (k == L_LONG)
			goto too_long;
		if (k == L_END)
			return cut(r, "in the status line", err);
		r->head_left -= (size_t)k;
		if (parse_status(r->line, r->line_len, &f->minor, &f->status))
			return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "not an HTTP response");
		for (;;) {
			k = rd_line(r, r->head_left);
			if (k == L_LONG)
				goto too_long;
			if (k == L_END)
				return cut(r, "in the response header", err);
			r->head_left -= (size_t)k;
			if (!r->line_len)
				break;
			if ((rc = header_field(f, r->line, r->line_len, err)))
				return rc;
		}
		if (f->status == 101)
			return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
					  "unexpected 101 (Switching Protocols)");
		if (f->status >= 200)
			break;
		memset(f, 0, sizeof(*f));     /* 1xx: the final response follows */
	}
	if (f->chunked && f->has_len)
		return bad_header("both Transfer-Encoding and Content-Length", err);
	return 0;
too_long:
	return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "the response header is over 64 KiB");
}

#define RD_CUT 1     /* rd_body: the source failed or ended first */

/* @n bytes of body (or up to the source's end when @to_end), capped:
 * 0, RD_CUT, or an error (over the cap, out of memory). */
static int rd_body(struct rd *r, struct http_resp *resp, uint64_t n, int to_end,
		   size_t max_body, struct tb_err *err)
{
	while (to_end || n) {
		size_t k;
		int f = rd_fill(r);

		if (f < 0 || (f == 0 && !to_end))
			return RD_CUT;
		if (f == 0)
			break;
		k = r->len - r->pos;
		if (!to_end && k > n)
			k = (size_t)n;
		if (k > max_body - resp->body.len)
			return over_cap(max_body, err);
		bb_put(&resp->body, r->buf + r->pos, k);
		r->pos += k;
		if (!to_end)
			n -= k;
	}
	return resp->body.oom ? tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory") : 0;
}

/* A chunk-size line's extensions (RFC 9112 7.1.1), after the size: 0 when
 * well formed (they are ignored), -1 */
static int chunk_ext_ok(const char *s, size_t n)
{
	size_t i = 0, j;

	for (;;) {
		for (j = i; j < n && is_ows(s[j]); j++)
			;
		if (j == n)
			return j == i ? 0 : -1;
		if (s[j] != ';')
			return -1;
		for (i = j + 1; i < n && is_ows(s[i]); i++)
			;
		for (j = i; j < n && is_tchar((unsigned char)s[j]); j++)
			;
		if (j == i)
			return -1;
		for (i = j; i < n && is_ows(s[i]); i++)
			;
		if (i == n || s[i] != '=') {
			i = j;
			continue;
		}
		for (i++; i < n && is_ows(s[i]); i++)
			;
		if (i < n && s[i] == '"') {
			for (i++;; i++) {
				unsigned char ch;

				if (i >= n)
					return -1;
				ch = (unsigned char)s[i];
				if (ch == '"')
					break;
				if (ch == '\\' && (++i >= n || !is_vbyte((unsigned char)s[i])))
					return -1;
				if (ch != '\\' && !is_vbyte(ch))
					return -1;
			}
			i++;
		} else {
			for (j = i; j < n && is_tchar((unsigned char)s[j]); j++)
				;
			if (j == i)
				return -1;
			i = j;
		}
	}
}

static int bad_chunk(const char *what, const char *s, size_t n, struct tb_err *err)
{
	char t[40];

	return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET, "malformed chunked body: %s%s%s",
			  s ? "chunk size '" : what, s ? shown(s, n, t) : "", s ? what : "");
}

/* A chunked body (RFC 9112 7.1): chunks, the last chunk, the trailers. */
static int rd_chunked(struct rd *r, struct http_resp *resp, size_t max_body, struct tb_err *err)
{
	for (;;) {
		long k = rd_line(r, HTTP_CHUNK_LINE_MAX);
		size_t left = max_body - resp->body.len, v = 0, i = 0;
		int over = 0, rc;

		if (k == L_END)
			return cut(r, "inside its chunked body", err);
		if (k == L_LONG)
			return bad_chunk("a chunk-size line over 4096 bytes", NULL, 0, err);
		for (; i < r->line_len; i++) {
			char ch = r->line[i];
			unsigned d = ch >= '0' && ch <= '9' ? (unsigned)(ch - '0') :
				     ch >= 'a' && ch <= 'f' ? (unsigned)(ch - 'a' + 10) :
				     ch >= 'A' && ch <= 'F' ? (unsigned)(ch - 'A' + 10) : 16;

			if (d == 16)
				break;
			if (over || v > left >> 4 || (v << 4) + d > left)
				over = 1;
			else
				v = (v << 4) + d;
		}
		if (!i)
			return bad_chunk("' is not hexadecimal", r->line, r->line_len, err);
		if (chunk_ext_ok(r->line + i, r->line_len - i))
			return bad_chunk("' has malformed extensions", r->line, r->line_len, err);
		if (over)
			return over_cap(max_body, err);
		if (!v)
			break;
		if ((rc = rd_body(r, resp, v, 0, max_body, err)))
			return rc == RD_CUT ? cut(r, "inside its chunked body", err) : rc;
		k = rd_line(r, 2);
		if (k == L_END)
			return cut(r, "inside its chunked body", err);
		if (k < 0 || r->line_len)
			return bad_chunk("no CRLF after a chunk's data", NULL, 0, err);
	}
	for (;;) {                 /* trailer fields, in the header's budget */
		long k = rd_line(r, r->head_left);
		size_t nl, vl;
		const char *v;
		char t[40];

		if (k == L_END)
			return cut(r, "in the trailers of its chunked body", err);
		if (k == L_LONG)
			return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
					  "the response header and trailers are over 64 KiB");
		r->head_left -= (size_t)k;
		if (!r->line_len)
			return 0;
		if (is_ows(r->line[0]) || parse_field(r->line, r->line_len, &nl, &v, &vl))
			return tb_err_set(err, TB_ERR_FORMAT, TB_NO_OFFSET,
					  "malformed chunked body: not a trailer field: '%s'",
					  shown(r->line, r->line_len, t));
	}
}

int http_read_response(const struct http_src *src, size_t max_body, struct http_resp *resp,
		       struct tb_err *err)
{
	struct rd *r = malloc(sizeof(*r));
	struct framing f = { 0 };
	int rc, framed = 1;

	resp->body.len = 0;
	resp->status = 0;
	resp->keep = 0;
	resp->got = 0;
	if (!r)
		return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
	r->src = src;
	r->pos = r->len = r->got = 0;
	r->ended = r->rd_errno = 0;
	r->head_left = HTTP_HEAD_MAX;
	if ((rc = read_head(r, &f, err)))
		goto out;
	resp->status = f.status;
	if (f.status == 204 || f.status == 304) {
		rc = 0;                                /* no body, whatever the header says */
	} else if (f.chunked) {
		rc = rd_chunked(r, resp, max_body, err);
	} else if (f.has_len) {
		if (f.len > max_body) {
			rc = over_cap(max_body, err);
			goto out;
		}
		rc = rd_body(r, resp, f.len, 0, max_body, err);
		if (rc == RD_CUT) {
			if (r->rd_errno) {
				rc = cut(r, "", err);
			} else {
				char a[32], b[32];

				snprintf(a, sizeof(a), "%zu", resp->body.len);
				snprintf(b, sizeof(b), "%llu", (unsigned long long)f.len);
				rc = tb_err_set(err, TB_ERR_IO, TB_NO_OFFSET, "the response was cut: "
						"%s of %s body bytes, then the connection closed", a, b);
			}
		}
	} else {
		framed = 0;                            /* the body ends with the connection */
		rc = rd_body(r, resp, 0, 1, max_body, err);
		if (rc == RD_CUT)
			rc = cut(r, "", err);
	}
	if (!rc)
		resp->keep = f.minor >= 1 && !f.close && framed && r->pos == r->len;
out:
	resp->got = r->got;
	free(r);
	return rc;
}
