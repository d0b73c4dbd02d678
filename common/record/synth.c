/* synth.c - FORK, COMM and MMAP2 records for existing threads, from /proc,
 * and the kernel's MMAP, as perf record synthesizes them
 * (tools/perf/util/synthetic-events.c behaviour), each with the sample_id
 * trailer of the recording's sample_type (perf_event_open(2), sample_id_all). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <dirent.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/utsname.h>
#include "perfdata/pd_format.h"
#include "record/synth.h"
#include "tracepoint/tracefs.h"

static void put(struct synth_buf *b, const void *d, size_t n)
{
	bb_put(&b->b, d, n);
}

static void put_u32(struct synth_buf *b, uint32_t v) { put(b, &v, 4); }
static void put_u64(struct synth_buf *b, uint64_t v) { put(b, &v, 8); }

static void header(struct synth_buf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	put_u32(b, type);
	put(b, &misc, 2);
	put(b, &size, 2);
}

/* The sample_id trailer's size for @b->sample_type. */
static uint16_t trailer_size(const struct synth_buf *b)
{
	static const uint64_t bits[] = { PERF_SAMPLE_TID, PERF_SAMPLE_TIME, PERF_SAMPLE_ID,
					 PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU,
					 PERF_SAMPLE_IDENTIFIER };
	uint16_t n = 0;

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++)
		n += (b->sample_type & bits[i]) ? 8 : 0;
	return n;
}

/* TID, TIME (0), ID, STREAM_ID, CPU (0), IDENTIFIER: what the sample_type holds. */
static void trailer(struct synth_buf *b, pid_t pid, pid_t tid)
{
	uint64_t st = b->sample_type;

	if (st & PERF_SAMPLE_TID) {
		put_u32(b, (uint32_t)pid);
		put_u32(b, (uint32_t)tid);
	}
	if (st & PERF_SAMPLE_TIME)
		put_u64(b, 0);
	if (st & PERF_SAMPLE_ID)
		put_u64(b, b->id);
	if (st & PERF_SAMPLE_STREAM_ID)
		put_u64(b, b->id);
	if (st & PERF_SAMPLE_CPU)
		put_u64(b, 0);
	if (st & PERF_SAMPLE_IDENTIFIER)
		put_u64(b, b->id);
}

/* A NUL-padded name to a multiple of 8 (at least one NUL). */
static size_t padded_len(size_t len)
{
	return (len + 1 + 7) & ~(size_t)7;
}

static void put_name(struct synth_buf *b, const char *s, size_t len)
{
	static const char zeros[8];
	size_t padded = padded_len(len);

	put(b, s, len);
	put(b, zeros, padded - len);
}

void synth_comm(struct synth_buf *b, pid_t pid, pid_t tid, const char *comm)
{
	size_t len = strnlen(comm, 15);

	header(b, PD_REC_COMM, 0, (uint16_t)(8 + 8 + padded_len(len) + trailer_size(b)));
	put_u32(b, (uint32_t)pid);
	put_u32(b, (uint32_t)tid);
	put_name(b, comm, len);
	trailer(b, pid, tid);
}

static void synth_fork(struct synth_buf *b, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid)
{
	header(b, PD_REC_FORK, PD_MISC_COMM_EXEC, (uint16_t)(8 + 24 + trailer_size(b)));  /* 0x2000, as perf */
	put_u32(b, (uint32_t)pid);
	put_u32(b, (uint32_t)ppid);
	put_u32(b, (uint32_t)tid);
	put_u32(b, (uint32_t)ptid);
	put_u64(b, 0);
	trailer(b, pid, tid);
}

/* One line of /proc/PID/maps as perf's MMAP2: executable mappings, and
 * readable data ones when asked (misc MMAP_DATA); "" becomes //anon. */
static void map_line(struct synth_buf *b, pid_t pid, const char *line)
{
	unsigned long long start, end, pgoff, ino;
	unsigned int maj, min;
	char prot[5];
	int name_at = 0;
	const char *name;
	size_t len;
	uint16_t misc = PERF_RECORD_MISC_USER;
	uint32_t p = 0;

	if (sscanf(line, "%llx-%llx %4s %llx %x:%x %llu %n", &start, &end, prot, &pgoff, &maj, &min,
		   &ino, &name_at) < 7 || !name_at || strlen(prot) != 4 || end <= start)
		return;
	if (prot[2] != 'x') {
		if (!b->data_maps || prot[0] != 'r')
			return;
		misc |= PERF_RECORD_MISC_MMAP_DATA;
	}
	name = line + name_at;
	len = strcspn(name, "\n");
	if (!len)
		name = "//anon", len = 6;
	if (len > 4000)
		return;
	p |= prot[0] == 'r' ? PROT_READ : 0;
	p |= prot[1] == 'w' ? PROT_WRITE : 0;
	p |= prot[2] == 'x' ? PROT_EXEC : 0;
	header(b, PD_REC_MMAP2, misc, (uint16_t)(8 + 8 + 24 + 8 + 16 + 8 + padded_len(len) +
						 trailer_size(b)));
	put_u32(b, (uint32_t)pid);
	put_u32(b, (uint32_t)pid);
	put_u64(b, start);
	put_u64(b, end - start);
	put_u64(b, pgoff);
	put_u32(b, maj);
	put_u32(b, min);
	put_u64(b, ino);
	put_u64(b, 0);                    /* ino_generation */
	put_u32(b, p);
	put_u32(b, prot[3] == 'p' ? MAP_PRIVATE : MAP_SHARED);
	put_name(b, name, len);
	trailer(b, pid, pid);
}

