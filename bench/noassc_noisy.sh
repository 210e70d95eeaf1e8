#!/usr/bin/env bash
# MCL-NOA-SSC on contradicted constraints (500 points, full RBF graph,
# 5/n pairs, 10% flipped) before and after the identical-result speed-ups
# of the vote (top-K voters by selection, a dense table and a scan of
# every pair on complete graphs) and the cross-validation's shared CSCAP
# prior: the cluster test binaries of a base commit (default 58847b7, the
# cross-validated refinement without them) and of the working tree run
# BenchmarkMCLNOASSCNoisy500 (the default: refinement chosen by
# cross-validation) and BenchmarkMCLNOASSCNoisy500Fixed (the fixed
# refinement) in turn, ROUNDS times, one iteration each, every run under
# /usr/bin/time -v for its peak RSS and CPU time; benchstat compares them.
# The benchmark is new, so the working tree's cluster/noassc_noisy_bench_test.go
# is copied into the base tree. Run it under the bench lock:
#
#	flock /work/bench.lock bench/noassc_noisy.sh [BASE] [ROUNDS]
#
# Output: bench/out/noassc-{old,new}.txt, bench/out/noassc-rss.txt and the
# benchstat table on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-58847b7}"
rounds="${2:-5}"
out=bench/out
mkdir -p "$out"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$base" | tar -x -C "$src"
cp cluster/noassc_noisy_bench_test.go "$src/cluster/"
(cd "$src" && go test -c -o "$OLDPWD/$out/cluster-noassc-old.test" ./cluster)
go test -c -o "$out/cluster-noassc-new.test" ./cluster
: > "$out/noassc-old.txt"
: > "$out/noassc-new.txt"
: > "$out/noassc-rss.txt"
for r in $(seq "$rounds"); do
  for v in old new; do
    for b in MCLNOASSCNoisy500 MCLNOASSCNoisy500Fixed; do
      /usr/bin/time -v -o "$out/time.tmp" "$out/cluster-noassc-$v.test" -test.run '^$' \
        -test.bench "^Benchmark$b\$" -test.count 1 -test.benchtime 1x >> "$out/noassc-$v.txt"
      echo "$v $b round $r: peak RSS $(grep 'Maximum resident' "$out/time.tmp" | awk '{print $NF}') kB," \
        "CPU $(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$out/time.tmp") s" >> "$out/noassc-rss.txt"
    done
  done
done
rm -f "$out/time.tmp"
"${BENCHSTAT:-benchstat}" "$out/noassc-old.txt" "$out/noassc-new.txt"
