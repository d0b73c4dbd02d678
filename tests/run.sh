#!/bin/sh
# run.sh - run every test: the C unit tests (sanitizer build), then each
# tests/*.test shell file in a fresh directory, its time after it ("-- NAME: N s").
# Ends with "N passed, N failed, N skipped".
#   tests/run.sh [NAME]   only the unit test or .test file NAME
# Each test runs under a time limit, in a process group of its own that is
# killed whole when the limit passes; the test then fails with its name
# ("FAIL: NAME: timed out after N s", one fail) and the run goes on:
#   TEST_TIMEOUT  seconds for a .test file (900); a file that needs longer
#                 says so in a line "# timeout: SECONDS" (qemu.test)
#   UNIT_TIMEOUT  seconds for a unit test (300)
#   TESTS_DIR, UNIT_DIR  where the .test files and the unit tests are
#                 (tests/, build/unit/): harness.test points them elsewhere
top=$(cd "$(dirname "$0")/.." && pwd)
export TOP="$top" TRACEBOX="$top/build/tracebox" SAN_TRACEBOX="$top/build/san/tracebox"
export TESTS_COUNTS="$(mktemp)"
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0"
work=$(mktemp -d /tmp/tracebox-tests.XXXXXX)
only=${1:-}
tests_dir=${TESTS_DIR:-$top/tests}
unit_dir=${UNIT_DIR:-$top/build/unit}
test_timeout=${TEST_TIMEOUT:-900}
unit_timeout=${UNIT_TIMEOUT:-300}

# limited SECONDS CMD...: CMD under timeout(1), which puts it in a process
# group of its own and, after SECONDS, sends TERM to the whole group (KILL
# 10 s later). Returns CMD's status, 124 (or 137 after the KILL) when the
# time ran out. An interrupt of run.sh ends the group too.
limited() {
	timeout -k 10 "$@" </dev/null &
	child=$!
	wait $child
}
trap '[ -n "${child:-}" ] && kill -TERM $child 2>/dev/null; rm -f "$TESTS_COUNTS"; exit 130' INT TERM

# timed_out NAME SECONDS STATUS START: a fail when STATUS says the limit
# passed (137 is also any SIGKILL: counted only when the time is up)
timed_out() {
	case $3 in
	124) ;;
	137) [ $(($(date +%s) - $4)) -ge "$2" ] || return 1 ;;
	*) return 1 ;;
	esac
	echo "FAIL: $1: timed out after $2 s" | tee -a "$TESTS_COUNTS"
}

for u in "$unit_dir"/*; do
	[ -x "$u" ] || continue
	n=$(basename "$u")
	[ -n "$only" ] && [ "$only" != "$n" ] && continue
	start=$(date +%s)
	limited "$unit_timeout" "$u" >"$work/$n.log" 2>&1
	rc=$?
	if [ $rc = 0 ]; then
		echo "PASS: unit/$n ($(grep -c '^ok' "$work/$n.log") checks)"
		echo pass >>"$TESTS_COUNTS"
	elif ! timed_out "unit/$n" "$unit_timeout" $rc "$start"; then
		echo "FAIL: unit/$n"; tail -20 "$work/$n.log"
		echo "FAIL: unit/$n" >>"$TESTS_COUNTS"
	fi
done

for t in "$tests_dir"/*.test; do
	[ -e "$t" ] || continue
	n=$(basename "$t" .test)
	[ -n "$only" ] && [ "$only" != "$n" ] && continue
	d="$work/$n"; mkdir -p "$d"
	echo "== $n"
	limit=$(sed -n 's/^# timeout: \([0-9][0-9]*\).*/\1/p' "$t" | head -1)
	limit=${limit:-$test_timeout}
	start=$(date +%s)
	# the file's own status is not a verdict (its pass/fail lines are)
	limited "$limit" sh -c 'cd "$1" && TEST_FILE=$2 . "$TOP/tests/testing.sh" && . "$3"; exit 0' \
		sh "$d" "$n" "$t"
	rc=$?
	echo "-- $n: $(($(date +%s) - start)) s"
	timed_out "$n" "$limit" $rc "$start"
done
child=

p=$(grep -c '^pass' "$TESTS_COUNTS"); f=$(grep -c '^FAIL' "$TESTS_COUNTS"); s=$(grep -c '^SKIP' "$TESTS_COUNTS")
# what did not pass, again at the end, where a log cut in the middle still shows it
[ $((f + s)) = 0 ] || { echo "== not passed"; grep -E '^(FAIL|SKIP)' "$TESTS_COUNTS"; }
rm -f "$TESTS_COUNTS"
[ "$f" = 0 ] && rm -rf "$work" || echo "logs kept in $work"
echo "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
