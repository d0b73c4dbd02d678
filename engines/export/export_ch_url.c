/* export_ch_url.c - the clickhouse:// URL: userinfo as RFC 3986 splits it
 * (section 3.2: the last '@' before the host, percent-decoding), hosts and
 * ports, the database and parameters checked as names before they reach
 * SQL, and the URL as messages may show it (no password). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "export/export_ch_url.h"

/* ClickHouse's own databases: never a target */
static const char *const own_dbs[] = {
	"system", "information_schema", "_temporary_and_external_tables", NULL
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* [s, s + n) percent-decoded into a malloc'd *@out; 0, -1 out of memory,
 * -2 a '%' without two hex digits after it or one that makes a NUL (*@out
 * NULL after either) */
static int pct_decode(const char *s, size_t n, char **out)
{
	char *o = malloc(n + 1);
	size_t k = 0;

	*out = o;
	if (!o)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] != '%') {
			o[k++] = s[i];
			continue;
		}
		int hi = i + 2 < n ? hexval(s[i + 1]) : -1, lo = i + 2 < n ? hexval(s[i + 2]) : -1;

		if (hi < 0 || lo < 0 || !(hi | lo)) {
			explicit_bzero(o, k);     /* what was decoded of a password */
			free(o);
			*out = NULL;
			return -2;
		}
		o[k++] = (char)(hi << 4 | lo);
		i += 2;
	}
	o[k] = 0;
	return 0;
}

/* a name ClickHouse reads unquoted: [A-Za-z_][A-Za-z0-9_]* */
static int plain_name(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
		      (*s >= '0' && *s <= '9') || *s == '_'))
			return 0;
	return 1;
}

static int bad(struct tb_err *err, const char *what, const char *val)
{
	return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
			  "%s '%.100s' is no name (letters, digits and _, not starting with a digit)",
			  what, val);
}

static int nomem(struct tb_err *err)
{
	return tb_err_set(err, TB_ERR_NOMEM, TB_NO_OFFSET, "out of memory");
}

/* the query's NAME=VALUE pairs, '&' between them, into @u */
static int params(char *q, struct ch_url *u, struct tb_err *err)
{
	char *save = NULL;

	for (char *kv = strtok_r(q, "&", &save); kv; kv = strtok_r(NULL, "&", &save)) {
		char *eq = strchr(kv, '=');

		if (eq)
			*eq = 0;
		if (strcmp(kv, "cluster"))
			return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
					  "unknown URL parameter '%.60s' (clickhouse:// takes "
					  "?cluster=NAME)", kv);
		if (u->cluster)
			return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
					  "URL parameter cluster given twice");
		if (!eq || !plain_name(eq + 1))
			return bad(err, "URL parameter cluster:", eq ? eq + 1 : "");
		if (!(u->cluster = strdup(eq + 1)))
			return nomem(err);
	}
	return 0;
}

/* "HOST[:PORT],..." into u->host and u->port */
static int hosts(const char *s, size_t n, struct ch_url *u, struct tb_err *err)
{
	const char *end = s + n;

	for (const char *h = s; h <= end;) {
		const char *comma = memchr(h, ',', (size_t)(end - h)), *e = comma ? comma : end;
		const char *colon = NULL;
		char **hp, **pp;

		for (const char *c = h; c < e; c++)
			if (*c == ':')
				colon = c;
		hp = realloc(u->host, (size_t)(u->nr_hosts + 1) * sizeof(*hp));
		if (hp)
			u->host = hp;
		pp = realloc(u->port, (size_t)(u->nr_hosts + 1) * sizeof(*pp));
		if (pp)
			u->port = pp;
		if (!hp || !pp)
			return nomem(err);
		hp[u->nr_hosts] = strndup(h, (size_t)((colon ? colon : e) - h));
		pp[u->nr_hosts] = colon ? strndup(colon + 1, (size_t)(e - colon - 1)) : strdup("8123");
		u->nr_hosts++;
		if (!hp[u->nr_hosts - 1] || !pp[u->nr_hosts - 1])
			return nomem(err);
		if (!*hp[u->nr_hosts - 1])
			return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
					  "the URL names a server with no host");
		{
			const char *p = pp[u->nr_hosts - 1];
			unsigned long v = 0;

			for (const char *c = p; *c && v <= 65535; c++)
				v = *c >= '0' && *c <= '9' ? v * 10 + (unsigned long)(*c - '0') : 65536;
			if (!*p || !v || v > 65535)
				return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
						  "port '%.20s' of server %.100s: a number from 1 to 65535",
						  p, hp[u->nr_hosts - 1]);
		}
		h = e + 1;
	}
	return 0;
}

