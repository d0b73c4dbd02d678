/* sym_debuginfod.c - debug files and executables by build-id from the servers DEBUGINFOD_URLS names, over our own HTTP client, cached as elfutils' client caches them. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "symbols/elf_buildid.h"
#include "symbols/sym_debuginfod.h"
#include "symbols/sym_elf.h"
#include "util/http.h"
#include "util/io.h"

#define DI_TIMEOUT_MS 10000       /* a request's whole budget (DEBUGINFOD_TIMEOUT: seconds) */
#define DI_MAX_SIZE (256u << 20)  /* the largest file taken (DEBUGINFOD_MAXSIZE lowers it) */

/* a server of DEBUGINFOD_URLS: http://HOST[:PORT][/PATH] */
struct di_server {
	char host[256], port[8], path[512];
	int dead;                 /* down, slow or hostile once: not asked again */
};

static int parse_url(const char *u, size_t n, struct di_server *s)
{
	const char *host = u + 7, *end = u + n, *slash, *colon;
	size_t hl;

	memset(s, 0, sizeof(*s));
	if (n < 8 || strncmp(u, "http://", 7))
		return -1;
	slash = memchr(host, '/', (size_t)(end - host));
	if (!slash)
		slash = end;
	colon = memchr(host, ':', (size_t)(slash - host));
	hl = (size_t)((colon ? colon : slash) - host);
	if (!hl || hl >= sizeof(s->host) || (size_t)(end - slash) >= sizeof(s->path))
		return -1;
	memcpy(s->host, host, hl);
	if (colon) {
		size_t pl = (size_t)(slash - colon - 1);

		if (!pl || pl >= sizeof(s->port) || strspn(colon + 1, "0123456789") < pl)
			return -1;
		memcpy(s->port, colon + 1, pl);
	} else {
		strcpy(s->port, "80");
	}
	memcpy(s->path, slash, (size_t)(end - slash));
	while (*s->path && s->path[strlen(s->path) - 1] == '/')
		s->path[strlen(s->path) - 1] = 0;
	return 0;
}

int sym_debuginfod_init(struct sym_debuginfod *di)
{
	const char *urls = getenv("DEBUGINFOD_URLS"), *t, *v;

	memset(di, 0, sizeof(*di));
	if (!urls)
		return 0;
	for (const char *p = urls; *p;) {
		size_t n;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (!n)
			break;
		if (di->nr < SYM_DI_SERVERS) {
			struct di_server *s = calloc(1, sizeof(*s));

			if (!s)
				return -1;
			if (parse_url(p, n, s)) {
				snprintf(di->warning, sizeof(di->warning),
					 "debuginfod: %.*s is not an http:// URL (no TLS here): not used",
					 (int)(n > 200 ? 200 : n), p);
				free(s);
			} else {
				di->servers[di->nr++] = s;
			}
		}
		p += n;
	}
	di->timeout_ms = DI_TIMEOUT_MS;
	if ((t = getenv("DEBUGINFOD_TIMEOUT")) && atoi(t) > 0 && atoi(t) < 3600)
		di->timeout_ms = atoi(t) * 1000;
	di->max_size = DI_MAX_SIZE;
	if ((v = getenv("DEBUGINFOD_MAXSIZE")) && strtoull(v, NULL, 10) > 0 &&
	    strtoull(v, NULL, 10) < DI_MAX_SIZE)
		di->max_size = (size_t)strtoull(v, NULL, 10);
	return 0;
}

void sym_debuginfod_free(struct sym_debuginfod *di)
{
	for (size_t i = 0; i < di->nr; i++)
		free(di->servers[i]);
	memset(di, 0, sizeof(*di));
}

/* elfutils' client cache: $DEBUGINFOD_CACHE_PATH, else
 * $XDG_CACHE_HOME/debuginfod_client, else ~/.cache/debuginfod_client */
