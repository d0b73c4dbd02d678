/* dso_hits.c - which mapped files a recording's samples fall in, found as
 * perf record's build-id pass finds them: each process's maps from the
 * MMAP/MMAP2 records (FORK copies them, an exec COMM clears them, a new
 * mapping replaces what it overlaps), the kernel's from pid -1 MMAPs, and
 * each sample's ip looked up by its cpumode (perf-data-format.md 4). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>
#include "record/dso_hits.h"
#include "perfdata/pd_format.h"

struct dh_map {
	uint64_t start, end;
	size_t dso;
};

struct dh_proc {
	int pid;
	struct dh_map *maps;     /* sorted by start, no overlaps */
	size_t nr;
};

void dso_hits_init(struct dso_hits *h, int identifier)
{
	memset(h, 0, sizeof(*h));
	h->identifier = identifier;
}

static struct dh_proc *find_proc(struct dso_hits *h, int pid, int create)
{
	size_t lo = 0, hi = h->nr_procs;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (h->procs[mid].pid == pid)
			return &h->procs[mid];
		if (h->procs[mid].pid < pid)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!create)
		return NULL;
	if (h->nr_procs == h->cap_procs) {
		size_t cap = h->cap_procs ? 2 * h->cap_procs : 64;
		struct dh_proc *n = realloc(h->procs, cap * sizeof(*n));

		if (!n) {
			h->oom = 1;
			return NULL;
		}
		h->procs = n;
		h->cap_procs = cap;
	}
	memmove(&h->procs[lo + 1], &h->procs[lo], (h->nr_procs - lo) * sizeof(*h->procs));
	memset(&h->procs[lo], 0, sizeof(*h->procs));
	h->procs[lo].pid = pid;
	h->nr_procs++;
	return &h->procs[lo];
}

static size_t find_dso(struct dso_hits *h, const char *name, size_t len, int kernel)
{
	struct dh_dso *n;

	for (size_t i = 0; i < h->nr_dsos; i++)
		if (!strncmp(h->dsos[i].name, name, len) && !h->dsos[i].name[len])
			return i;
	n = realloc(h->dsos, (h->nr_dsos + 1) * sizeof(*n));
	if (!n) {
		h->oom = 1;
		return SIZE_MAX;
	}
	h->dsos = n;
	n[h->nr_dsos].name = strndup(name, len);
	n[h->nr_dsos].kernel = kernel;
	n[h->nr_dsos].hit = 0;
	if (!n[h->nr_dsos].name) {
		h->oom = 1;
		return SIZE_MAX;
	}
	return h->nr_dsos++;
}

/* Insert [start, end) -> dso into @p, cutting what it overlaps. */
static void add_map(struct dso_hits *h, struct dh_proc *p, uint64_t start, uint64_t end, size_t dso)
{
	struct dh_map *n = malloc((p->nr + 2) * sizeof(*n));
	size_t k = 0, at;

	if (!n) {
		h->oom = 1;
		return;
	}
	for (size_t i = 0; i < p->nr; i++) {
		struct dh_map m = p->maps[i];

		if (m.end <= start || m.start >= end) {
			n[k++] = m;
			continue;
		}
		if (m.start < start) {
			n[k] = m;
			n[k++].end = start;
		}
		if (m.end > end) {
			n[k] = m;
			n[k++].start = end;
		}
	}
	for (at = 0; at < k && n[at].start < start; at++)
		;
	memmove(&n[at + 1], &n[at], (k - at) * sizeof(*n));
	n[at].start = start;
	n[at].end = end;
	n[at].dso = dso;
	free(p->maps);
	p->maps = n;
	p->nr = k + 1;
}

static struct dh_map *find_map(struct dh_proc *p, uint64_t ip, int kernel)
{
	size_t lo = 0, hi = p ? p->nr : 0;

