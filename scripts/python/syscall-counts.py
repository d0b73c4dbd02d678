# syscall-counts.py - system-wide system call totals, by syscall, most
# frequent first; with a COMM argument, only the calls made by tasks so named.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record syscall-counts [-o FILE] [COMMAND...]
# Report: trace-report [-i FILE] syscall-counts [COMM]
#     or  trace-report -s syscall-counts.py [COMM]
# Runs unchanged under perf script -s too (then syscalls print as numbers).

import os
import sys

sys.path.append(os.environ.get('PERF_EXEC_PATH',
                               os.path.dirname(os.path.abspath(sys.argv[0])) + '/../..') +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from Util import syscall_name

usage = "usage: trace-report syscall-counts [comm]\n"

if len(sys.argv) > 2:
    sys.exit(usage)
for_comm = sys.argv[1] if len(sys.argv) == 2 else None

counts = {}    # syscall number -> times entered


def trace_begin():
    print("Press control+C to stop and show the summary")


def raw_syscalls__sys_enter(event_name, context, common_cpu, common_secs,
                            common_nsecs, common_pid, common_comm,
                            common_callchain, id, args):
    if for_comm is not None and common_comm != for_comm:
        return
    counts[id] = counts.get(id, 0) + 1


def trace_end():
    if for_comm is not None:
        print("\nsyscall events for %s:\n" % for_comm)
    else:
        print("\nsyscall events:\n")
    print("%-40s  %10s" % ("event", "count"))
    print("%-40s  %10s" % ("-" * 40, "-" * 11))
    # most frequent first; equal counts by number, highest first, as perf
    for nr, n in sorted(counts.items(), key=lambda item: (item[1], item[0]),
                        reverse=True):
        print("%-40s  %10d" % (syscall_name(nr), n))
