# lib.sh - what the benchmarks share: tracefs, the storm recording, medians,
# and BASELINE=/path/to/an/older/tracebox timed in the same runs.
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

# stacks_recording: a `perf record -g -a` profile of a parallel build (>=
# 100,000 samples with stacks), made once and kept in $dir as $data
stacks_recording() {
	data="$dir/stacks.data"
	if [ ! -s "$data" ]; then
		echo "$(basename "$0"): recording $data (perf record -g -a -F 2000, 45 s of a make -j2)"
		src="$dir/stacks-src"
		rm -rf "$src"
		git clone -q "$top" "$src"
		# the build again from clean until the 45 s are up: a fast machine
		# builds it in less
		perf record -q -g -a -F 2000 -o "$data" -- timeout 45 sh -c \
			"while make -C '$src' -j2 build/tracebox && make -C '$src' clean; do :; done" \
			>/dev/null 2>&1 || true
		rm -rf "$src"
	fi
	samples=$(perf script -F ip -G -i "$data" 2>/dev/null | wc -l)
	echo "recording: $data, $(du -m "$data" | cut -f1) MB, $samples samples with stacks"
	[ "$samples" -ge 100000 ] || { echo "$(basename "$0"): fewer than 100,000 samples"; exit 1; }
}

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }

# timed FILE CMD...: appends "seconds kilobytes user sys" of one run of CMD
# (its output dropped) to FILE, as /usr/bin/time -f "%e %M %U %S" would,
# but the seconds to the microsecond, read around it: %e has a 10 ms grain,
# 8% of a 0.12 s run. The start of /usr/bin/time is in it, for both tools.
timed() {
	f=$1
	shift
	t0=$(date +%s%N)
	/usr/bin/time -f "%M %U %S" -o "$f.one" "$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	awk -v ns=$((t1 - t0)) '{ printf "%.6f %s %s %s\n", ns / 1e9, $1, $2, $3 }' "$f.one" >>"$f"
	rm -f "$f.one"
}

# one_run NAME CMD...: timed, into $dir/NAME.times (report-print, report-stacks)
one_run() {
	name=$1
	shift
	timed "$dir/$name.times" "$@"
}

# baseline_ratio NEW_CPU BASE_CPU: with BASELINE=/path/to/an/older/tracebox,
# the benchmarks run it in the same runs; this prints the medians of the
# CPU seconds (user + sys: what a change of code costs, less moved by a busy
# machine than wall time) and new/baseline (a move or a clean-up: <= 1.05)
baseline_ratio() {
	[ -n "${BASELINE:-}" ] || return 0
	awk -v n="$(median <"$1")" -v b="$(median <"$2")" -v base="$BASELINE" 'BEGIN {
		printf "baseline %s: median CPU (user+sys) %.2fs, this build %.2fs; ratio this build/baseline = %.3f\n",
			base, b, n, n / b }'
}
# cpu_secs FIELD_U: user + sys of each line of /usr/bin/time output whose
# user time is field FIELD_U and sys time the next
cpu_secs() { awk -v u="$1" '{ printf "%.2f\n", $u + $(u + 1) }'; }