static int cache_dir(char *out, size_t n)
{
	const char *p = getenv("DEBUGINFOD_CACHE_PATH"), *x = getenv("XDG_CACHE_HOME"),
		   *h = getenv("HOME");

	if (p && *p)
		snprintf(out, n, "%s", p);
	else if (x && *x)
		snprintf(out, n, "%s/debuginfod_client", x);
	else if (h && *h)
		snprintf(out, n, "%s/.cache/debuginfod_client", h);
	else
		return -1;
	return 0;
}

/* whether @path is an ELF file of build-id @bid (a server's answer is
 * hostile: anything else is thrown away) */
static int has_build_id(const char *path, const unsigned char *bid, size_t len)
{
	struct sym_elf e;
	unsigned char id[20];
	char why[256];
	size_t n;

	if (sym_elf_open_file(&e, path, why, sizeof(why)))
		return 0;
	n = sym_elf_build_id(&e, id);
	sym_elf_close(&e);
	return n == len && !memcmp(id, bid, len);
}

/* The body of a 200 answer into @final through a temporary file: 0, -1 */
static int store(const struct bytebuf *body, const char *final)
{
	char tmp[4200];
	int fd, ok;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", final);
	if ((fd = mkstemp(tmp)) < 0)
		return -1;
	ok = !body->oom && writen(fd, body->p, body->len) == 0;
	ok = !close(fd) && ok;
	if (!ok || rename(tmp, final)) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

/* one server: 1 fetched into @path, 0 it has none, -1 it failed (@why) */
static int ask(struct sym_debuginfod *di, struct di_server *s, const char *hex, const char *kind,
	       const char *path, char *why, size_t wn)
{
	struct http_conn c;
	struct http_resp r = { 0 };
	struct tb_err err = { 0 };
	char target[700];
	int got = -1;

	if (http_init(&c, s->host, s->port, NULL, NULL, di->timeout_ms)) {
		snprintf(why, wn, "out of memory");
		return -1;
	}
	snprintf(target, sizeof(target), "%s/buildid/%s/%s", s->path, hex, kind);
	if (http_get(&c, target, di->max_size, &r, &err))
		snprintf(why, wn, "%s", err.msg);
	else if (r.status == 404)
		got = 0;
	else if (r.status != 200)
		snprintf(why, wn, "answered %d", r.status);
	else if (store(&r.body, path))
		snprintf(why, wn, "cannot write %s", path);
	else
		got = 1;
	bb_free(&r.body);
	http_close(&c);
	return got;
}

int sym_debuginfod_fetch(struct sym_debuginfod *di, const unsigned char *bid, size_t len,
			 const char *kind, char *out, size_t n)
{
	char hex[41], dir[4096];

	if (!di->nr || !len || len > 20 || cache_dir(dir, sizeof(dir)))
		return -1;
	buildid_hex(bid, (int)len, hex);
	snprintf(out, n, "%s/%s/%s", dir, hex, kind);
	if (has_build_id(out, bid, len))
		return 0;                 /* cached before */
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/%s", hex);
	if (mkdir_p(dir, 0700))      /* as elfutils makes them */
		return -1;
	for (size_t i = 0; i < di->nr; i++) {
		struct di_server *s = di->servers[i];
		char why[320] = "";
		int got;

		if (s->dead)
			continue;
		got = ask(di, s, hex, kind, out, why, sizeof(why));
		if (got > 0 && has_build_id(out, bid, len))
			return 0;
		if (got > 0) {
			unlink(out);
			snprintf(why, sizeof(why), "its %s for %s is no ELF file of that build-id",
				 kind, hex);
		}
		if (got) {          /* down, slow or hostile: said once, not asked again */
			s->dead = 1;
			if (!di->warning[0])
				snprintf(di->warning, sizeof(di->warning),
					 "debuginfod http://%.100s:%s%.100s: %.150s; going on without it",
					 s->host, s->port, s->path, why);
		}
	}
	return -1;
}
