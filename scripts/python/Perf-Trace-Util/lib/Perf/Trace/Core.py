# Core.py - flag and symbol tables, trace flags and event headers for trace
# scripts: the names perf's Perf-Trace-Util Core module offers, same results.
# SPDX-License-Identifier: GPL-2.0-only
#
# Scripts get these with "from Core import *". Before trace_begin() runs,
# the engine calls define_flag_field/define_flag_value (one call per
# __print_flags table, then one per entry) and define_symbolic_field/
# define_symbolic_value (same for __print_symbolic) for every field of every
# recorded event whose print format has such a table; flag_str() and
# symbol_str() answer from what was defined. Event names here are handler
# names ("irq__softirq_entry"). See ../../../../README.md for the whole
# interface.

from collections import defaultdict


def autodict():
    """A dict whose missing keys spring into being as further autodicts, so
    d[comm][pid][nr] needs no set-up. A missing leaf is an (empty) autodict,
    not 0: scripts count with
        try: d[k] += 1
        except TypeError: d[k] = 1
    """
    return defaultdict(autodict)


# flag_fields[event][field] = {'delim': str, 'values': {bits: name}}
# symbolic_fields[event][field] = {'values': {value: name}}
# Kept in this shape (autodicts) because some scripts read them directly.
flag_fields = autodict()
symbolic_fields = autodict()


def define_flag_field(event_name, field_name, delim):
    """Start (or restart) the __print_flags table of event_name.field_name;
    delim is the separator the print format gives, e.g. "|"."""
    flag_fields[event_name][field_name]['delim'] = delim


def define_flag_value(event_name, field_name, value, field_str):
    """Name the flag bits value of event_name.field_name."""
    flag_fields[event_name][field_name]['values'][value] = field_str


def define_symbolic_field(event_name, field_name):
    """Announce a __print_symbolic table. Its entries come with
    define_symbolic_value; there is nothing to remember until then."""


def define_symbolic_value(event_name, field_name, value, field_str):
    """Name the value of event_name.field_name."""
    symbolic_fields[event_name][field_name]['values'][value] = field_str


def _lookup(tables, event_name, field_name):
    # .get() so that asking about an unknown event adds nothing to the tables
    per_event = tables.get(event_name)
    if not per_event:
        return None
    return per_event.get(field_name) or None


def flag_str(event_name, field_name, value):
    """The names of the flags set in value, in increasing order of their bit
    values, joined by " DELIM " (no separator when the table has none).

    A flag entry matches when all of its bits are set in value; its bits are
    then taken out of value, so later entries can only match what is left.
    0 gives the entry for 0, if any. Bits that no entry names are left out,
    and an unknown event or field gives "" (both as perf does)."""
    table = _lookup(flag_fields, event_name, field_name)
    if table is None:
        return ""
    names = table.get('values') or {}
    if not value:
        return names.get(0, "")
    found = []
    for bits in sorted(names):
        if bits and value & bits == bits:
            found.append(names[bits])
            value &= ~bits
    delim = table.get('delim')
    return (" %s " % delim if delim else "").join(found)


def symbol_str(event_name, field_name, value):
    """The name __print_symbolic gives value, or "" when it has none."""
    table = _lookup(symbolic_fields, event_name, field_name)
    if table is None:
        return ""
    return (table.get('values') or {}).get(value, "")


# The common_flags bits as the 2010 kernels defined them (kernel/trace/trace.h,
# today include/linux/trace_events.h: enum trace_flag_type). Later kernels
# added 0x20 PREEMPT_RESCHED, 0x40 NMI and 0x80 BH_OFF; like perf, these are
# not named.
trace_flags = {
    0x00: "NONE",
    0x01: "IRQS_OFF",
    0x02: "IRQS_NOSUPPORT",
    0x04: "NEED_RESCHED",
    0x08: "HARDIRQ",
    0x10: "SOFTIRQ",
}


def trace_flag_str(value):
    """common_flags(context) as text: "NONE" for 0, else the names of the
    set bits, lowest first, joined by " | ", e.g. "IRQS_OFF | SOFTIRQ"."""
    if not value:
        return trace_flags[0]
    return " | ".join(name for bit, name in sorted(trace_flags.items())
                      if bit and value & bit == bit)


_task_states = {0: "R", 1: "S", 2: "D", 64: "DEAD"}


def taskState(state):
    """One letter for a sched_switch prev_state: R (running), S (sleeping),
    D (uninterruptible), DEAD; "Unknown" for anything else."""
    return _task_states.get(state, "Unknown")


class EventHeaders:
    """The common handler arguments of one event, kept together."""

    def __init__(self, common_cpu, common_secs, common_nsecs,
                 common_pid, common_comm, common_callchain=None):
        self.cpu = common_cpu
        self.secs = common_secs
        self.nsecs = common_nsecs
        self.pid = common_pid
        self.comm = common_comm
        self.callchain = common_callchain

    def ts(self):
        """The timestamp in nanoseconds."""
        return self.secs * 1000000000 + self.nsecs

    def ts_format(self):
        """"SECS.USECS", the microseconds not zero-padded (as perf prints)."""
        return "%d.%d" % (self.secs, self.nsecs // 1000)
