# check-perf-trace.py - walks every part of the Python scripting interface
# once: trace_begin/trace_end, handlers with common_callchain, the flag and
# symbol tables the engine defines before trace_begin (flag_str, symbol_str),
# the perf_trace_context calls (common_pc, common_flags, common_lock_depth),
# and trace_unhandled. If it runs and its lines look right, scripting works.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record check-perf-trace [-o FILE] [COMMAND...]
#         (irq:softirq_entry, kmem:kmalloc, and kmem:kfree for trace_unhandled)
# Report: trace-report [-i FILE] check-perf-trace
#
# softirq_entry's vec has a __print_symbolic table (HI, TIMER, NET_TX...),
# kmalloc's gfp_flags a __print_flags one (GFP_KERNEL, __GFP_ZERO...).

import os
import sys

sys.path.append(os.environ.get('PERF_EXEC_PATH',
                               os.path.dirname(os.path.abspath(sys.argv[0])) + '/../..') +
                '/scripts/python/Perf-Trace-Util/lib/Perf/Trace')

from Core import *
from perf_trace_context import *

unhandled = {}    # event name -> count


def trace_begin():
    print("trace_begin")
    # the engine has already handed over the recorded events' tables
    for kind, tables in (("flag", flag_fields), ("symbolic", symbolic_fields)):
        for event, fields in sorted(tables.items()):
            for field, table in sorted(fields.items()):
                print("  %s field %s.%s: %d values" %
                      (kind, event, field, len(table.get('values') or {})))


def trace_end():
    if unhandled:
        print("\nunhandled events:\n")
        print("%-40s  %10s" % ("event", "count"))
        print("%-40s  %10s" % ("-" * 40, "-" * 11))
        for event, n in unhandled.items():
            print("%-40s  %10d" % (event, n))
    print("trace_end")


def show_common(event_name, context, cpu, secs, nsecs, pid, comm):
    print("%-20s %5u %05u.%09u %8u %-20s " %
          (event_name, cpu, secs, nsecs, pid, comm), end=' ')
    # the common fields that are not handler arguments
    print("common_preempt_count=%d, common_flags=%s, common_lock_depth=%d, " %
          (common_pc(context), trace_flag_str(common_flags(context)),
           common_lock_depth(context)), end='')


def irq__softirq_entry(event_name, context, common_cpu, common_secs,
                       common_nsecs, common_pid, common_comm,
                       common_callchain, vec):
    show_common(event_name, context, common_cpu, common_secs, common_nsecs,
                common_pid, common_comm)
    print("vec=%s" % symbol_str("irq__softirq_entry", "vec", vec))


# *more takes what later kernels appended to kmalloc (node, in 6.1)
def kmem__kmalloc(event_name, context, common_cpu, common_secs, common_nsecs,
                  common_pid, common_comm, common_callchain,
                  call_site, ptr, bytes_req, bytes_alloc, gfp_flags, *more):
    show_common(event_name, context, common_cpu, common_secs, common_nsecs,
                common_pid, common_comm)
    print("call_site=%u, ptr=%u, bytes_req=%u, bytes_alloc=%u, gfp_flags=%s" %
          (call_site, ptr, bytes_req, bytes_alloc,
           flag_str("kmem__kmalloc", "gfp_flags", gfp_flags)))


def trace_unhandled(event_name, context, event_fields_dict):
    unhandled[event_name] = unhandled.get(event_name, 0) + 1
