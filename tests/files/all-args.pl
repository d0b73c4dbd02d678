# all-args.pl - prints every argument perf's Perl scripting interface
# passes (all but the opaque $context): tests/perl.test runs it under
# trace-report -s and perf script -s and compares. Handlers for three
# events name every argument; trace_unhandled prints the rest of @_.

sub show
{
	print join(' ', map { ref($_) eq 'ARRAY' ? '[' . join(',', @$_) . ']' :
			      defined($_) ? "'$_'" : 'undef' } @_), "\n";
}

sub trace_begin { print "trace_begin\n"; }

sub raw_syscalls::sys_exit
{
	my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
	    $common_pid, $common_comm, $common_callchain, $id, $ret) = @_;
	show($event_name, $common_cpu, $common_secs, $common_nsecs, $common_pid,
	     $common_comm, $common_callchain, $id, $ret);
}

sub signal::signal_generate
{
	my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
	    $common_pid, $common_comm, $common_callchain, $sig, $errno, $code,
	    $comm, $pid, $group, $result) = @_;
	show($event_name, $common_cpu, $common_secs, $common_nsecs, $common_pid,
	     $common_comm, $common_callchain, $sig, $errno, $code, $comm, $pid,
	     $group, $result);
}

sub sched::sched_switch
{
	my ($event_name, $context, $common_cpu, $common_secs, $common_nsecs,
	    $common_pid, $common_comm, $common_callchain, $prev_comm, $prev_pid,
	    $prev_prio, $prev_state, $next_comm, $next_pid, $next_prio) = @_;
	show($event_name, $common_cpu, $common_secs, $common_nsecs, $common_pid,
	     $common_comm, $common_callchain, $prev_comm, $prev_pid, $prev_prio,
	     $prev_state, $next_comm, $next_pid, $next_prio);
}

sub trace_unhandled
{
	my ($event_name, $context, @rest) = @_;
	show($event_name, @rest);
}

sub trace_end { print "trace_end\n"; }
