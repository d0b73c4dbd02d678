# check-perf-trace.pl - walks every part of the Perl scripting interface
# once: trace_begin/trace_end, handlers, the flag and symbol tables the
# engine defines before trace_begin (flag_str, symbol_str), the
# Perf::Trace::Context calls (common_pc, common_flags, common_lock_depth),
# the syscall map, and trace_unhandled. If it runs and its lines look right,
# scripting works.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record check-perf-trace [-o FILE] [COMMAND...]
#         (irq:softirq_entry, kmem:kmalloc, and kmem:kfree for trace_unhandled)
# Report: trace-report -s check-perf-trace.pl   (the canned name is the Python
#         check's when both are installed), or run bin/check-perf-trace-report
#
# softirq_entry's vec has a __print_symbolic table (HI, TIMER, NET_TX...),
# kmalloc's gfp_flags a __print_flags one (GFP_KERNEL, __GFP_ZERO...).

use strict;
use warnings;

BEGIN { unshift @INC, (__FILE__ =~ m{^(.*)/} ? $1 : '.') . '/Perf-Trace-Util/lib' }
use Perf::Trace::Core;
use Perf::Trace::Context;
use Perf::Trace::Util;

my %unhandled;    # event name => count
my @unhandled_order;

sub trace_begin
{
    print "trace_begin\n";
    # the engine has already handed over the recorded events' tables
    for my $kind (['flag', \%Perf::Trace::Core::flag_fields],
                  ['symbolic', \%Perf::Trace::Core::symbolic_fields]) {
        my ($name, $tables) = @$kind;

        for my $event (sort keys %$tables) {
            for my $field (sort keys %{$tables->{$event}}) {
                printf("  %s field %s.%s: %d values\n", $name, $event, $field,
                       scalar keys %{$tables->{$event}{$field}{values} || {}});
            }
        }
    }
    printf("  syscall map: %d names\n", scalar keys %Perf::Trace::Context::syscall_map);
}

sub trace_end
{
    if (@unhandled_order) {
        print "\nunhandled events:\n\n";
        printf("%-40s  %10s\n", "event", "count");
        printf("%-40s  %10s\n", "-" x 40, "-" x 11);
        printf("%-40s  %10d\n", $_, $unhandled{$_}) for @unhandled_order;
    }
    print "trace_end\n";
}

sub show_common
{
    my ($event_name, $context, $cpu, $secs, $nsecs, $pid, $comm) = @_;

    printf("%-20s %5u %05u.%09u %8u %-20s ", $event_name, $cpu, $secs, $nsecs, $pid, $comm);
    # the common fields that are not handler arguments
    printf("common_preempt_count=%d, common_flags=%s, common_lock_depth=%d, ",
           common_pc($context), trace_flag_str(common_flags($context)) // '',
           common_lock_depth($context));
}

sub irq::softirq_entry
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $vec) = @_;

    show_common(@_[0 .. 6]);
    printf("vec=%s\n", symbol_str("irq::softirq_entry", "vec", $vec) // '');
}

# fields after gfp_flags (node, in 6.1) are left in @_
sub kmem::kmalloc
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain,
        $call_site, $ptr, $bytes_req, $bytes_alloc, $gfp_flags) = @_;

    show_common(@_[0 .. 6]);
    printf("call_site=%u, ptr=%u, bytes_req=%u, bytes_alloc=%u, gfp_flags=%s\n",
           $call_site, $ptr, $bytes_req, $bytes_alloc,
           flag_str("kmem::kmalloc", "gfp_flags", $gfp_flags) // '');
}

sub trace_unhandled
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain) = @_;

    push @unhandled_order, $event_name unless $unhandled{$event_name}++;
}
