# wakeup-latency.pl - system-wide wakeup latency: the time from a task's
# wakeup to the moment it runs, overall (total, avg, min, max) and by comm.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record wakeup-latency [-o FILE] [COMMAND...]
# Report: trace-report [-i FILE] wakeup-latency
#     or  trace-report -s wakeup-latency.pl
# A sched_wakeup (or sched_wakeup_new) of pid P starts the clock (the first
# one, if more come before P runs), the next sched_switch to P stops it. A wakeup of a task that is already running
# is dropped when the task next switches out. perf's 2010 script measured
# from the last wakeup aimed at a CPU to that CPU's next switch, whichever
# tasks they were about. Runs under perf script -s too.

use strict;
use warnings;

# our modules; Core for perf, which calls its define_* subs unasked
# (see failed-syscalls.pl)
BEGIN { unshift @INC, (__FILE__ =~ m{^(.*)/} ? $1 : '.') . '/Perf-Trace-Util/lib' }
use Perf::Trace::Core;
use Perf::Trace::Util qw(nsecs avg);

die "usage: trace-report wakeup-latency\n" if @ARGV;

my %woken;        # pid => [wakeup time in ns, comm]
my %by_comm;      # comm => { n, total, min, max }
my %first_seen;   # comm => order
my ($n, $total, $min, $max) = (0, 0, undef, undef);

sub woken
{
    my ($secs, $nsecs, $comm, $pid) = @_;

    $woken{$pid} //= [nsecs($secs, $nsecs), $comm];
}

# comm, pid, prio, then target_cpu (before Linux 3.x: success, target_cpu)
sub sched::sched_wakeup
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $comm, $pid) = @_;

    woken($common_secs, $common_nsecs, $comm, $pid);
}

sub sched::sched_wakeup_new
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $comm, $pid) = @_;

    woken($common_secs, $common_nsecs, $comm, $pid);
}

sub sched::sched_switch
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain,
        $prev_comm, $prev_pid, $prev_prio, $prev_state,
        $next_comm, $next_pid, $next_prio) = @_;

    delete $woken{$prev_pid};
    my $w = delete $woken{$next_pid} or return;
    my $lat = nsecs($common_secs, $common_nsecs) - $w->[0];
    return if $lat < 0;

    $n++;
    $total += $lat;
    $min = $lat if !defined $min || $lat < $min;
    $max = $lat if !defined $max || $lat > $max;

    my $comm = $w->[1];
    my $c = $by_comm{$comm} //= { n => 0, total => 0, min => $lat, max => $lat };
    $first_seen{$comm} //= scalar keys %first_seen;
    $c->{n}++;
    $c->{total} += $lat;
    $c->{min} = $lat if $lat < $c->{min};
    $c->{max} = $lat if $lat > $c->{max};
}

sub trace_end
{
    print "wakeup_latency stats:\n\n";
    print "total_wakeups: $n\n";
    if ($n) {
        printf("avg_wakeup_latency (ns): %u\n", avg($total, $n));
        printf("min_wakeup_latency (ns): %u\n", $min);
        printf("max_wakeup_latency (ns): %u\n", $max);
    } else {
        print "avg_wakeup_latency (ns): N/A\n";
        print "min_wakeup_latency (ns): N/A\n";
        print "max_wakeup_latency (ns): N/A\n";
    }
    return unless $n;

    print "\nwakeup latency by comm, worst first:\n\n";
    printf("%-20s  %10s  %12s  %12s  %12s\n", "comm", "wakeups", "avg (ns)", "min (ns)", "max (ns)");
    printf("%-20s  %10s  %12s  %12s  %12s\n", "-" x 20, "-" x 10, "-" x 12, "-" x 12, "-" x 12);
    for my $comm (sort { $by_comm{$b}{max} <=> $by_comm{$a}{max} ||
                         $first_seen{$a} <=> $first_seen{$b} } keys %by_comm) {
        my $c = $by_comm{$comm};

        printf("%-20s  %10d  %12u  %12u  %12u\n", $comm, $c->{n}, avg($c->{total}, $c->{n}),
               $c->{min}, $c->{max});
    }
}