	while (lo < hi) {
		size_t mid = (lo + hi) / 2;

		if (p->maps[mid].start <= ip)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return NULL;
	/* perf stretches each kernel map to the next one (the last to the end) */
	if (kernel || ip < p->maps[lo - 1].end)
		return &p->maps[lo - 1];
	return NULL;
}

/* MMAP and MMAP2: pid at 8, start at 16, len at 24; the name at @name_off. */
static void on_mmap(struct dso_hits *h, const unsigned char *r, size_t size, size_t name_off)
{
	uint32_t pid;
	uint64_t start, len;
	const char *name = (const char *)r + name_off;
	size_t nl;
	int kernel = (r[4] & PERF_RECORD_MISC_CPUMODE_MASK) == PERF_RECORD_MISC_KERNEL;
	struct dh_proc *p;
	size_t dso;

	if (size < name_off + 1)
		return;
	memcpy(&pid, r + 8, 4);
	memcpy(&start, r + 16, 8);
	memcpy(&len, r + 24, 8);
	nl = strnlen(name, size - name_off);
	if (kernel && !strncmp(name, "[kernel.kallsyms]", 17))
		nl = 17;                    /* "[kernel.kallsyms]_text" is the kernel's dso */
	if (start + len < start)
		len = UINT64_MAX - start;
	p = find_proc(h, kernel ? -1 : (int)pid, 1);
	dso = p ? find_dso(h, name, nl, kernel) : SIZE_MAX;
	if (dso != SIZE_MAX)
		add_map(h, p, start, start + len, dso);
}

static void on_fork(struct dso_hits *h, const unsigned char *r, size_t size)
{
	int32_t pid, ppid;
	struct dh_proc *parent, *child;

	if (size < 16)
		return;
	memcpy(&pid, r + 8, 4);
	memcpy(&ppid, r + 12, 4);
	if (pid == ppid || !(parent = find_proc(h, ppid, 0)) || !parent->nr)
		return;
	child = find_proc(h, pid, 1);
	parent = find_proc(h, ppid, 0);   /* the array may have moved */
	if (!child || !parent)
		return;
	free(child->maps);
	child->maps = malloc(parent->nr * sizeof(*child->maps));
	child->nr = child->maps ? parent->nr : 0;
	if (!child->maps)
		h->oom = 1;
	else
		memcpy(child->maps, parent->maps, parent->nr * sizeof(*child->maps));
}

static void on_sample(struct dso_hits *h, const unsigned char *r, size_t size)
{
	size_t at = 8 + (h->identifier ? 8 : 0);
	int cpumode = r[4] & PERF_RECORD_MISC_CPUMODE_MASK;
	struct dh_map *m = NULL;
	uint64_t ip;
	int32_t pid;

	if (size < at + 16)
		return;
	memcpy(&ip, r + at, 8);
	memcpy(&pid, r + at + 8, 4);
	if (cpumode == PERF_RECORD_MISC_USER)
		m = find_map(find_proc(h, pid, 0), ip, 0);
	/* perf looks a user-mode miss up in the kernel's maps, as it does kernel ips */
	if ((cpumode == PERF_RECORD_MISC_KERNEL || (cpumode == PERF_RECORD_MISC_USER && !m &&
	     ip >= 0xffff800000000000ULL)))
		m = find_map(find_proc(h, -1, 0), ip, 1);
	if (m)
		h->dsos[m->dso].hit = 1;
}

static void one_record(struct dso_hits *h, const unsigned char *r, size_t size)
{
	uint32_t type;

	memcpy(&type, r, 4);
	switch (type) {
	case PD_REC_SAMPLE:
		on_sample(h, r, size);
		break;
	case PD_REC_MMAP:
		on_mmap(h, r, size, 40);
		break;
	case PD_REC_MMAP2:
		on_mmap(h, r, size, 72);
		break;
	case PD_REC_FORK:
		on_fork(h, r, size);
		break;
	case PD_REC_COMM:
		if ((r[5] << 8 | r[4]) & PD_MISC_COMM_EXEC && size >= 16) {
			int32_t pid;
			struct dh_proc *p;

			memcpy(&pid, r + 8, 4);
			if ((p = find_proc(h, pid, 0)))
				p->nr = 0;       /* exec: a new address space */
		}
		break;
	default:
		break;
	}
}

void dso_hits_feed(struct dso_hits *h, const struct iovec *iov, int n)
{
	const unsigned char *p = iov[0].iov_base;
	size_t len = iov[0].iov_len, pos = 0;

	if (n > 1 && iov[1].iov_len) {        /* a record may straddle: join the pieces */
		size_t total = iov[0].iov_len + iov[1].iov_len;

		if (total > h->tmp_cap) {
			unsigned char *t = realloc(h->tmp, total);

			if (!t) {
				h->oom = 1;
				return;
			}
			h->tmp = t;
			h->tmp_cap = total;
		}
		memcpy(h->tmp, iov[0].iov_base, iov[0].iov_len);
		memcpy(h->tmp + iov[0].iov_len, iov[1].iov_base, iov[1].iov_len);
		p = h->tmp;
		len = total;
	}
	while (len - pos >= 8) {
		uint16_t size;

		memcpy(&size, p + pos + 6, 2);
		if (size < 8 || size > len - pos)
			break;
		one_record(h, p + pos, size);
		pos += size;
	}
}

void dso_hits_free(struct dso_hits *h)
{
	for (size_t i = 0; i < h->nr_procs; i++)
		free(h->procs[i].maps);
	for (size_t i = 0; i < h->nr_dsos; i++)
		free(h->dsos[i].name);
	free(h->procs);
	free(h->dsos);
	free(h->tmp);
	memset(h, 0, sizeof(*h));
}
