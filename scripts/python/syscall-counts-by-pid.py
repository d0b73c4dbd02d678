# syscall-counts-by-pid.py - system-wide system call totals for every task
# (comm and pid), by syscall, most frequent first; with a COMM or PID argument,
# only that command name or process.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record syscall-counts-by-pid [-o FILE] [COMMAND...]
# Report: trace-report [-i FILE] syscall-counts-by-pid [COMM|PID]
#     or  trace-report -s syscall-counts-by-pid.py [COMM|PID]
# Tasks come in the order their first system call was seen.

import os
import sys

sys.path.append(os.environ.get('PERF_EXEC_PATH',
                               os.path.dirname(os.path.abspath(sys.argv[0])) + '/../..') +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from Util import syscall_name

usage = "usage: trace-report syscall-counts-by-pid [comm|pid]\n"

for_comm = None
for_pid = None
if len(sys.argv) > 2:
    sys.exit(usage)
if len(sys.argv) == 2:
    try:
        for_pid = int(sys.argv[1])
    except ValueError:
        for_comm = sys.argv[1]

counts = {}    # comm -> pid -> syscall number -> times entered


def trace_begin():
    print("Press control+C to stop and show the summary")


def raw_syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                            common_nsecs, common_pid, common_comm,
                            common_callchain, id, args):
    if for_comm is not None and common_comm != for_comm:
        return
    if for_pid is not None and common_pid != for_pid:
        return
    per_task = counts.setdefault(common_comm, {}).setdefault(common_pid, {})
    per_task[id] = per_task.get(id, 0) + 1


def trace_end():
    if for_comm is not None:
        print("\nsyscall events for %s:\n" % for_comm)
    else:
        print("\nsyscall events by comm/pid:\n")
    print("%-40s  %10s" % ("comm [pid]/syscalls", "count"))
    print("%-40s  %10s" % ("-" * 40, "-" * 10))
    for comm, pids in counts.items():
        for pid, per_task in pids.items():
            print("\n%s [%d]" % (comm, pid))
            for nr, n in sorted(per_task.items(),
                                key=lambda item: (item[1], item[0]),
                                reverse=True):
                print("  %-38s  %10d" % (syscall_name(nr), n))
