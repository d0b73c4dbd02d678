/* test_threads.c - pd_threads (common/perfdata/pd_threads.h): the tid -> comm rules
 * of perf-data-format.md section 8 and perf's machine__process_fork_event. */
/* SPDX-License-Identifier: GPL-2.0-only */
#include "perfdata/pd_threads.h"
#include "unit.h"

static void test_names(void)
{
	struct pd_threads t;
	struct pd_thread *th;

	T_EQ(pd_threads_init(&t), 0, "pd_threads_init");
	T_STR(pd_threads_comm(&t, 0, 0), "swapper", "tid 0 is \"swapper\"");
	T_STR(pd_threads_comm(&t, 4242, 4242), ":4242", "a tid never named shows \":4242\"");
	T_STR(pd_threads_comm(&t, 4242, 4244), ":4244",
	      "a thread of a named-or-not process shows its own \":tid\"");
	T_STR(pd_threads_comm(&t, -1, -1), ":-1", "no TID in the sample: \":-1\"");

	T_EQ(pd_threads_set_comm(&t, 4242, 4242, "mytool", 6), 0, "COMM 4242 \"mytool\"");
	T_STR(pd_threads_comm(&t, 4242, 4242), "mytool", "COMM renames");
	T_STR(pd_threads_comm(&t, 4242, 4244), ":4244", "...only that tid, not the other threads of the pid");
	pd_threads_set_comm(&t, 4242, 4242, "perf-exec\0garbage", 16);
	T_STR(pd_threads_comm(&t, 4242, 4242), "perf-exec", "the comm stops at its NUL");
	pd_threads_set_comm(&t, 4242, 4242, "truncatedXXXX", 9);
	T_STR(pd_threads_comm(&t, 4242, 4242), "truncated", "...or at the given length");
	pd_threads_set_comm(&t, 0, 0, "idle", 4);
	T_STR(pd_threads_comm(&t, 0, 0), "idle", "tid 0 can be renamed too");

	th = pd_threads_findnew(&t, 77, 78);
	T(th && th->tid == 78 && th->pid == 77 && !th->comm_set && !strcmp(th->comm, ":78"),
	  "findnew creates (pid 77, tid 78) as \":78\", not named");
	T(pd_threads_findnew(&t, 77, 78) == th, "findnew finds it again");
	T_EQ(t.nr_used, 5, "threads so far: 0, 4242, 4244, -1, 78");
	pd_threads_free(&t);
}

