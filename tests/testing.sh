# testing.sh - the shell test harness (after toybox/busybox testing.sh), sourced by tests/run.sh.
#   testing NAME COMMAND EXPECTED_STDOUT INPUT_FILE STDIN
#                      COMMAND's stdout (not stderr) must equal EXPECTED_STDOUT
#   skip REASON        skip the rest of this .test file, loudly
#   skip_test NAME REASON   count one skipped test and go on
#   skipping REASON    the tests that follow are skipped with REASON (pass,
#                      fail and every helper built on them count a skip)
#                      until "skipping" with no reason; an empty REASON runs them
#   pass NAME / fail NAME WHY
# Counts go to $TESTS_COUNTS (a line per result: "pass", or the FAIL or SKIP
# line) so run.sh can total them and list what did not pass at the end.

: "${TRACEBOX:?}" "${TESTS_COUNTS:?}"

SKIPPING=
pass() { [ -n "$SKIPPING" ] && { skip_test "$1" "$SKIPPING"; return; }; echo "PASS: $1"; echo pass >>"$TESTS_COUNTS"; }
fail() { [ -n "$SKIPPING" ] && { skip_test "$1" "$SKIPPING"; return; }; echo "FAIL: $1${2:+: $2}"; echo "FAIL: ${TEST_FILE:-?}: $1" >>"$TESTS_COUNTS"; }
skip() { echo "SKIP: ${TEST_FILE:-?}: $*" | tee -a "$TESTS_COUNTS"; exit 0; }
skip_test() { echo "SKIP: ${TEST_FILE:-?}: $1: $2" | tee -a "$TESTS_COUNTS"; }
skipping() { SKIPPING=$*; }

# testing NAME COMMAND EXPECTED_STDOUT INPUT_FILE STDIN: COMMAND (eval'd) runs
# with STDIN piped to it (else /dev/null) and INPUT_FILE's text in ./input; its stdout must
# equal EXPECTED_STDOUT (printf %b escapes in the three texts). stderr is not
# compared: a test that cares adds 2>&1 to COMMAND. A failure shows diff -u.
testing() {
	name=$1 cmd=$2 want=$3 infile=$4 stdin=$5
	[ -n "$infile" ] && printf '%b' "$infile" >input
	printf '%b' "$want" >expected
	if [ -n "$stdin" ]; then
		printf '%b' "$stdin" | eval "$cmd" >actual
	else
		eval "$cmd" </dev/null >actual   # no pipe: trace-report reads a piped stdin
	fi
	if cmp -s expected actual; then
		pass "$name"
	else
		fail "$name"
		[ -z "$SKIPPING" ] && diff -u expected actual | head -40
	fi
	rm -f input expected actual
}

# check NAME CMD...: passes when CMD exits 0
check() {
	name=$1; shift
	if "$@" >check.out 2>&1; then pass "$name"; else fail "$name" "$(tail -5 check.out)"; fi
}

# same_file NAME A B: byte-identical files, with a diff excerpt when not
same_file() {
	if cmp -s "$2" "$3"; then pass "$1"; else fail "$1" "differ"; [ -z "$SKIPPING" ] && diff -u "$2" "$3" | head -20; fi
}

# started FILE: a trace-record writing FILE in the background has its events
# on: it writes the header just before it enables them (10 s at most)
started() {
	_i=0
	while [ ! -s "$1" ] && [ $_i -lt 100 ]; do sleep 0.1; _i=$((_i + 1)); done
	sleep 0.2
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

# probe_perf_record: PERF_RECORD_WHY says why perf cannot record tracepoints
# here, or is empty when it can (probed once per file). For a root-only part:
#   probe_perf_record; skipping "$PERF_RECORD_WHY"  ...tests...  skipping
probe_perf_record() {
	if [ -z "${PERF_RECORD_WHY+set}" ]; then
		PERF_RECORD_WHY=
		if [ "$(id -u)" != 0 ]; then
			PERF_RECORD_WHY="needs root"
		elif ! command -v perf >/dev/null; then
			PERF_RECORD_WHY="perf is not installed (linux-perf)"
		elif ! tracefs_dir >/dev/null; then
			PERF_RECORD_WHY="cannot mount tracefs"
		elif ! perf record -q -e raw_syscalls:sys_enter -o probe.data -- true >probe.out 2>&1; then
			PERF_RECORD_WHY="perf cannot record tracepoints here: $(head -1 probe.out)"
		fi
		rm -f probe.data probe.out
	fi
}

# need_perf_record: perf can record tracepoints here, or skip the file loudly
need_perf_record() {
	probe_perf_record
	[ -z "$PERF_RECORD_WHY" ] || skip "$PERF_RECORD_WHY"
}
