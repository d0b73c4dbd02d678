/* tc_model.c - the timechart's model: sched events into per-CPU and
 * per-task intervals and wake-ups (tc_model.h), in time linear in the
 * events and memory bounded by the TC_MAX_* limits. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include <stdlib.h>
#include <string.h>
#include "pictures/tc_model.h"
#include "pictures/utf8.h"

/* sched_switch's prev_state: the preempted bit (TASK_REPORT_MAX, 0x100
 * since 4.14; 0x800, TASK_STATE_MAX, before) sits above the low byte, in
 * which 0 is TASK_RUNNING; X and Z (0x10, 0x20) are a task's end. */
#define STATE_MASK 0xff
#define STATE_DEAD 0x30

void tc_model_init(struct tc_model *m)
{
	memset(m, 0, sizeof(*m));
	tidmap_init(&m->ids, sizeof(uint32_t));
}

/* Room for one more of @size-byte things in *@v (@cap of them): 0 or -1. */
static int room(void **v, size_t nr, size_t *cap, size_t size)
{
	size_t n;
	void *p;

	if (nr < *cap)
		return 0;
	n = *cap ? 2 * *cap : 16;
	if (!(p = realloc(*v, n * size)))
		return -1;
	*v = p;
	*cap = n;
	return 0;
}

/* The interval [@start, @end) of @state (@arg) appended to @s; empty
 * ones are left out, and all once the model holds TC_MAX_SPANS. */
static int add_span(struct tc_model *m, struct tc_spans *s, uint64_t start, uint64_t end,
		    int state, int32_t arg)
{
	if (end <= start)
		return 0;
	if (m->nr_spans >= TC_MAX_SPANS) {
		m->dropped_spans++;
		return 0;
	}
	if (room((void **)&s->v, s->nr, &s->cap, sizeof(*s->v)))
		return -1;
	s->v[s->nr++] = (struct tc_span){ start, end, arg, (uint8_t)state };
	m->nr_spans++;
	return 0;
}

/* @comm's bytes (up to a NUL or TC_COMM_MAX) as @t's comm, when any. */
static void set_comm(struct tc_task *t, const char *comm, size_t len)
{
	if (!comm)
		return;
	if (len > TC_COMM_MAX)
		len = TC_COMM_MAX;
	len = strnlen(comm, len);
	if (len)
		utf8_clean(comm, len, t->comm, TC_COMM_BUF - 1);
}

/* The task of @pid, made when missing (NULL: pid 0, the idle task,
 * past TC_MAX_TASKS, or out of memory, which sets *@nomem). */
static struct tc_task *task(struct tc_model *m, uint32_t pid, int *nomem)
{
	uint32_t *idx;
	struct tc_task *t;

	if (!pid)
		return NULL;
	if ((idx = tidmap_get(&m->ids, pid, 0)))
		return &m->tasks[*idx - 1];
	if (m->nr_tasks >= TC_MAX_TASKS) {
		m->dropped_tasks++;
		return NULL;
	}
	if (room((void **)&m->tasks, m->nr_tasks, &m->cap_tasks, sizeof(*m->tasks)) ||
	    !(idx = tidmap_get(&m->ids, pid, 1))) {
		*nomem = 1;
		return NULL;
	}
	*idx = (uint32_t)++m->nr_tasks;
	t = &m->tasks[m->nr_tasks - 1];
	memset(t, 0, sizeof(*t));
	t->pid = pid;
	t->state = TC_UNKNOWN;
	t->cpu = -1;
	return t;
}

static struct tc_task *find(struct tc_model *m, uint32_t pid)
{
	uint32_t *idx = tidmap_get(&m->ids, pid, 0);

	return idx ? &m->tasks[*idx - 1] : NULL;
}

const struct tc_task *tc_task_of(const struct tc_model *m, uint32_t pid)
{
	return find((struct tc_model *)m, pid);
}

/* @time relative to the first event, never before the last one. */
static uint64_t rel(struct tc_model *m, uint64_t time)
{
	if (!m->started) {
		m->started = 1;
		m->first = time;
	}
	time = time > m->first ? time - m->first : 0;
	if (time < m->last)
		time = m->last;
	return m->last = time;
}

/* @t's current state ends at @now (drawn when known); @state begins. */
static int change(struct tc_model *m, struct tc_task *t, uint64_t now, int state, int32_t cpu)
{
	int r = 0;

	if (t->state == state && (state != TC_RUNNING || t->cpu == cpu))
		return 0;       /* no change: the interval goes on */
	if (t->state != TC_UNKNOWN)
		r = add_span(m, &t->spans, t->since, now, t->state,
			     t->state == TC_RUNNING ? t->cpu : -1);
	t->state = (uint8_t)state;
	t->since = now;
	t->cpu = state == TC_RUNNING ? cpu : -1;
	return r;
}

/* The CPU of @cpu, the table grown to it (NULL: out of range or memory). */
static struct tc_cpu *cpu_of(struct tc_model *m, int32_t cpu, int *nomem)
{
	struct tc_cpu *c;

