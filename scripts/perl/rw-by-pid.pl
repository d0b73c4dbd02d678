# rw-by-pid.pl - system-wide read(2) and write(2) activity: calls, bytes
# asked for and bytes moved by every task, then the failures by errno.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record rw-by-pid [-o FILE] [COMMAND...]
# Report: trace-report [-i FILE] rw-by-pid
#     or  trace-report -s rw-by-pid.pl
# Tasks are threads (common_pid), named by the comm of their latest call;
# the busiest come first. A call failed when it returned a negative value;
# 0 (end of file) is no failure. Runs under perf script -s too.

use strict;
use warnings;

# our modules; Core for perf, which calls its define_* subs unasked
# (see failed-syscalls.pl)
BEGIN { unshift @INC, (__FILE__ =~ m{^(.*)/} ? $1 : '.') . '/Perf-Trace-Util/lib' }
use Perf::Trace::Core;
use Perf::Trace::Util qw(strerror);

die "usage: trace-report rw-by-pid\n" if @ARGV;

# $io{read}{PID} and $io{write}{PID} = { comm, calls, asked, done, errors => { ret => n } }
my %io = (read => {}, write => {});

sub entered
{
    my ($dir, $pid, $comm, $count) = @_;
    my $t = $io{$dir}{$pid} //= { calls => 0, asked => 0, done => 0, errors => {} };

    $t->{comm} = $comm;
    $t->{calls}++;
    $t->{asked} += $count;
}

sub exited
{
    my ($dir, $pid, $comm, $ret) = @_;
    my $t = $io{$dir}{$pid} //= { calls => 0, asked => 0, done => 0, errors => {} };

    $t->{comm} //= $comm;
    if ($ret >= 0) {
        $t->{done} += $ret;
    } else {
        $t->{errors}{$ret}++;
    }
}

sub syscalls::sys_enter_read
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $nr, $fd, $buf, $count) = @_;

    entered('read', $common_pid, $common_comm, $count);
}

sub syscalls::sys_exit_read
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $nr, $ret) = @_;

    exited('read', $common_pid, $common_comm, $ret);
}

sub syscalls::sys_enter_write
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $nr, $fd, $buf, $count) = @_;

    entered('write', $common_pid, $common_comm, $count);
}

sub syscalls::sys_exit_write
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $nr, $ret) = @_;

    exited('write', $common_pid, $common_comm, $ret);
}

sub counts
{
    my ($dir, $moved) = @_;
    my $tasks = $io{$dir};

    print "$dir counts by pid:\n\n";
    printf("%7s  %-20s  %10s  %15s  %15s\n", "pid", "comm", "# ${dir}s", "bytes_requested", "bytes_$moved");
    printf("%7s  %-20s  %10s  %15s  %15s\n", "-" x 7, "-" x 20, "-" x 10, "-" x 15, "-" x 15);
    for my $pid (sort { $tasks->{$b}{done} <=> $tasks->{$a}{done} ||
                        $tasks->{$b}{asked} <=> $tasks->{$a}{asked} || $a <=> $b } keys %$tasks) {
        my $t = $tasks->{$pid};

        printf("%7d  %-20s  %10d  %15d  %15d\n", $pid, $t->{comm} // '', $t->{calls},
               $t->{asked}, $t->{done});
    }
}

sub failures
{
    my ($dir) = @_;
    my $tasks = $io{$dir};
    my @rows;

    print "\nfailed ${dir}s by pid:\n\n";
    printf("%7s  %-20s  %-15s  %10s\n", "pid", "comm", "error", "# errors");
    printf("%7s  %-20s  %-15s  %10s\n", "-" x 7, "-" x 20, "-" x 15, "-" x 10);
    for my $pid (keys %$tasks) {
        my $errors = $tasks->{$pid}{errors};

        push @rows, [$pid, $tasks->{$pid}{comm} // '', $_, $errors->{$_}] for keys %$errors;
    }
    for my $r (sort { $b->[3] <=> $a->[3] || $a->[0] <=> $b->[0] || $b->[2] <=> $a->[2] } @rows) {
        printf("%7d  %-20s  %-15s  %10d\n", $r->[0], $r->[1], strerror($r->[2]), $r->[3]);
    }
}

sub trace_end
{
    counts('read', 'read');
    failures('read');
    print "\n";
    counts('write', 'written');
    failures('write');
}
