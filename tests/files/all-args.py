# all-args.py - prints every argument perf's Python scripting interface
# passes, with repr() so that types show too: tests/python.test and
# tests/perl.test run it under trace-report -s and perf script -s and
# compare. Handlers for three events take every positional argument;
# trace_unhandled prints the sorted dict of the others.

def show(*values):
	print(' '.join(repr(v) for v in values))

def trace_begin():
	print('trace_begin')

def raw_syscalls__sys_exit(event_name, context, common_cpu, common_secs, common_nsecs,
		common_pid, common_comm, common_callchain, id, ret):
	show(event_name, common_cpu, common_secs, common_nsecs, common_pid, common_comm,
	     common_callchain, id, ret)

def signal__signal_generate(event_name, context, common_cpu, common_secs, common_nsecs,
		common_pid, common_comm, common_callchain, sig, errno, code, comm, pid,
		group, result):
	show(event_name, common_cpu, common_secs, common_nsecs, common_pid, common_comm,
	     common_callchain, sig, errno, code, comm, pid, group, result)

def sched__sched_switch(event_name, context, common_cpu, common_secs, common_nsecs,
		common_pid, common_comm, common_callchain, prev_comm, prev_pid, prev_prio,
		prev_state, next_comm, next_pid, next_prio):
	show(event_name, common_cpu, common_secs, common_nsecs, common_pid, common_comm,
	     common_callchain, prev_comm, prev_pid, prev_prio, prev_state, next_comm,
	     next_pid, next_prio)

def trace_unhandled(event_name, context, event_fields_dict):
	show(event_name, sorted(event_fields_dict.items()))

def trace_end():
	print('trace_end')
