# failed-syscalls.pl - system-wide failed system calls: the errors of every
# command name, most first, then of every syscall by errno; with a COMM
# argument, only the calls of tasks so named.
# SPDX-License-Identifier: GPL-2.0-only
#
# Record: trace-record failed-syscalls [-o FILE] [COMMAND...]
# Report: trace-report [-i FILE] failed-syscalls [COMM]
#     or  trace-report -s failed-syscalls.pl [COMM]
# A call failed when raw_syscalls:sys_exit returned a negative value
# (-errno). Equal counts keep the order in which they were first seen. Runs
# under perf script -s too (then syscalls print as numbers).

use strict;
use warnings;

# Our modules sit beside this script: under trace-report they are on @INC
# already, under perf script this puts them ahead of perf's.
BEGIN { unshift @INC, (__FILE__ =~ m{^(.*)/} ? $1 : '.') . '/Perf-Trace-Util/lib' }
# perf calls define_* for every event that has a flag or symbol table,
# wanted or not, and dies if main has no such subs: Core exports them
use Perf::Trace::Core;
use Perf::Trace::Util qw(syscall_name strerror);

my $usage = "usage: trace-report failed-syscalls [comm]\n";

die $usage if @ARGV > 1;
my $for_comm = shift @ARGV;

my %by_comm;     # comm => errors
my %by_call;     # syscall number => errno => errors
my %seen;        # "comm" or "nr errno" => order of the first failure
my $order = 0;

sub trace_begin
{
    print "Press control+C to stop and show the summary\n";
}

sub raw_syscalls::sys_exit
{
    my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
        $common_pid, $common_comm, $common_callchain, $id, $ret) = @_;

    return if !defined $ret || $ret >= 0;
    return if defined $for_comm && $common_comm ne $for_comm;
    $seen{"c $common_comm"} //= $order++;
    $seen{"e $id $ret"} //= $order++;
    $by_comm{$common_comm}++;
    $by_call{$id}{$ret}++;
}

sub trace_end
{
    print "\nfailed syscalls by comm:\n\n";
    printf("%-20s  %10s\n", "comm", "# errors");
    printf("%-20s  %10s\n", "-" x 20, "-" x 10);
    for my $comm (sort { $by_comm{$b} <=> $by_comm{$a} || $seen{"c $a"} <=> $seen{"c $b"} }
                  keys %by_comm) {
        printf("%-20s  %10d\n", $comm, $by_comm{$comm});
    }

    print "\nfailed syscalls by syscall and error:\n\n";
    printf("%-20s  %-20s  %10s\n", "syscall", "error", "# errors");
    printf("%-20s  %-20s  %10s\n", "-" x 20, "-" x 20, "-" x 10);
    my @rows;
    for my $nr (keys %by_call) {
        push @rows, [$nr, $_, $by_call{$nr}{$_}] for keys %{$by_call{$nr}};
    }
    for my $r (sort { $b->[2] <=> $a->[2] || $seen{"e $a->[0] $a->[1]"} <=> $seen{"e $b->[0] $b->[1]"} }
               @rows) {
        printf("%-20s  %-20s  %10d\n", syscall_name($r->[0]), strerror($r->[1]), $r->[2]);
    }
}
