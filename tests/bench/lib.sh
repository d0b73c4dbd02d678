# lib.sh - what the benchmarks share: tracefs, the storm recording, medians.
# Sourced by tests/bench/*; expects $top (the repository) to be set.

tb="$top/build/tracebox"
dir=${BENCH_DIR:-/tmp/tracebox-bench}
runs=${RUNS:-5}
mkdir -p "$dir"

bench_need_root() {
	[ "$(id -u)" = 0 ] || { echo "$(basename "$0"): needs root to record"; exit 1; }
	if ! awk '$3 == "tracefs"' /proc/mounts | grep -q .; then
		mkdir -p /tmp/tracebox-tracefs && mount -t tracefs nodev /tmp/tracebox-tracefs
	fi
}

# storm_recording: a perf record -a of raw_syscalls during a getppid storm,
# over 1,000,000 samples, made once and kept in $dir
storm_recording() {
	data="$dir/syscalls.data"
	if [ ! -s "$data" ]; then
		echo "$(basename "$0"): recording $data"
		perf record -q -a -e raw_syscalls:sys_enter -e raw_syscalls:sys_exit -o "$data" -- \
			"$top/build/workload" 700000 0 2>/dev/null
	fi
	samples=$("$tb" trace-report --stats -i "$data" | awk '$1 == "SAMPLE" { print $2 }')
	echo "recording: $data, $samples raw_syscalls samples"
	[ "$samples" -ge 1000000 ] || { echo "fewer than 1,000,000 samples"; exit 1; }
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# script_ratio SCRIPT GOAL: perf script -s against trace-report -s, $runs each
script_ratio() {
	[ -r "$1" ] || { echo "$1 missing (linux-perf)"; exit 1; }
	rm -f "$dir/s-perf.times" "$dir/s-tb.times"
	for i in $(seq "$runs"); do
		/usr/bin/time -f "%e" -a -o "$dir/s-perf.times" perf script -i "$data" -s "$1" >/dev/null 2>&1
		/usr/bin/time -f "%e" -a -o "$dir/s-tb.times" "$tb" trace-report -i "$data" -s "$1" >/dev/null 2>&1
	done
	pt=$(median <"$dir/s-perf.times"); tt=$(median <"$dir/s-tb.times")
	echo "perf script -s $(basename "$1"):   median ${pt}s over $runs runs"
	echo "trace-report -s $(basename "$1"):  median ${tt}s over $runs runs"
	awk -v t="$tt" -v p="$pt" -v n="$samples" -v g="$2" 'BEGIN {
		printf "ratio trace-report/perf = %.3f (goal <= %s); %.0f ns/event against %.0f\n",
			t / p, g, t * 1e9 / n, p * 1e9 / n }'
}
