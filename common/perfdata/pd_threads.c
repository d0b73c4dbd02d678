/* pd_threads.c - the tid -> comm table (open addressing on tid). */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "perfdata/pd_threads.h"
#include "util/tb_err.h"

static size_t slot_of(const struct pd_threads *t, int32_t tid)
{
	uint32_t h = (uint32_t)tid * 2654435761u;

	return (size_t)h & (t->nr_slots - 1);
}

int pd_threads_init(struct pd_threads *t)
{
	t->nr_slots = 1024;
	t->nr_used = 0;
	t->slots = calloc(t->nr_slots, sizeof(*t->slots));
	if (!t->slots)
		return TB_ERR_NOMEM;
	if (!pd_threads_set_comm(t, 0, 0, "swapper", 7))
		return 0;
	pd_threads_free(t);
	return TB_ERR_NOMEM;
}

void pd_threads_free(struct pd_threads *t)
{
	for (size_t i = 0; t->slots && i < t->nr_slots; i++)
		free(t->slots[i].comm);
	free(t->slots);
	t->slots = NULL;
}

static struct pd_thread *lookup(struct pd_threads *t, int32_t tid)
{
	size_t i = slot_of(t, tid);

	while (t->slots[i].used && t->slots[i].tid != tid)
		i = (i + 1) & (t->nr_slots - 1);
	return &t->slots[i];
}

static int grow(struct pd_threads *t)
{
	struct pd_thread *old = t->slots;
	size_t old_nr = t->nr_slots;

	t->slots = calloc(old_nr * 2, sizeof(*t->slots));
	if (!t->slots) {
		t->slots = old;
		return TB_ERR_NOMEM;
	}
	t->nr_slots = old_nr * 2;
	for (size_t i = 0; i < old_nr; i++)
		if (old[i].used)
			*lookup(t, old[i].tid) = old[i];
	free(old);
	return 0;
}

/* Forget what was known of a thread, as perf's machine__remove_thread does. */
static int reset_thread(struct pd_thread *th, int32_t pid)
{
	char buf[16];

	snprintf(buf, sizeof(buf), ":%d", th->tid);
	free(th->comm);
	th->comm = strdup(buf);
	th->comm_set = 0;
	th->pid = pid;
	return th->comm ? 0 : TB_ERR_NOMEM;
}

static char *anon_comm(int32_t tid)
{
	char buf[16];

	snprintf(buf, sizeof(buf), ":%d", tid);
	return strdup(buf);
}

struct pd_thread *pd_threads_findnew(struct pd_threads *t, int32_t pid, int32_t tid)
{
	struct pd_thread *th = lookup(t, tid);

	if (th->used) {
		if (th->pid == -1)
			th->pid = pid;
		return th;
	}
	if ((t->nr_used + 1) * 2 > t->nr_slots) {
		if (grow(t))
			return NULL;
		th = lookup(t, tid);
	}
	th->comm = anon_comm(tid);
	if (!th->comm)
		return NULL;
	t->gen++;
	th->used = 1;
	th->tid = tid;
	th->pid = pid;
	th->comm_set = 0;
	t->nr_used++;
	return th;
}

int pd_threads_set_comm(struct pd_threads *t, int32_t pid, int32_t tid,
			const char *comm, size_t len)
{
	struct pd_thread *th = pd_threads_findnew(t, pid, tid);
	char *c;

	if (!th)
		return TB_ERR_NOMEM;
	c = strndup(comm, len);
	if (!c)
		return TB_ERR_NOMEM;
	free(th->comm);
	th->comm = c;
	th->comm_set = 1;
	t->gen++;
	return 0;
}

int pd_threads_fork(struct pd_threads *t, int32_t pid, int32_t tid,
		    int32_t ppid, int32_t ptid)
{
	struct pd_thread *parent, *child;
	char *comm = NULL;

	t->gen++;                 /* names may be reset or handed down */
	parent = pd_threads_findnew(t, ppid, ptid);
	if (!parent)
		return TB_ERR_NOMEM;
	/* A "parent" of another process is a stale thread: perf drops it. */
	if (parent->pid != ppid && reset_thread(parent, ppid))
		return TB_ERR_NOMEM;
	if (parent->comm_set) {
		comm = strdup(parent->comm);
		if (!comm)
			return TB_ERR_NOMEM;
	}
	/* A new thread replaces whatever had this tid before. */
	child = lookup(t, tid);
	if (child->used && reset_thread(child, pid)) {
		free(comm);
		return TB_ERR_NOMEM;
	}
	if (!comm)
		return pd_threads_findnew(t, pid, tid) ? 0 : TB_ERR_NOMEM;
	child = pd_threads_findnew(t, pid, tid);
	if (!child) {
		free(comm);
		return TB_ERR_NOMEM;
	}
	free(child->comm);
	child->comm = comm;
	child->comm_set = 1;
	return 0;
}

const char *pd_threads_comm(struct pd_threads *t, int32_t pid, int32_t tid)
{
	struct pd_thread *th = pd_threads_findnew(t, pid, tid);

	return th ? th->comm : NULL;
}
