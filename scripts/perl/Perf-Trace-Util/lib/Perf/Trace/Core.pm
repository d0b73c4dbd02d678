# Core.pm - Perf::Trace::Core: the __print_flags and __print_symbolic tables
# of the recorded events, and the names of the common_flags bits.
# SPDX-License-Identifier: GPL-2.0-only
#
# Everything perf's Perf::Trace::Core exports, with perf's results, so
# perf's Perl scripts run unchanged; taskState and the tables themselves on
# request. Before trace_begin the engine calls define_flag_field and then
# define_flag_value once per entry for every __print_flags table in the print
# formats of the recorded events (define_symbolic_field/_value likewise for
# __print_symbolic), through main::, where "use Perf::Trace::Core" put these
# subs. Event names are handler names: "kmem::kmalloc".
# See ../../../../README.md for the whole interface.

package Perf::Trace::Core;

use strict;
use warnings;

require Exporter;
our @ISA = ('Exporter');

our @EXPORT = qw(
    define_flag_field define_flag_value flag_str dump_flag_fields
    define_symbolic_field define_symbolic_value symbol_str dump_symbolic_fields
    trace_flag_str
);
our @EXPORT_OK = qw(taskState);
our %EXPORT_TAGS = (all => [@EXPORT, @EXPORT_OK]);

our $VERSION = '0.01';

# $flag_fields{EVENT}{FIELD} = { delim => "|", values => { BITS => NAME } }
# $symbolic_fields{EVENT}{FIELD} = { values => { VALUE => NAME } }
# perf keeps these private; here scripts may read them.
our %flag_fields;
our %symbolic_fields;

# The common_flags bits as perf (and the 2010 kernel) named them. Newer
# kernels set more bits (0x20 preempt-resched, 0x40 NMI, 0x80 BH off);
# those are left unnamed, as perf leaves them.
our %trace_flags = (
    0x00 => 'NONE',
    0x01 => 'IRQS_OFF',
    0x02 => 'IRQS_NOSUPPORT',
    0x04 => 'NEED_RESCHED',
    0x08 => 'HARDIRQ',
    0x10 => 'SOFTIRQ',
);

# Table keys and looked-up values as unsigned 64-bit numbers: the engine
# hands table entries over unsigned, a signed field's -1 must still find
# the entry for ~0. undef counts as 0, as in perf.
sub _u64
{
    my $v = shift;

    return 0 unless defined $v;
    return $v & ~0;
}

# Names of the entries of %$names whose bits are all set in $value, in
# increasing numeric order, each entry's bits taken out of $value once it
# matched; the entry for 0 when $value is 0. undef when nothing matched.
sub _bits_str
{
    my ($names, $order, $value, $delim) = @_;
    my @out;

    $value = _u64($value);
    for my $bits (@$order) {
        if ($bits == 0) {
            if ($value == 0) {
                push @out, $names->{$bits};
                last;
            }
            next;
        }
        next if ($value & $bits) != $bits;
        push @out, $names->{$bits};
        $value &= ~$bits;
    }
    return undef unless @out;
    return join(defined $delim && $delim ne '' ? " $delim " : '', @out);
}

sub _numeric_keys
{
    my $h = shift;

    return [sort { $a <=> $b } keys %$h];
}

# ---- __print_flags ----

my %flag_order;    # EVENT\0FIELD => [sorted keys, number of keys]

sub define_flag_field
{
    my ($event_name, $field_name, $delim) = @_;

    $flag_fields{$event_name}{$field_name}{delim} = $delim;
}

sub define_flag_value
{
    my ($event_name, $field_name, $value, $field_str) = @_;

    $flag_fields{$event_name}{$field_name}{values}{_u64($value)} = $field_str;
    delete $flag_order{"$event_name\0$field_name"};
}

# "A | B": the flag names of $value in the table of $event_name.$field_name.
sub flag_str
{
    my ($event_name, $field_name, $value) = @_;

    my $per_event = $flag_fields{$event_name} or return undef;
    my $table = $per_event->{$field_name} or return undef;
    my $names = $table->{values} or return undef;
    my $key = "$event_name\0$field_name";
    my $order = $flag_order{$key};

    # a script may have added entries behind our back: count them
    if (!$order || $order->[1] != scalar keys %$names) {
        $order = $flag_order{$key} = [_numeric_keys($names), scalar keys %$names];
    }
    return _bits_str($names, $order->[0], $value, $table->{delim});
}

sub dump_flag_fields
{
    for my $event (sort keys %flag_fields) {
        print "event $event:\n";
        for my $field (sort keys %{$flag_fields{$event}}) {
            my $table = $flag_fields{$event}{$field};
            my $names = $table->{values} || {};

            print "    field: $field:\n";
            print "        delim: ", $table->{delim} // '', "\n";
            print "        value $_: $names->{$_}\n" for @{_numeric_keys($names)};
        }
    }
}

# ---- __print_symbolic ----

sub define_symbolic_field
{
    my ($event_name, $field_name) = @_;

    # the table takes shape with its first value
}

sub define_symbolic_value
{
    my ($event_name, $field_name, $value, $field_str) = @_;

    $symbolic_fields{$event_name}{$field_name}{values}{_u64($value)} = $field_str;
}

# "NET_RX": the name of $value in the table of $event_name.$field_name,
# undef when there is no such table or entry (perf gives undef too).
sub symbol_str
{
    my ($event_name, $field_name, $value) = @_;

    my $per_event = $symbolic_fields{$event_name} or return undef;
    my $table = $per_event->{$field_name} or return undef;
    my $names = $table->{values} or return undef;

    return $names->{_u64($value)};
}

sub dump_symbolic_fields
{
    for my $event (sort keys %symbolic_fields) {
        print "event $event:\n";
        for my $field (sort keys %{$symbolic_fields{$event}}) {
            my $names = $symbolic_fields{$event}{$field}{values} || {};

            print "    field: $field:\n";
            print "        value $_: $names->{$_}\n" for @{_numeric_keys($names)};
        }
    }
}

# ---- common_flags, task states ----

my $trace_flag_order;

# common_flags as "IRQS_OFF | NEED_RESCHED"; "NONE" for 0; undef when no
# named bit is set.
sub trace_flag_str
{
    my ($value) = @_;

    $trace_flag_order = _numeric_keys(\%trace_flags)
        if !$trace_flag_order || @$trace_flag_order != scalar keys %trace_flags;
    return _bits_str(\%trace_flags, $trace_flag_order, $value, '|');
}

my %task_states = (0 => 'R', 1 => 'S', 2 => 'D', 64 => 'DEAD');

# A sched_switch prev_state as a letter: R, S, D, DEAD; else "Unknown".
sub taskState
{
    my ($state) = @_;

    return 'Unknown' unless defined $state;
    return $task_states{$state} // 'Unknown';
}

1;