	if (cpu < 0 || cpu >= TC_MAX_CPUS) {
		m->dropped_cpus++;
		return NULL;
	}
	if ((size_t)cpu >= m->nr_cpus) {
		if (!(c = realloc(m->cpus, ((size_t)cpu + 1) * sizeof(*c)))) {
			*nomem = 1;
			return NULL;
		}
		memset(c + m->nr_cpus, 0, ((size_t)cpu + 1 - m->nr_cpus) * sizeof(*c));
		m->cpus = c;
		m->nr_cpus = (size_t)cpu + 1;
	}
	return &m->cpus[cpu];
}

int tc_switch(struct tc_model *m, uint64_t time, int32_t cpu, uint32_t prev,
	      uint64_t prev_state, const char *prev_comm, size_t plen, uint32_t next,
	      const char *next_comm, size_t nlen)
{
	uint64_t now = rel(m, time);
	int nomem = 0, state;
	struct tc_cpu *c = cpu_of(m, cpu, &nomem);
	struct tc_task *t;

	if (!c)
		return nomem ? -1 : 0;
	if (c->known && c->pid && add_span(m, &c->spans, c->since, now, TC_RUNNING,
					   (int32_t)c->pid))
		return -1;
	/* a switch-out not recorded (trace-record leaves out its own events):
	 * the task thought running here stopped at some time before now */
	if (c->known && c->pid != prev && (t = find(m, c->pid)) &&
	    t->state == TC_RUNNING && t->cpu == cpu && change(m, t, now, TC_UNKNOWN, -1))
		return -1;
	c->known = 1;
	c->pid = next;
	c->since = now;
	if ((t = task(m, prev, &nomem))) {
		set_comm(t, prev_comm, plen);
		state = (prev_state & STATE_MASK) == 0 ? TC_RUNNABLE : TC_BLOCKED;
		if (t->exited || (prev_state & STATE_MASK & STATE_DEAD))
			state = TC_UNKNOWN;
		/* switched out, not known to run: its switch-in was not
		 * recorded, what it did since its last event is unknown */
		if (t->state != TC_RUNNING)
			t->state = TC_UNKNOWN;
		if (change(m, t, now, state, -1))
			return -1;
		t->exited = 0;
	}
	if ((t = task(m, next, &nomem))) {
		set_comm(t, next_comm, nlen);
		if (change(m, t, now, TC_RUNNING, cpu))
			return -1;
	}
	return nomem ? -1 : 0;
}

int tc_wakeup(struct tc_model *m, uint64_t time, int32_t cpu, uint32_t waker,
	      uint32_t wakee, int32_t target_cpu, const char *comm, size_t len)
{
	uint64_t now = rel(m, time);
	int nomem = 0;
	struct tc_task *t = task(m, wakee, &nomem);
	struct tc_wakeup *w;

	if (t) {
		set_comm(t, comm, len);
		if (t->state != TC_RUNNING && t->state != TC_RUNNABLE &&
		    change(m, t, now, TC_RUNNABLE, -1))
			return -1;
	}
	if (nomem)
		return -1;
	if (m->nr_wakeups >= TC_MAX_WAKEUPS) {
		m->dropped_wakeups++;
		return 0;
	}
	if (room((void **)&m->wakeups, m->nr_wakeups, &m->cap_wakeups, sizeof(*w)))
		return -1;
	w = &m->wakeups[m->nr_wakeups++];
	w->time = now;
	w->waker = waker;
	w->wakee = wakee;
	w->waker_cpu = cpu >= 0 && cpu < TC_MAX_CPUS ? cpu : -1;
	w->target_cpu = target_cpu >= 0 && target_cpu < TC_MAX_CPUS ? target_cpu : -1;
	return 0;
}

int tc_exit(struct tc_model *m, uint64_t time, uint32_t pid)
{
	struct tc_task *t = find(m, pid);

	rel(m, time);
	if (t)
		t->exited = 1;
	return 0;
}

int tc_finish(struct tc_model *m)
{
	for (size_t i = 0; i < m->nr_tasks; i++)
		if (change(m, &m->tasks[i], m->last, TC_UNKNOWN, -1))
			return -1;
	for (size_t i = 0; i < m->nr_cpus; i++) {
		struct tc_cpu *c = &m->cpus[i];

		if (c->known && c->pid &&
		    add_span(m, &c->spans, c->since, m->last, TC_RUNNING, (int32_t)c->pid))
			return -1;
		c->known = 0;
	}
	return 0;
}

void tc_model_free(struct tc_model *m)
{
	for (size_t i = 0; i < m->nr_tasks; i++)
		free(m->tasks[i].spans.v);
	for (size_t i = 0; i < m->nr_cpus; i++)
		free(m->cpus[i].spans.v);
	free(m->tasks);
	free(m->cpus);
	free(m->wakeups);
	tidmap_free(&m->ids);
	memset(m, 0, sizeof(*m));
}
