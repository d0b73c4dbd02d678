# Util.pm - Perf::Trace::Util: time arithmetic, statistics, errno and
# syscall names for Perl trace scripts.
# SPDX-License-Identifier: GPL-2.0-only
#
# "use Perf::Trace::Util;" imports what perf's module exports (avg, nsecs,
# nsecs_secs, nsecs_nsecs, nsecs_usecs, print_nsecs, clear_term; perf lists
# the last two but never defines them, here they work) and syscall_name.
# The rest is imported by name: use Perf::Trace::Util qw(strerror add_stats).
# Pure Perl, no Perf::Trace::Context needed: under perf or a plain perl the
# syscall map is simply empty. See ../../../../README.md for the whole
# interface.

package Perf::Trace::Util;

use strict;
use warnings;

require Exporter;
our @ISA = ('Exporter');

our @EXPORT = qw(
    avg nsecs nsecs_secs nsecs_nsecs nsecs_usecs print_nsecs clear_term
    syscall_name
);
our @EXPORT_OK = qw(
    nsecs_str strerror add_stats NSECS_PER_SEC
    FUTEX_WAIT FUTEX_WAKE FUTEX_FD FUTEX_REQUEUE FUTEX_CMP_REQUEUE
    FUTEX_WAKE_OP FUTEX_LOCK_PI FUTEX_UNLOCK_PI FUTEX_TRYLOCK_PI
    FUTEX_WAIT_BITSET FUTEX_WAKE_BITSET FUTEX_WAIT_REQUEUE_PI
    FUTEX_CMP_REQUEUE_PI FUTEX_LOCK_PI2 FUTEX_PRIVATE_FLAG
    FUTEX_CLOCK_REALTIME FUTEX_CMD_MASK
    %syscall_map
);
our %EXPORT_TAGS = (all => [@EXPORT, @EXPORT_OK]);

our $VERSION = '0.01';

# The engine's hash under a second name: %Perf::Trace::Util::syscall_map.
our %syscall_map;
*syscall_map = \%Perf::Trace::Context::syscall_map;

sub NSECS_PER_SEC () { 1000000000 }

# futex(2) operations and flags, from include/uapi/linux/futex.h
sub FUTEX_WAIT ()            { 0 }
sub FUTEX_WAKE ()            { 1 }
sub FUTEX_FD ()              { 2 }
sub FUTEX_REQUEUE ()         { 3 }
sub FUTEX_CMP_REQUEUE ()     { 4 }
sub FUTEX_WAKE_OP ()         { 5 }
sub FUTEX_LOCK_PI ()         { 6 }
sub FUTEX_UNLOCK_PI ()       { 7 }
sub FUTEX_TRYLOCK_PI ()      { 8 }
sub FUTEX_WAIT_BITSET ()     { 9 }
sub FUTEX_WAKE_BITSET ()     { 10 }
sub FUTEX_WAIT_REQUEUE_PI () { 11 }
sub FUTEX_CMP_REQUEUE_PI ()  { 12 }
sub FUTEX_LOCK_PI2 ()        { 13 }
sub FUTEX_PRIVATE_FLAG ()    { 128 }
sub FUTEX_CLOCK_REALTIME ()  { 256 }
sub FUTEX_CMD_MASK ()        { ~(128 | 256) }    # $op & FUTEX_CMD_MASK: the command

# ---- arithmetic ----

# $total / $n; dies on $n == 0 like any division
sub avg
{
    my ($total, $n) = @_;

    return $total / $n;
}

# common_secs and common_nsecs as one count of nanoseconds
sub nsecs
{
    my ($secs, $ns) = @_;

    return $secs * NSECS_PER_SEC + $ns;
}

# Seconds in $ns: a fraction, as perf's gives it (printf "%u" keeps the whole part)
sub nsecs_secs
{
    my ($ns) = @_;

    return $ns / NSECS_PER_SEC;
}

# The nanoseconds past the last whole second
sub nsecs_nsecs
{
    my ($ns) = @_;

    return $ns % NSECS_PER_SEC;
}

# Microseconds in $ns, a fraction like nsecs_secs
sub nsecs_usecs
{
    my ($ns) = @_;

    return $ns / 1000;
}

# "SSSSS.NNNNNNNNN": seconds in five columns, nine digits of nanoseconds
sub nsecs_str
{
    my ($ns) = @_;

    return sprintf("%5u.%09u", nsecs_secs($ns), nsecs_nsecs($ns));
}

