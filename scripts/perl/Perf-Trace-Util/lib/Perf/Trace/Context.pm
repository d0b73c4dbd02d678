# Context.pm - Perf::Trace::Context: what a Perl trace script can ask the
# engine about the event being handled, and the recording's syscall map.
# SPDX-License-Identifier: GPL-2.0-only
#
# The functions are XS compiled into tracebox (engines/perl/perl_context.c), as
# they are into perf: the engine registers Perf::Trace::Context::bootstrap
# before any script runs, and XSLoader::load below jumps straight to it, so
# nothing is loaded from disk. Outside an engine (a plain perl) there is no
# bootstrap and loading this module dies with a message that says so.
#
#   common_pc($context)          the event's common_preempt_count
#   common_flags($context)       its common_flags (Core's trace_flag_str names them)
#   common_lock_depth($context)  its common_lock_depth; 0 on kernels after
#                                2.6.37, which dropped the field
#   %Perf::Trace::Context::syscall_map   number => name, filled by the engine
#                                before the script is loaded; empty when the
#                                recording has no map (and always under perf)
#
# $context is the second argument of every handler, valid only while that
# handler runs. See ../../../../README.md for the whole interface.

package Perf::Trace::Context;

use strict;
use warnings;

require Exporter;
our @ISA = ('Exporter');

our @EXPORT = qw(common_pc common_flags common_lock_depth);
our @EXPORT_OK = ('%syscall_map');
our %EXPORT_TAGS = (all => [@EXPORT, @EXPORT_OK]);

# perf's bootstrap checks the version it was built with (0.01) against
# this one, so keep the two equal or our scripts stop loading under perf.
our $VERSION = '0.01';

# Declared, never assigned: the engine has filled it already.
our %syscall_map;

unless (defined &Perf::Trace::Context::bootstrap) {
    die "Perf::Trace::Context is built into the trace engine: use it from a "
      . "script run by trace-report -s (or perf script -s), not a plain perl\n";
}
# XSLoader jumps to the bootstrap the engine registered, with these
# arguments; a guest without XSLoader.pm gets the same by calling it here.
if (eval { require XSLoader; 1 }) {
    XSLoader::load('Perf::Trace::Context', $VERSION);
} else {
    Perf::Trace::Context::bootstrap('Perf::Trace::Context', $VERSION);
}

1;
