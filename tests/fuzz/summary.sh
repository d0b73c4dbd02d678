#!/bin/sh
# summary.sh TARGET LOG RC - one line from a libFuzzer log: runs, exec/s,
# coverage (cov: edges, ft: features), corpus, and whether it crashed.
t=$1 log=$2 rc=$3
last=$(grep -E '^#[0-9]+' "$log" | tail -1)
runs=$(awk '/^stat::number_of_executed_units:/ { print $2 }' "$log")
eps=$(awk '/^stat::average_exec_per_sec:/ { print $2 }' "$log")
cov=$(echo "$last" | grep -o 'cov: [0-9]*' | awk '{print $2}')
ft=$(echo "$last" | grep -o 'ft: [0-9]*' | awk '{print $2}')
corp=$(echo "$last" | grep -o 'corp: [0-9]*/[0-9a-zA-Z]*' | awk '{print $2}')
crash=$(grep -m1 -E '^==[0-9]+==ERROR|runtime error|^SUMMARY|deadly signal|timeout after|out-of-memory' "$log")
printf '  %-13s runs %s, %s exec/s, cov %s, ft %s, corpus %s, %s\n' "$t" "${runs:-?}" \
	"${eps:-?}" "${cov:-?}" "${ft:-?}" "${corp:-?}" \
	"$([ "$rc" = 0 ] && echo 'no crash' || echo "CRASH (exit $rc): ${crash:-see $log}")"