# script_ratio SCRIPT GOAL: perf script -s against trace-report -s, $runs each
script_ratio() {
	[ -r "$1" ] || { echo "$1 missing (linux-perf)"; exit 1; }
	rm -f "$dir/s-perf.times" "$dir/s-tb.times" "$dir/s-base.times"
	for i in $(seq "$runs"); do
		/usr/bin/time -f "%e %U %S" -a -o "$dir/s-perf.times" perf script -i "$data" -s "$1" >/dev/null 2>&1
		/usr/bin/time -f "%e %U %S" -a -o "$dir/s-tb.times" "$tb" trace-report -i "$data" -s "$1" >/dev/null 2>&1
		[ -z "${BASELINE:-}" ] || /usr/bin/time -f "%e %U %S" -a -o "$dir/s-base.times" \
			"$BASELINE" trace-report -i "$data" -s "$1" >/dev/null 2>&1
	done
	pt=$(cut -d' ' -f1 "$dir/s-perf.times" | median); tt=$(cut -d' ' -f1 "$dir/s-tb.times" | median)
	cpu_secs 2 <"$dir/s-perf.times" >"$dir/s-perf.cpu"
	cpu_secs 2 <"$dir/s-tb.times" >"$dir/s-tb.cpu"
	pc=$(median <"$dir/s-perf.cpu"); tc=$(median <"$dir/s-tb.cpu")
	echo "perf script -s $(basename "$1"):   median ${pt}s over $runs runs"
	echo "trace-report -s $(basename "$1"):  median ${tt}s over $runs runs"
	awk -v t="$tt" -v p="$pt" -v n="$samples" -v g="$2" 'BEGIN {
		printf "ratio trace-report/perf = %.3f (goal <= %s); %.0f ns/event against %.0f\n",
			t / p, g, t * 1e9 / n, p * 1e9 / n }'
	# CPU (user + sys) medians: less moved than wall time by a busy machine
	awk -v t="$tc" -v p="$pc" -v n="$samples" 'BEGIN {
		printf "CPU ratio trace-report/perf = %.3f: %.2fs against %.2fs, %.0f ns/event against %.0f\n",
			t / p, t, p, t * 1e9 / n, p * 1e9 / n }'
	[ -z "${BASELINE:-}" ] || { cpu_secs 2 <"$dir/s-base.times" >"$dir/s-base.cpu"
		baseline_ratio "$dir/s-tb.cpu" "$dir/s-base.cpu"; }
}

# srcprog_build DIR [CFLAGS...]: the source-level test program
# (tests/tools/srcprog: a header's inline function, a shared library, C++)
# built -O2 -g into DIR, once
srcprog_build() {
	d=$1; shift
	[ -x "$d/srcprog" ] && return 0
	mkdir -p "$d"
	s="$top/tests/tools/srcprog"
	gcc -O2 -g "$@" -shared -fPIC -o "$d/libsrcprog.so" "$s/lib.c" &&
		g++ -O2 -g "$@" -c -o "$d/cxx.o" "$s/cxx.cc" &&
		gcc -O2 -g "$@" -o "$d/srcprog" "$s/main.c" "$d/cxx.o" -L"$d" -lsrcprog -Wl,-rpath,"$d"
}

# pair_ratio NAME TIME_GOAL RSS_GOAL DATA ARGS...: perf script ARGS against
# trace-report ARGS on DATA, the outputs compared first, $runs runs each:
# median wall times, peak RSS, and their ratios against the goals
pair_ratio() {
	name=$1 tgoal=$2 rgoal=$3 data=$4
	shift 4
	perf script -i "$data" "$@" 2>/dev/null | md5sum >"$dir/$name-perf.md5"
	"$tb" trace-report -i "$data" "$@" 2>/dev/null | md5sum >"$dir/$name-tb.md5"
	cmp -s "$dir/$name-perf.md5" "$dir/$name-tb.md5" && echo "outputs: identical" ||
		echo "outputs: differ (tests/source-profile.test says where: binutils' lines)"
	rm -f "$dir/$name-perf.times" "$dir/$name-tb.times"
	for i in $(seq "$runs"); do
		/usr/bin/time -f "%e %M %U %S" -a -o "$dir/$name-perf.times" \
			perf script -i "$data" "$@" >/dev/null 2>&1
		/usr/bin/time -f "%e %M %U %S" -a -o "$dir/$name-tb.times" \
			"$tb" trace-report -i "$data" "$@" >/dev/null 2>&1
	done
	pt=$(cut -d' ' -f1 "$dir/$name-perf.times" | median)
	tt=$(cut -d' ' -f1 "$dir/$name-tb.times" | median)
	pr=$(cut -d' ' -f2 "$dir/$name-perf.times" | sort -n | tail -1)
	tr=$(cut -d' ' -f2 "$dir/$name-tb.times" | sort -n | tail -1)
	echo "perf script:  median ${pt}s over $runs runs, peak RSS $((pr / 1024)) MiB"
	echo "trace-report: median ${tt}s over $runs runs, peak RSS $((tr / 1024)) MiB"
	awk -v t="$tt" -v p="$pt" -v tr="$tr" -v pr="$pr" -v tg="$tgoal" -v rg="$rgoal" 'BEGIN {
		printf "time ratio trace-report/perf = %.3f (goal <= %s)\n", t / p, tg
		printf "RSS ratio  trace-report/perf = %.3f (goal <= %s)\n", tr / pr, rg }'
}
