#!/bin/bash
# campaign.sh TARGET SECONDS [DIR] - one long libFuzzer campaign, as the runs
# in tests/fuzz/FIGURES.md were made: fork mode with one job (so a crash is
# saved and fuzzing goes on), nice 19, corpus DIR/corpus/TARGET seeded from
# tests/fuzz/corpus and tests/fuzz/crashes, artifacts in DIR/art/TARGET/.
# Appends one line to DIR/campaigns.txt: target, wall and CPU seconds, the
# last stats line (cov: edges, ft: features, exec/s, crashes).
# Run at most two one-job campaigns (or one with JOBS=2) on two cores. DIR defaults to build/fuzz.
set -u
top=$(cd "$(dirname "$0")/../.." && pwd)
t=$1 secs=$2 dir=${3:-$top/build/fuzz} jobs=${JOBS:-1}
bin=$top/build/fuzz/fuzz_$t
[ -x "$bin" ] || { echo "campaign.sh: no $bin (make fuzz-build)" >&2; exit 2; }
mkdir -p "$dir/corpus/$t" "$dir/art/$t"
[ -n "$(ls -A "$dir/corpus/$t")" ] || cp "$top/tests/fuzz/corpus/$t"/* "$dir/corpus/$t/"
# a private copy: rebuilding build/fuzz does not change a running campaign
cp "$bin" "$dir/fuzz_$t.run"
start=$(date +%s)
cd "$dir" &&
ASAN_OPTIONS=abort_on_error=1:detect_leaks=1:allocator_may_return_null=1:max_allocation_size_mb=2048 \
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
LSAN_OPTIONS=suppressions=$top/tests/fuzz/lsan.supp:print_suppressions=0 \
nice -n 19 "./fuzz_$t.run" -fork="$jobs" -ignore_crashes=1 -ignore_ooms=1 -ignore_timeouts=1 \
	-max_total_time="$secs" -malloc_limit_mb=4096 -timeout=10 -artifact_prefix="art/$t/" \
	"corpus/$t" $(ls -d "$top/tests/fuzz/crashes/$t" 2>/dev/null) >>"$t.log" 2>&1
rc=$?
times >"$t.times"                      # not in $(...): a subshell has no children
cpu=$(tail -1 "$t.times" | awk '{ for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); s += a[1] * 60 + a[2] } } END { printf "%.0f", s }')
printf '%s jobs %s wall %ss cpu %ss rc %s | %s | artifacts %s\n' "$t" "$jobs" "$(($(date +%s) - start))" "$cpu" \
	"$rc" "$(grep -E '^#[0-9]+: cov' "$t.log" | tail -1)" "$(ls "art/$t" | wc -l)" >>campaigns.txt