void synth_mmaps(struct synth_buf *b, pid_t pid)
{
	char path[64], *line = NULL;
	size_t cap = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return;
	while (getline(&line, &cap, f) > 0)
		map_line(b, pid, line);
	free(line);
	fclose(f);
}

static pid_t parent_of(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	pid_t ppid = 0;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "PPid: %d", &ppid) == 1)
			break;
	fclose(f);
	return ppid;
}

/* One process: a FORK and a COMM per thread, its maps after the first
 * COMM. Returns threads written. */
static long synth_process(struct synth_buf *b, pid_t pid)
{
	char path[96], comm[64];
	struct dirent *e;
	pid_t ppid = parent_of(pid);
	long n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d))) {
		pid_t tid = (pid_t)atoi(e->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
		if (file_first_line(path, comm, sizeof(comm)))
			continue;               /* it exited meanwhile */
		if (tid == pid)
			synth_fork(b, pid, ppid, tid, ppid);
		else
			synth_fork(b, pid, pid, tid, pid);
		synth_comm(b, pid, tid, comm);
		if (tid == pid && b->maps)
			synth_mmaps(b, pid);
		n++;
	}
	closedir(d);
	return n;
}

long synth_threads(struct synth_buf *b, const pid_t *pids, size_t nr_pids)
{
	long n = 0;

	if (pids) {
		for (size_t i = 0; i < nr_pids; i++)
			n += synth_process(b, pids[i]);
	} else {
		DIR *d = opendir("/proc");
		struct dirent *e;

		if (!d)
			return 0;
		while ((e = readdir(d)))
			if (isdigit((unsigned char)e->d_name[0]))
				n += synth_process(b, (pid_t)atoi(e->d_name));
		closedir(d);
	}
	return b->b.oom ? -1 : n;
}

/* An MMAP of kernel space (pid -1, misc KERNEL), as perf writes the
 * kernel's and each module's. */
static void kernel_mmap(struct synth_buf *b, uint64_t start, uint64_t len, uint64_t pgoff,
			const char *name)
{
	size_t nl = strlen(name);

	header(b, PD_REC_MMAP, PERF_RECORD_MISC_KERNEL,
	       (uint16_t)(8 + 8 + 24 + padded_len(nl) + trailer_size(b)));
	put_u32(b, (uint32_t)-1);
	put_u32(b, 0);
	put_u64(b, start);
	put_u64(b, len);
	put_u64(b, pgoff);
	put_name(b, name, nl);
	trailer(b, 0, 0);
}

/* The path of module @name under /lib/modules/RELEASE (modules.dep), or
 * perf's "[name]" when it is not there. */
static void module_path(const char *name, char *out, size_t cap)
{
	struct utsname u;
	char dep[512], *line = NULL;
	size_t lcap = 0;
	FILE *f;

	snprintf(out, cap, "[%s]", name);
	if (uname(&u))
		return;
	snprintf(dep, sizeof(dep), "/lib/modules/%s/modules.dep", u.release);
	f = fopen(dep, "re");
	if (!f)
		return;
	while (getline(&line, &lcap, f) > 0) {
		char *colon = strchr(line, ':'), *base, *dot;

		if (!colon)
			continue;
		*colon = 0;
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		if (!dot || (size_t)(dot - base) != strlen(name))
			continue;
		/* module names use _ where file names may use - */
		for (size_t i = 0; i < strlen(name); i++)
			if (base[i] != name[i] && !(strchr("-_", base[i]) && strchr("-_", name[i])))
				goto next;
		snprintf(out, cap, "/lib/modules/%s/%s", u.release, line);
		break;
next:;
	}
	free(line);
	fclose(f);
}

static void synth_modules(struct synth_buf *b)
{
	FILE *f = fopen("/proc/modules", "re");
	char line[512], name[128], path[768];
	unsigned long long size, addr;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%127s %llu %*s %*s %*s %llx", name, &size, &addr) != 3 || !addr)
			continue;
		module_path(name, path, sizeof(path));
		kernel_mmap(b, addr, size, 0, path);
	}
	fclose(f);
}

int synth_kernel_mmap(struct synth_buf *b)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	unsigned long long addr, text = 0, stext = 0, etext = 0;
	char line[512], type, name[256];

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f) && !(text && etext)) {
		if (sscanf(line, "%llx %c %255s", &addr, &type, name) != 3)
			continue;
		if (!text && !strcmp(name, "_text"))
			text = addr;
		else if (!stext && !strcmp(name, "_stext"))
			stext = addr;
		else if (!strcmp(name, "_etext"))
			etext = addr;
	}
	fclose(f);
	/* the reference symbol perf's machine__get_running_kernel_start takes:
	 * _text, else _stext (a kernel without KALLSYMS_ALL lists no _text on
	 * arm64), named in the map so that the reader relates the two */
	if (text) {
		kernel_mmap(b, text, etext > text ? etext - text : 0, text, "[kernel.kallsyms]_text");
	} else if (stext) {
		kernel_mmap(b, stext, etext > stext ? etext - stext : 0, stext,
			    "[kernel.kallsyms]_stext");
	} else {
		return -1;
	}
	synth_modules(b);
	return 0;
}

void synth_free(struct synth_buf *b)
{
	bb_free(&b->b);
}
