# rw-by-file.pl - read(2) and write(2) activity of one program, by file
# descriptor: calls, bytes asked for, bytes moved, failures.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record rw-by-file [-o FILE] [COMMAND...]
# Report: trace-report [-i FILE] rw-by-file COMM
#     or  trace-report -s rw-by-file.pl COMM
# COMM is a command name (the comm of the tasks, as trace-report prints
# it). Each exit is matched with the entry of the same thread to find its
# fd; the busiest descriptors come first. Runs under perf script -s too.

use strict;
use warnings;

# our modules; Core for perf, which calls its define_* subs unasked
# (see failed-syscalls.pl)
BEGIN { unshift @INC, (__FILE__ =~ m{^(.*)/} ? $1 : '.') . '/Perf-Trace-Util/lib' }
use Perf::Trace::Core;

my $usage = "usage: trace-report rw-by-file comm\n";

die $usage unless @ARGV == 1;
my $for_comm = $ARGV[0];

# $io{read}{FD} and $io{write}{FD} = { calls, asked, done, errors }
my %io = (read => {}, write => {});
my %in_call;    # thread => [direction, fd] of the call it is in

sub entered
{
    my ($dir, $pid, $comm, $fd, $count) = @_;

    if ($comm ne $for_comm) {
        delete $in_call{$pid};
        return;
    }
    my $f = $io{$dir}{$fd} //= { calls => 0, asked => 0, done => 0, errors => 0 };
    $f->{calls}++;
    $f->{asked} += $count;
    $in_call{$pid} = [$dir, $fd];
}

sub exited
{
    my ($dir, $pid, $ret) = @_;
    my $call = delete $in_call{$pid};

    return unless $call && $call->[0] eq $dir;
    my $f = $io{$dir}{$call->[1]};
    if ($ret >= 0) {
        $f->{done} += $ret;
    } else {
        $f->{errors}++;
    }
}

sub syscalls::sys_enter_read
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $nr, $fd, $buf, $count) = @_;

    entered('read', $common_pid, $common_comm, $fd, $count);
}

sub syscalls::sys_exit_read
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $nr, $ret) = @_;

    exited('read', $common_pid, $ret);
}

sub syscalls::sys_enter_write
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $nr, $fd, $buf, $count) = @_;

    entered('write', $common_pid, $common_comm, $fd, $count);
}

sub syscalls::sys_exit_write
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $nr, $ret) = @_;

    exited('write', $common_pid, $ret);
}

sub table
{
    my ($dir, $moved) = @_;
    my $fds = $io{$dir};

    print "file $dir counts for $for_comm:\n\n";
    printf("%6s  %10s  %15s  %15s  %10s\n", "fd", "# ${dir}s", "bytes_requested", "bytes_$moved", "# errors");
    printf("%6s  %10s  %15s  %15s  %10s\n", "-" x 6, "-" x 10, "-" x 15, "-" x 15, "-" x 10);
    for my $fd (sort { $fds->{$b}{asked} <=> $fds->{$a}{asked} || $a <=> $b } keys %$fds) {
        my $f = $fds->{$fd};

        printf("%6d  %10d  %15d  %15d  %10d\n", $fd, $f->{calls}, $f->{asked}, $f->{done}, $f->{errors});
    }
}

sub trace_end
{
    table('read', 'read');
    print "\n";
    table('write', 'written');
}
