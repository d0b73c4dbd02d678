# failed-syscalls-by-pid.py - system-wide failed system calls for every task
# (comm and pid), by syscall and errno, most frequent error first; with a
# COMM or PID argument, only that command name or process.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record failed-syscalls-by-pid [-o FILE] [COMMAND...]
# Report: trace-report [-i FILE] failed-syscalls-by-pid [COMM|PID]
#     or  trace-report -s failed-syscalls-by-pid.py [COMM|PID]
# A call failed when sys_exit returned a negative value (-errno). Tasks, and
# the syscalls of a task, come in the order their first failure was seen.

import os
import sys

sys.path.append(os.environ.get('PERF_EXEC_PATH',
                               os.path.dirname(os.path.abspath(sys.argv[0])) + '/../..') +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from Util import syscall_name, strerror

usage = "usage: trace-report failed-syscalls-by-pid [comm|pid]\n"

for_comm = None
for_pid = None
if len(sys.argv) > 2:
    sys.exit(usage)
if len(sys.argv) == 2:
    try:
        for_pid = int(sys.argv[1])
    except ValueError:
        for_comm = sys.argv[1]

failures = {}    # comm -> pid -> syscall number -> return value -> times


def trace_begin():
    print("Press control+C to stop and show the summary")


def raw_syscalls__sys_exit(event_name, context, common_cpu, common_secs,
                           common_nsecs, common_pid, common_comm,
                           common_callchain, id, ret):
    if ret is None or ret >= 0:
        return
    if for_comm is not None and common_comm != for_comm:
        return
    if for_pid is not None and common_pid != for_pid:
        return
    per_call = failures.setdefault(common_comm, {}) \
                       .setdefault(common_pid, {}).setdefault(id, {})
    per_call[ret] = per_call.get(ret, 0) + 1


def trace_end():
    if for_comm is not None:
        print("\nsyscall errors for %s:\n" % for_comm)
    else:
        print("\nsyscall errors:\n")
    print("%-30s  %10s" % ("comm [pid]", "count"))
    print("%-30s  %10s" % ("-" * 30, "-" * 10))
    for comm, pids in failures.items():
        for pid, calls in pids.items():
            print("\n%s [%d]" % (comm, pid))
            for nr, errors in calls.items():
                print("  syscall: %-16s" % syscall_name(nr))
                for ret, n in sorted(errors.items(),
                                     key=lambda item: (item[1], item[0]),
                                     reverse=True):
                    print("    err = %-20s  %10d" % (strerror(ret), n))
