#!/usr/bin/perl
# script-floor.pl - the floor under trace-report -s failed-syscalls.pl: the
# script's own raw_syscalls::sys_exit per call when its ten arguments are
# already made, timed by the system perl. What an engine adds per call above
# this is the engine's cost (issue 26).
#   perl tests/bench/script-floor.pl [SCRIPT] [HANDLER]
# SCRIPT defaults to perf's failed-syscalls.pl, HANDLER to
# raw_syscalls::sys_exit; the script is loaded with perf's Perl modules
# but a stub Perf::Trace::Context (its XS half lives in perf). Prints the
# best of 5 runs of 1,000,000 calls, a third of them failed (ret < 0).
use strict;
use warnings;
use Time::HiRes qw(time);

my $perf = '/usr/lib/perf-core';
my $script = shift // "$perf/scripts/perl/failed-syscalls.pl";
my $handler = shift // 'raw_syscalls::sys_exit';
$ENV{PERF_EXEC_PATH} //= $perf;
$INC{'Perf/Trace/Context.pm'} = __FILE__;
@ARGV = ();
-r $script or die "$script: cannot read it\n";
{
	package main;
	do $script;
	die "$script: $@" if $@;
}
no strict 'refs';
my $fn = \&{$handler};
defined &$fn or die "$script has no $handler\n";
my @comm = ('workload', 'perf', 'sshd');
my @args = map { ['raw_syscalls:sys_exit', 0, $_ % 2, 1528, 90300000 + $_, 4242,
		  $comm[$_ % 3], [], 110, $_ % 3 ? 0 : -2] } 0 .. 999;
my $best;
for (1 .. 5) {
	my $t = time;
	for (1 .. 1000) {
		$fn->(@$_) for @args;
	}
	$t = (time - $t) / 1e6;
	$best = $t if !defined $best || $t < $best;
}
printf("%s: %.0f ns a call (floor: the handler over made arguments)\n", $handler, $best * 1e9);