int ch_url_parse(const char *url, struct ch_url *u, struct tb_err *err)
{
	const char *p = url + strlen("clickhouse://"), *end, *at = NULL, *host;
	char *path = NULL, *q;
	int rc;

	memset(u, 0, sizeof(*u));
	end = p + strcspn(p, "/?#");
	for (const char *c = p; c < end; c++)
		if (*c == '@')
			at = c;
	if (strchr(end, '@'))
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "'@' after the host: "
				  "write '/', '?' and '#' of a password as %%2F, %%3F and %%23");
	host = p;
	if (at) {
		const char *colon = memchr(p, ':', (size_t)(at - p));

		rc = pct_decode(p, (size_t)((colon ? colon : at) - p), &u->user);
		if (!rc && colon)
			rc = pct_decode(colon + 1, (size_t)(at - colon - 1), &u->pass);
		if (rc == -1)
			return nomem(err);
		if (rc)
			return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET, "the URL's user or "
					  "password has a '%%' not followed by two hex digits");
		host = at + 1;
	}
	if (*end != '/' || !end[1] || end[1] == '?')
		return tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
				  "the URL names no database (clickhouse://HOST[:PORT]/DB)");
	if ((rc = hosts(host, (size_t)(end - host), u, err)))
		return rc;
	if (!(path = strdup(end + 1)))
		return nomem(err);
	if ((q = strchr(path, '?')))
		*q++ = 0;
	if (!plain_name(path)) {
		rc = bad(err, "database name", path);
		goto out;
	}
	for (int i = 0; own_dbs[i]; i++)
		if (!strcasecmp(path, own_dbs[i])) {
			rc = tb_err_set(err, TB_ERR_UNSUPPORTED, TB_NO_OFFSET,
					"database '%s' is ClickHouse's own: choose another", path);
			goto out;
		}
	if (q && (rc = params(q, u, err)))
		goto out;
	u->db = path;
	path = NULL;
	if (!u->cluster && !(u->cluster = strdup("tracebox")))
		rc = nomem(err);
out:
	free(path);
	return rc;
}

void ch_url_free(struct ch_url *u)
{
	if (u->pass) {
		explicit_bzero(u->pass, strlen(u->pass));
		free(u->pass);
	}
	free(u->user);
	for (int i = 0; i < u->nr_hosts; i++) {
		free(u->host[i]);
		free(u->port[i]);
	}
	free(u->host);
	free(u->port);
	free(u->db);
	free(u->cluster);
	memset(u, 0, sizeof(*u));
}

char *ch_url_shown(const char *target)
{
	const char *p = strchr(target, ':'), *at = strrchr(target, '@'), *colon;
	size_t n = strlen(target);
	char *out = malloc(n + 1);

	if (!out)
		return NULL;
	colon = p && at > p ? memchr(p + 1, ':', (size_t)(at - p - 1)) : NULL;
	if (!colon) {
		memcpy(out, target, n + 1);
		return out;
	}
	memcpy(out, target, (size_t)(colon - target));
	memcpy(out + (colon - target), at, n - (size_t)(at - target) + 1);
	return out;
}
