# Util.py - time arithmetic, statistics, errno and syscall names for trace
# scripts: the names perf's Perf-Trace-Util Util module offers, and more.
# SPDX-License-Identifier: GPL-2.0-only
#
# Scripts get these with "from Util import *" (or import single names).
# syscall_name() answers from the recording's syscall map, which tracebox
# hands over as perf_trace_context.syscall_map; unlike perf's Util this
# module needs no python-audit and prints nothing when imported.
# See ../../../../README.md for the whole interface.

import errno
import os    # not used here; perf's Util hands it on through "import *"
import sys

# futex(2) operations and flags, from include/uapi/linux/futex.h
FUTEX_WAIT = 0
FUTEX_WAKE = 1
FUTEX_FD = 2
FUTEX_REQUEUE = 3
FUTEX_CMP_REQUEUE = 4
FUTEX_WAKE_OP = 5
FUTEX_LOCK_PI = 6
FUTEX_UNLOCK_PI = 7
FUTEX_TRYLOCK_PI = 8
FUTEX_WAIT_BITSET = 9
FUTEX_WAKE_BITSET = 10
FUTEX_WAIT_REQUEUE_PI = 11
FUTEX_CMP_REQUEUE_PI = 12
FUTEX_LOCK_PI2 = 13
FUTEX_PRIVATE_FLAG = 128
FUTEX_CLOCK_REALTIME = 256
FUTEX_CMD_MASK = ~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME)

NSECS_PER_SEC = 1000000000


def avg(total, n):
    """total / n (true division: a float under Python 3)."""
    return total / n


def nsecs(secs, nsecs):
    """common_secs and common_nsecs (or any seconds and nanoseconds) as one
    count of nanoseconds."""
    return secs * NSECS_PER_SEC + nsecs


def nsecs_secs(nsecs):
    """The whole seconds in a count of nanoseconds (an int)."""
    return nsecs // NSECS_PER_SEC


def nsecs_nsecs(nsecs):
    """The nanoseconds past the last whole second: nsecs % NSECS_PER_SEC."""
    return nsecs % NSECS_PER_SEC


def nsecs_str(nsecs):
    """A count of nanoseconds as "SSSSS.NNNNNNNNN" (seconds right-aligned in
    five columns, nine digits of nanoseconds). perf's version returns this
    string inside a 1-tuple; here it is a plain str, which "%s" % ... and
    print() both take."""
    return "%5u.%09u" % (nsecs_secs(nsecs), nsecs_nsecs(nsecs))


def add_stats(dict, key, value):
    """Fold value into dict[key] = (min, max, avg, count). As in perf, "avg"
    is a running midpoint, (previous avg + value) / 2, not the mean; keep
    your own sum for a true mean."""
    old = dict.get(key)
    if old is None:
        dict[key] = (value, value, value, 1)
        return
    lo, hi, mid, count = old
    dict[key] = (min(lo, value), max(hi, value), (mid + value) / 2, count + 1)


def clear_term():
    """Home the cursor and clear an ANSI terminal (for scripts that redraw
    a summary periodically)."""
    print("\x1b[H\x1b[2J")


def strerror(nr):
    """The errno name of a syscall's return value or an errno, sign ignored:
    strerror(-2) == "ENOENT"; "Unknown NR errno" when there is none."""
    try:
        return errno.errorcode[abs(nr)]
    except (KeyError, TypeError):
        return "Unknown %s errno" % (nr,)


# The perf_trace_context module exists only inside the engine (tracebox's or
# perf's); under a plain python3 it is missing and syscall_name() falls back
# to numbers. The import is tried once, and sys.modules is looked at on every
# call so that a module installed later (a test's stand-in) is seen.
_context_import_failed = False


def _syscall_map():
    global _context_import_failed
    ctx = sys.modules.get('perf_trace_context')
    if ctx is None and not _context_import_failed:
        try:
            import perf_trace_context as ctx
        except ImportError:
            _context_import_failed = True
            ctx = None
    return getattr(ctx, 'syscall_map', None)


def syscall_name(id):
    """The name of system call number id as the recording's syscall map gives
    it, or str(id) when the map does not know it (or there is no map: perf,
    a plain python3, a recording made without one)."""
    table = _syscall_map()
    if table:
        try:
            name = table.get(id)
        except (AttributeError, TypeError):
            name = None
        if name:
            return name
    return str(id)
