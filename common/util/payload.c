/* payload.c - the archive of files linked into tracebox (payload.h):
 * lookup by path (a binary search of its sorted index), folder listings,
 * and reads that fall back to the disk. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util/io.h"
#include "util/payload.h"
#include "util/tb_err.h"

#define MAGIC     "TBPAYLD1"
#define HEAD      16u
#define ENTRY     24u

/* build/gen/payload.c defines them; a binary linked without it has none */
extern const unsigned char tb_payload_start[] __attribute__((weak));
extern const unsigned char tb_payload_end[] __attribute__((weak));

struct payload_entry {
	const char *name;
	size_t name_len;
	const unsigned char *data;
	uint32_t size, stored, method;
};

static uint32_t le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

size_t payload_size(void)
{
	uintptr_t start = (uintptr_t)tb_payload_start, end = (uintptr_t)tb_payload_end;

	return start && end > start ? (size_t)(end - start) : 0;
}

/* The number of entries, 0 when there is no (valid) archive. */
static uint32_t count(void)
{
	size_t n = payload_size();
	uint32_t c;

	if (n < HEAD || memcmp(tb_payload_start, MAGIC, 8))
		return 0;
	c = le32(tb_payload_start + 8);
	return c <= (n - HEAD) / ENTRY ? c : 0;
}

/* Entry @i, bounds-checked: 0, or -1 when it points outside the archive. */
static int entry(uint32_t i, struct payload_entry *e)
{
	const unsigned char *p = tb_payload_start + HEAD + (size_t)i * ENTRY;
	size_t n = payload_size();
	uint32_t noff = le32(p), nlen = le32(p + 4), doff = le32(p + 8);

	e->size = le32(p + 12);
	e->stored = le32(p + 16);
	e->method = le32(p + 20);
	if (noff > n || nlen > n - noff || doff > n || e->stored > n - doff ||
	    (e->method == 0 && e->stored != e->size) || e->method > 1)
		return -1;
	e->name = (const char *)tb_payload_start + noff;
	e->name_len = nlen;
	e->data = tb_payload_start + doff;
	return 0;
}

static int cmp_name(const char *key, size_t klen, const struct payload_entry *e)
{
	size_t m = klen < e->name_len ? klen : e->name_len;
	int c = memcmp(key, e->name, m);

	return c ? c : klen < e->name_len ? -1 : klen > e->name_len;
}

int payload_is(const char *path)
{
	size_t r = sizeof(PAYLOAD_ROOT) - 1;

	return !strncmp(path, PAYLOAD_ROOT, r) && path[r] == '/';
}

/* The entry of @path: 0, -1 when there is none. */
static int find(const char *path, struct payload_entry *e)
{
	const char *key;
	size_t klen;
	uint32_t lo = 0, hi = count();

	if (!payload_is(path))
		return -1;
	key = path + sizeof(PAYLOAD_ROOT);
	klen = strlen(key);
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int c;

		if (entry(mid, e))
			return -1;
		c = cmp_name(key, klen, e);
		if (!c)
			return 0;
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return -1;
}

int payload_has(const char *path)
{
	struct payload_entry e;

	return find(path, &e) == 0;
}

int payload_read(const char *path, unsigned char **data, size_t *len)
{
	struct payload_entry e;
	unsigned char *buf;

	*data = NULL;
	*len = 0;
	if (find(path, &e))
		return -1;
	buf = malloc((size_t)e.size + 1);
	if (!buf)
		return TB_ERR_NOMEM;
	if (e.method == 0)
		memcpy(buf, e.data, e.size);
	else if (payload_inflate(e.data, e.stored, buf, e.size)) {
		free(buf);
		return TB_ERR_FORMAT;
	}
	buf[e.size] = 0;
	*data = buf;
	*len = e.size;
	return 0;
}

long payload_list(const char *dir, void (*fn)(void *ctx, const char *name), void *ctx)
{
	uint32_t c = count();
	struct payload_entry e;
	const char *pre;
	size_t plen;
	long n = 0;

	if (!payload_is(dir) && strcmp(dir, PAYLOAD_ROOT))
		return 0;
	pre = dir + sizeof(PAYLOAD_ROOT) - 1;
	pre += *pre == '/';
	plen = strlen(pre);
	for (uint32_t i = 0; i < c; i++) {
		char name[256];
		size_t rest;

		if (entry(i, &e) || e.name_len <= plen + 1 || memcmp(e.name, pre, plen) ||
		    (plen && e.name[plen] != '/'))
			continue;
		rest = e.name_len - plen - (plen ? 1 : 0);
		if (rest >= sizeof(name) || memchr(e.name + e.name_len - rest, '/', rest))
			continue;          /* deeper down, or too long a name */
		memcpy(name, e.name + e.name_len - rest, rest);
		name[rest] = 0;
		fn(ctx, name);
		n++;
	}
	return n;
}

int vfile_readable(const char *path)
{
	return payload_is(path) ? payload_has(path) : access(path, R_OK) == 0;
}

int vfile_read(const char *path, unsigned char **data, size_t *len)
{
	char *buf;
	int fd, r;

	if (payload_is(path)) {
		r = payload_read(path, data, len);
		if (r == -1)
			errno = ENOENT;
		return r;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = read_all(fd, 0, &buf, len);
	if (r && errno == ENOMEM)
		r = TB_ERR_NOMEM;
	{
		int e = errno;

		close(fd);
		errno = e;
	}
	if (r == 0)
		*data = (unsigned char *)buf;
	return r;
}
