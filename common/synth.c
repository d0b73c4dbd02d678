/* synth.c - FORK and COMM records for existing threads, from /proc, with
 * the sample_id trailer of REC_SAMPLE_TYPE (pid/tid, time 0, cpu, id). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "pd_format.h"
#include "synth.h"
#include "tracefs.h"

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

/* TID, TIME, CPU, IDENTIFIER: the trailer REC_SAMPLE_TYPE implies. */
static void trailer(struct synth_buf *b, pid_t pid, pid_t tid)
{
	put_u32(b, (uint32_t)pid);
	put_u32(b, (uint32_t)tid);
	put_u64(b, 0);
	put_u64(b, 0);
	put_u64(b, b->id);
}

void synth_comm(struct synth_buf *b, pid_t pid, pid_t tid, const char *comm)
{
	char name[24] = { 0 };
	size_t len = strnlen(comm, 16), padded = (len + 1 + 7) & ~(size_t)7;

	memcpy(name, comm, len);
	header(b, PD_REC_COMM, 0, (uint16_t)(8 + 8 + padded + 32));
	put_u32(b, (uint32_t)pid);
	put_u32(b, (uint32_t)tid);
	put(b, name, padded);
	trailer(b, pid, tid);
}

static void synth_fork(struct synth_buf *b, pid_t pid, pid_t ppid, pid_t tid, pid_t ptid)
{
	header(b, PD_REC_FORK, PD_MISC_COMM_EXEC, 8 + 24 + 32);   /* 0x2000, as perf */
	put_u32(b, (uint32_t)pid);
	put_u32(b, (uint32_t)ppid);
	put_u32(b, (uint32_t)tid);
	put_u32(b, (uint32_t)ptid);
	put_u64(b, 0);
	trailer(b, pid, tid);
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

/* One process: a FORK and a COMM per thread. Returns threads written. */
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

void synth_free(struct synth_buf *b)
{
	bb_free(&b->b);
}
