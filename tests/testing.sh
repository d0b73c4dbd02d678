# testing.sh - the shell test harness (after toybox/busybox testing.sh), sourced by tests/run.sh.
#   testing NAME COMMAND EXPECTED_STDOUT INPUT_FILE STDIN
#   skip REASON        skip the rest of this .test file, loudly
#   pass NAME / fail NAME WHY
# Counts go to $TESTS_COUNTS (one word per result) so run.sh can total them.

: "${TRACEBOX:?}" "${TESTS_COUNTS:?}"

pass() { echo "PASS: $1"; echo pass >>"$TESTS_COUNTS"; }
fail() { echo "FAIL: $1${2:+: $2}"; echo fail >>"$TESTS_COUNTS"; }
skip() { echo "SKIP: ${TEST_FILE:-?}: $*"; echo skip >>"$TESTS_COUNTS"; exit 0; }

testing() {
	name=$1 cmd=$2 want=$3 infile=$4 stdin=$5
	[ -n "$infile" ] && printf '%b' "$infile" >input
	got=$(printf '%b' "$stdin" | eval "$cmd" 2>&1)
	if [ "$got" = "$(printf '%b' "$want")" ]; then
		pass "$name"
	else
		fail "$name"
		printf 'expected:\n%b\ngot:\n%s\n' "$want" "$got" | head -40
	fi
	rm -f input
}

# check NAME CMD...: passes when CMD exits 0
check() {
	name=$1; shift
	if "$@" >check.out 2>&1; then pass "$name"; else fail "$name" "$(tail -5 check.out)"; fi
}

# same_file NAME A B: byte-identical files, with a diff excerpt when not
same_file() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "differ"; diff "$2" "$3" | head -10; fi
}

need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }

# tracefs_dir: where tracefs is mounted, mounting it at a scratch path if needed
tracefs_dir() {
	d=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	if [ -z "$d" ] || [ ! -e "$d/events" ]; then
		d=/tmp/tracebox-tracefs
		mkdir -p "$d"
		mount -t tracefs nodev "$d" 2>/dev/null || return 1
	fi
	echo "$d"
}

# need_perf_record: perf can record tracepoints here, or skip loudly
need_perf_record() {
	need_root
	command -v perf >/dev/null || skip "perf is not installed (linux-perf)"
	tracefs_dir >/dev/null || skip "cannot mount tracefs"
	perf record -q -e raw_syscalls:sys_enter -o probe.data -- true >probe.out 2>&1 ||
		skip "perf cannot record tracepoints here: $(head -1 probe.out)"
	rm -f probe.data probe.out
}
