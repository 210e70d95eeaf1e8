#!/usr/bin/env bash
# Auto's cost below autoCostlyMaxN before and after the identical-result
# speedups of cscap (its prior shared across folds, the vote on graph
# neighbours, the column-parallel Woodbury solve): the cluster test
# binaries of a base commit (default 499dae5, the last without them) and of
# the working tree run BenchmarkAuto950 and BenchmarkAuto3000 in turn,
# ROUNDS times, one iteration each, every run under /usr/bin/time -v for
# its peak RSS and CPU time (user + system, whole process, setup
# included); benchstat compares them. BenchmarkAuto950 is new, so the
# working tree's cluster/auto_bench_test.go is copied into the base tree
# (it uses only helpers the base has). Run it under the bench lock:
#
#	flock /work/bench.lock bench/auto_cost.sh [BASE] [ROUNDS]
#
# Output: bench/out/auto-{old,new}.txt, bench/out/auto-rss.txt and the
# benchstat table on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-499dae5}"
rounds="${2:-6}"
out=bench/out
mkdir -p "$out"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$base" | tar -x -C "$src"
cp cluster/auto_bench_test.go "$src/cluster/"
(cd "$src" && go test -c -o "$OLDPWD/$out/cluster-auto-old.test" ./cluster)
go test -c -o "$out/cluster-auto-new.test" ./cluster
: > "$out/auto-old.txt"
: > "$out/auto-new.txt"
: > "$out/auto-rss.txt"
for r in $(seq "$rounds"); do
  for v in old new; do
    for b in Auto950 Auto3000; do
      /usr/bin/time -v -o "$out/time.tmp" "$out/cluster-auto-$v.test" -test.run '^$' \
        -test.bench "^Benchmark$b\$" -test.count 1 -test.benchtime 1x >> "$out/auto-$v.txt"
      echo "$v $b round $r: peak RSS $(grep 'Maximum resident' "$out/time.tmp" | awk '{print $NF}') kB," \
        "CPU $(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$out/time.tmp") s" >> "$out/auto-rss.txt"
    done
  done
done
rm -f "$out/time.tmp"
"${BENCHSTAT:-benchstat}" "$out/auto-old.txt" "$out/auto-new.txt"
