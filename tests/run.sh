#!/bin/sh
# run.sh - run every test: the C unit tests (sanitizer build), then each
# tests/*.test shell file in a fresh directory. Ends with "N passed, N failed, N skipped".
top=$(cd "$(dirname "$0")/.." && pwd)
export TOP="$top" TRACEBOX="$top/build/tracebox" SAN_TRACEBOX="$top/build/san/tracebox"
export TESTS_COUNTS="$(mktemp)"
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export LSAN_OPTIONS="suppressions=$top/tests/lsan.supp:print_suppressions=0"
work=$(mktemp -d /tmp/tracebox-tests.XXXXXX)
only=${1:-}

for u in "$top"/build/unit/*; do
	[ -x "$u" ] || continue
	n=$(basename "$u")
	[ -n "$only" ] && [ "$only" != "$n" ] && continue
	if "$u" >"$work/$n.log" 2>&1; then
		echo "PASS: unit/$n ($(grep -c '^ok' "$work/$n.log") checks)"
		echo pass >>"$TESTS_COUNTS"
	else
		echo "FAIL: unit/$n"; tail -20 "$work/$n.log"
		echo fail >>"$TESTS_COUNTS"
	fi
done

for t in "$top"/tests/*.test; do
	n=$(basename "$t" .test)
	[ -n "$only" ] && [ "$only" != "$n" ] && continue
	d="$work/$n"; mkdir -p "$d"
	echo "== $n"
	(cd "$d" && TEST_FILE=$n . "$top/tests/testing.sh" && . "$t")
done

p=$(grep -c '^pass' "$TESTS_COUNTS"); f=$(grep -c '^fail' "$TESTS_COUNTS"); s=$(grep -c '^skip' "$TESTS_COUNTS")
rm -f "$TESTS_COUNTS"
[ "$f" = 0 ] && rm -rf "$work" || echo "logs kept in $work"
echo "$p passed, $f failed, $s skipped"
[ "$f" = 0 ]