# nsecs_str($ns) on standard output, no newline
sub print_nsecs
{
    my ($ns) = @_;

    print nsecs_str($ns);
}

# $stats->{$key} = [min, max, avg, count]. As in perf's Python Util, "avg"
# is a running midpoint, (previous avg + value) / 2, not the mean.
sub add_stats
{
    my ($stats, $key, $value) = @_;
    my $s = $stats->{$key};

    if (!$s) {
        $stats->{$key} = [$value, $value, $value, 1];
        return;
    }
    $s->[0] = $value if $value < $s->[0];
    $s->[1] = $value if $value > $s->[1];
    $s->[2] = ($s->[2] + $value) / 2;
    $s->[3]++;
}

# Home the cursor and clear an ANSI terminal
sub clear_term
{
    print "\x1b[H\x1b[2J";
}

# ---- names ----

# The name the recording's syscall map gives number $id, else $id itself
# (an unknown number, a recording without a map, perf, a plain perl).
sub syscall_name
{
    my ($id) = @_;

    return $id unless defined $id;
    my $name = $Perf::Trace::Context::syscall_map{$id};
    return defined $name && $name ne '' ? $name : $id;
}

# errno names by number: Linux's generic numbering (x86, arm, arm64,
# riscv...), as Python's errno module has them, plus the kernel-internal
# restart codes a syscall exit can show when a signal interrupts it.
my @errno_names = (undef, qw(
    EPERM ENOENT ESRCH EINTR EIO ENXIO E2BIG ENOEXEC EBADF ECHILD
    EAGAIN ENOMEM EACCES EFAULT ENOTBLK EBUSY EEXIST EXDEV ENODEV ENOTDIR
    EISDIR EINVAL ENFILE EMFILE ENOTTY ETXTBSY EFBIG ENOSPC ESPIPE EROFS
    EMLINK EPIPE EDOM ERANGE EDEADLOCK ENAMETOOLONG ENOLCK ENOSYS ENOTEMPTY ELOOP
    - ENOMSG EIDRM ECHRNG EL2NSYNC EL3HLT EL3RST ELNRNG EUNATCH ENOCSI
    EL2HLT EBADE EBADR EXFULL ENOANO EBADRQC EBADSLT - EBFONT ENOSTR
    ENODATA ETIME ENOSR ENONET ENOPKG EREMOTE ENOLINK EADV ESRMNT ECOMM
    EPROTO EMULTIHOP EDOTDOT EBADMSG EOVERFLOW ENOTUNIQ EBADFD EREMCHG ELIBACC ELIBBAD
    ELIBSCN ELIBMAX ELIBEXEC EILSEQ ERESTART ESTRPIPE EUSERS ENOTSOCK EDESTADDRREQ EMSGSIZE
    EPROTOTYPE ENOPROTOOPT EPROTONOSUPPORT ESOCKTNOSUPPORT ENOTSUP EPFNOSUPPORT
    EAFNOSUPPORT EADDRINUSE EADDRNOTAVAIL ENETDOWN
    ENETUNREACH ENETRESET ECONNABORTED ECONNRESET ENOBUFS EISCONN ENOTCONN ESHUTDOWN
    ETOOMANYREFS ETIMEDOUT
    ECONNREFUSED EHOSTDOWN EHOSTUNREACH EALREADY EINPROGRESS ESTALE EUCLEAN ENOTNAM
    ENAVAIL EISNAM
    EREMOTEIO EDQUOT ENOMEDIUM EMEDIUMTYPE ECANCELED ENOKEY EKEYEXPIRED EKEYREVOKED
    EKEYREJECTED EOWNERDEAD
    ENOTRECOVERABLE ERFKILL EHWPOISON
));
my %kernel_errno = (
    512 => 'ERESTARTSYS', 513 => 'ERESTARTNOINTR', 514 => 'ERESTARTNOHAND',
    515 => 'ENOIOCTLCMD', 516 => 'ERESTART_RESTARTBLOCK',
);

# The errno name of a syscall return value or an errno, sign ignored:
# strerror(-2) is "ENOENT"; "Unknown NR errno" when there is none.
sub strerror
{
    my ($nr) = @_;

    return 'Unknown errno' unless defined $nr;
    if ($nr =~ /^-?\d+$/) {
        my $n = abs $nr;
        my $name = $n < @errno_names ? $errno_names[$n] : $kernel_errno{$n};

        return $name if defined $name && $name ne '-';
    }
    return "Unknown $nr errno";
}

1;