static void test_fork(void)
{
	struct pd_threads t;
	struct pd_thread *th;

	pd_threads_init(&t);

	/* FORK from a named parent copies its comm */
	pd_threads_set_comm(&t, 100, 100, "parent", 6);
	T_EQ(pd_threads_fork(&t, 100, 101, 100, 100), 0, "FORK 100/101 from 100/100");
	T_STR(pd_threads_comm(&t, 100, 101), "parent", "FORK copies a named parent's comm");
	pd_threads_set_comm(&t, 100, 100, "renamed", 7);
	T_STR(pd_threads_comm(&t, 100, 101), "parent", "...a copy: renaming the parent later leaves it");
	th = pd_threads_findnew(&t, 100, 101);
	T(th->comm_set, "...and the child counts as named (it passes the name on)");
	pd_threads_fork(&t, 102, 102, 100, 101);
	T_STR(pd_threads_comm(&t, 102, 102), "parent", "a grandchild inherits through the named child");

	/* FORK from a parent that was never named */
	pd_threads_fork(&t, 200, 201, 200, 200);
	T_STR(pd_threads_comm(&t, 200, 201), ":201", "FORK of an unnamed parent keeps \":201\"");
	T_STR(pd_threads_comm(&t, 200, 200), ":200", "...and the parent now exists as \":200\"");
	T(!pd_threads_findnew(&t, 200, 201)->comm_set, "...the child is not named");

	/* FORK from swapper (perf registers tid 0 with a comm) */
	pd_threads_fork(&t, 1, 1, 0, 0);
	T_STR(pd_threads_comm(&t, 1, 1), "swapper", "FORK from tid 0 gives \"swapper\"");

	/* FORK replaces an existing tid */
	pd_threads_set_comm(&t, 300, 301, "old", 3);
	pd_threads_fork(&t, 300, 301, 300, 300);
	T_STR(pd_threads_comm(&t, 300, 301), ":301",
	      "FORK replaces an existing tid: unnamed parent, old name gone");
	pd_threads_set_comm(&t, 310, 311, "old", 3);
	pd_threads_set_comm(&t, 310, 310, "newparent", 9);
	pd_threads_fork(&t, 310, 311, 310, 310);
	T_STR(pd_threads_comm(&t, 310, 311), "newparent", "FORK over an existing tid takes the parent's name");
	pd_threads_set_comm(&t, 320, 321, "stale", 5);
	pd_threads_fork(&t, 330, 321, 330, 330);
	th = pd_threads_findnew(&t, 330, 321);
	T(th->pid == 330 && !strcmp(th->comm, ":321"), "the replaced tid takes the new pid (330)");

	/* a parent whose pid differs is a stale thread: perf removes it */
	pd_threads_set_comm(&t, 400, 401, "stale", 5);
	pd_threads_fork(&t, 500, 502, 500, 401);
	T_STR(pd_threads_comm(&t, 500, 502), ":502",
	      "a parent tid whose pid differs (400 vs ppid 500) gives no name");
	th = pd_threads_findnew(&t, 500, 401);
	T(th->pid == 500 && !th->comm_set && !strcmp(th->comm, ":401"),
	  "...and the stale parent is reset to pid 500, \":401\"");
	pd_threads_set_comm(&t, 600, 601, "same", 4);
	pd_threads_fork(&t, 600, 602, 600, 601);
	T_STR(pd_threads_comm(&t, 600, 602), "same", "a parent tid with the matching pid is kept");

	pd_threads_free(&t);
}

static void test_growth(void)
{
	struct pd_threads t;
	unsigned bad = 0;
	char want[32];

	pd_threads_init(&t);
	for (int tid = 1; tid <= 5000; tid++) {
		snprintf(want, sizeof(want), "t%d", tid);
		if (pd_threads_set_comm(&t, tid, tid, want, strlen(want)))
			bad++;
	}
	for (int tid = 5001; tid <= 6000; tid++)
		if (!pd_threads_findnew(&t, 1, tid))
			bad++;
	T_EQ(bad, 0, "6000 threads created");
	T_EQ(t.nr_used, 6001, "6001 threads counted (with swapper)");
	T(t.nr_slots >= 2 * t.nr_used && (t.nr_slots & (t.nr_slots - 1)) == 0,
	  "the table grew past 1024 slots to a power of two >= twice the threads (%zu)",
	  t.nr_slots);
	for (int tid = 1; tid <= 5000; tid++) {
		snprintf(want, sizeof(want), "t%d", tid);
		if (strcmp(pd_threads_comm(&t, tid, tid), want))
			bad++;
	}
	for (int tid = 5001; tid <= 6000; tid++) {
		snprintf(want, sizeof(want), ":%d", tid);
		if (strcmp(pd_threads_comm(&t, 1, tid), want))
			bad++;
	}
	T_EQ(bad, 0, "every name survives the growth");
	T_STR(pd_threads_comm(&t, 0, 0), "swapper", "swapper survives the growth");
	T_EQ(t.nr_used, 6001, "looking names up creates nothing new");
	/* tids hashing to the same slots: multiples of the table size */
	for (int k = 1; k <= 64; k++)
		pd_threads_set_comm(&t, 9, (int32_t)(k * (int32_t)t.nr_slots), "coll", 4);
	bad = 0;
	for (int k = 1; k <= 64; k++)
		if (strcmp(pd_threads_comm(&t, 9, (int32_t)(k * (int32_t)t.nr_slots)), "coll"))
			bad++;
	T_EQ(bad, 0, "64 colliding tids all found");
	pd_threads_free(&t);
}

int main(void)
{
	test_names();
	test_fork();
	test_growth();
	return done();
}
