# EventClass.py - sample classes for process_event scripts, with the names,
# attributes and counters of perf's module of the same name, so that perf's
# stackcollapse.py and event_analyzing_sample.py run unchanged.
# SPDX-License-Identifier: GPL-2.0-only
#
# create_event() picks the class from the size of the raw buffer: an Intel
# PEBS record is 144 bytes, a PEBS record with load-latency data 176.

from __future__ import print_function

import struct

EVTYPE_GENERIC = 0     # any sample
EVTYPE_PEBS = 1        # Intel PEBS record
EVTYPE_PEBS_LL = 2     # Intel PEBS record with load latency
EVTYPE_IBS = 3         # AMD IBS (no class yet)

_PEBS_SIZE = 144
_PEBS_LL_SIZE = 176


def create_event(name, comm, dso, symbol, raw_buf):
    """The event object for one sample, by the size of its raw buffer."""
    size = len(raw_buf)
    if size == _PEBS_SIZE:
        return PebsEvent(name, comm, dso, symbol, raw_buf)
    if size == _PEBS_LL_SIZE:
        return PebsNHM(name, comm, dso, symbol, raw_buf)
    return PerfEvent(name, comm, dso, symbol, raw_buf)


class PerfEvent(object):
    """One sample: its event name, command, DSO, symbol and raw bytes."""
    event_num = 0

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_GENERIC):
        self.name = name
        self.comm = comm
        self.dso = dso
        self.symbol = symbol
        self.raw_buf = raw_buf
        self.ev_type = ev_type
        PerfEvent.event_num += 1

    def show(self):
        print("PMU event: name=%12s, symbol=%24s, comm=%8s, dso=%12s" %
              (self.name, self.symbol, self.comm, self.dso))


class PebsEvent(PerfEvent):
    """A PEBS record: EFLAGS, the linear IP and the general registers."""
    pebs_num = 0
    _regs = ("flags", "ip", "ax", "bx", "cx", "dx", "si", "di", "bp", "sp")

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_PEBS):
        values = struct.unpack("10Q", raw_buf[:80])
        for reg, value in zip(self._regs, values):
            setattr(self, reg, value)
        PerfEvent.__init__(self, name, comm, dso, symbol, raw_buf, ev_type)
        PebsEvent.pebs_num += 1


class PebsNHM(PebsEvent):
    """A Nehalem/Westmere PEBS record with its four load-latency words:
    global status, data linear address, data source encoding, latency."""
    pebs_nhm_num = 0

    def __init__(self, name, comm, dso, symbol, raw_buf, ev_type=EVTYPE_PEBS_LL):
        self.status, self.dla, self.dse, self.lat = \
            struct.unpack("4Q", raw_buf[_PEBS_SIZE:_PEBS_LL_SIZE])
        PebsEvent.__init__(self, name, comm, dso, symbol, raw_buf, ev_type)
        PebsNHM.pebs_nhm_num += 1
