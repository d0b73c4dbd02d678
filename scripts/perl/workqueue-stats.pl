# workqueue-stats.pl - workqueue activity: work items queued, activated
# and executed on every CPU, by workqueue, and how long they ran.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record workqueue-stats [-o FILE] [COMMAND...]
# Report: trace-report [-i FILE] workqueue-stats
#     or  trace-report -s workqueue-stats.pl
# perf's 2010 script counted the workqueue:workqueue_insertion/_execution
# (and _creation/_destruction) events of the per-CPU worker threads; the
# concurrency-managed workqueues of 2.6.36 on have other tracepoints:
#   workqueue_queue_work       work, function, workqueue, req_cpu, cpu
#   workqueue_activate_work    work (, function on recent kernels)
#   workqueue_execute_start    work, function
#   workqueue_execute_end      work (, function on recent kernels)
# Only queue_work names the workqueue (a string on recent kernels, an
# address on older ones), so activations and executions are credited to
# the workqueue the work item was last queued on; work queued before the
# recording started counts under "(unknown)". Every count is by the CPU the
# event happened on. Runs under perf script -s too.

use strict;
use warnings;

# our modules; Core for perf, which calls its define_* subs unasked
# (see failed-syscalls.pl)
BEGIN { unshift @INC, (__FILE__ =~ m{^(.*)/} ? $1 : '.') . '/Perf-Trace-Util/lib' }
use Perf::Trace::Core;

die "usage: trace-report workqueue-stats\n" if @ARGV;

my %wq_of;     # work address => workqueue name
my %running;   # "cpu work" => [start time in ns, workqueue]
my %stats;     # cpu => workqueue => { queued, activated, executed }
my %times;     # workqueue => { n, total, max } (ns)
my %first;     # workqueue => order of first sight

sub wq_name
{
    my ($wq) = @_;

    return '(unknown)' unless defined $wq && $wq ne '';
    # an address on kernels whose tracepoint had no name
    return sprintf("%#x", $wq) if $wq =~ /^\d+$/;
    return $wq;
}

sub count
{
    my ($cpu, $wq, $what) = @_;

    $first{$wq} //= scalar keys %first;
    $stats{$cpu}{$wq}{$what}++;
}

sub workqueue::workqueue_queue_work
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain,
        $work, $function, $workqueue, $req_cpu, $cpu) = @_;

    my $wq = wq_name($workqueue);
    $wq_of{$work} = $wq;
    count($common_cpu, $wq, 'queued');
}

sub workqueue::workqueue_activate_work
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $work) = @_;

    count($common_cpu, $wq_of{$work} // '(unknown)', 'activated');
}

sub workqueue::workqueue_execute_start
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $work) = @_;

    my $wq = $wq_of{$work} // '(unknown)';
    count($common_cpu, $wq, 'executed');
    $running{"$common_cpu $work"} = [$common_secs * 1000000000 + $common_nsecs, $wq];
}

sub workqueue::workqueue_execute_end
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $work) = @_;

    my $r = delete $running{"$common_cpu $work"} or return;
    my $ns = $common_secs * 1000000000 + $common_nsecs - $r->[0];
    return if $ns < 0;
    my $t = $times{$r->[1]} //= { n => 0, total => 0, max => 0 };
    $t->{n}++;
    $t->{total} += $ns;
    $t->{max} = $ns if $ns > $t->{max};
}

sub by_first { $first{$a} <=> $first{$b} }

sub trace_end
{
    print "workqueue work stats:\n\n";
    printf("%4s  %10s  %10s  %10s  %s\n", "cpu", "queued", "activated", "executed", "workqueue");
    printf("%4s  %10s  %10s  %10s  %s\n", "-" x 4, "-" x 10, "-" x 10, "-" x 10, "-" x 20);
    for my $cpu (sort { $a <=> $b } keys %stats) {
        for my $wq (sort by_first keys %{$stats{$cpu}}) {
            my $s = $stats{$cpu}{$wq};

            printf("%4d  %10d  %10d  %10d  %s\n", $cpu, $s->{queued} // 0,
                   $s->{activated} // 0, $s->{executed} // 0, $wq);
        }
    }

    print "\nworkqueue execution times:\n\n";
    printf("%-24s  %10s  %12s  %12s\n", "workqueue", "executed", "avg (us)", "max (us)");
    printf("%-24s  %10s  %12s  %12s\n", "-" x 24, "-" x 10, "-" x 12, "-" x 12);
    for my $wq (sort { $times{$b}{total} <=> $times{$a}{total} || by_first() } keys %times) {
        my $t = $times{$wq};

        printf("%-24s  %10d  %12.3f  %12.3f\n", $wq, $t->{n}, $t->{total} / $t->{n} / 1000,
               $t->{max} / 1000);
    }
}
