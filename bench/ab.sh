#!/usr/bin/env bash
# Old against new, side by side in one run: the cluster test binaries of a
# base commit and of the working tree run each named benchmark in turn,
# ROUNDS times, one iteration each, every run under /usr/bin/time -v for
# its peak RSS and CPU time (user + system, whole process, setup
# included); benchstat compares them. Test files named in COPY (paths
# relative to the repository) are copied from the working tree into the
# base tree first, for benchmarks the base does not have. The wrappers
# (auto_cost.sh, noassc_noisy.sh) say what each comparison measures. Run
# it under the bench lock:
#
#	COPY="cluster/x_bench_test.go" flock /work/bench.lock bench/ab.sh NAME BASE ROUNDS Bench1 [Bench2 ...]
#
# Output: bench/out/NAME-{old,new}.txt, bench/out/NAME-rss.txt and the
# benchstat table on stdout. benchstat is found on PATH or in $BENCHSTAT;
# a fresh machine needs it installed first:
#
#	go install golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da
set -euo pipefail
cd "$(dirname "$0")/.."
name="$1"
base="$2"
rounds="$3"
shift 3
out=bench/out
mkdir -p "$out"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$base" | tar -x -C "$src"
for f in ${COPY:-}; do
  cp "$f" "$src/$f"
done
(cd "$src" && go test -c -o "$OLDPWD/$out/cluster-$name-old.test" ./cluster)
go test -c -o "$out/cluster-$name-new.test" ./cluster
: > "$out/$name-old.txt"
: > "$out/$name-new.txt"
: > "$out/$name-rss.txt"
for r in $(seq "$rounds"); do
  for v in old new; do
    for b in "$@"; do
      /usr/bin/time -v -o "$out/time.tmp" "$out/cluster-$name-$v.test" -test.run '^$' \
        -test.bench "^Benchmark$b\$" -test.count 1 -test.benchtime 1x >> "$out/$name-$v.txt"
      echo "$v $b round $r: peak RSS $(grep 'Maximum resident' "$out/time.tmp" | awk '{print $NF}') kB," \
        "CPU $(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$out/time.tmp") s" >> "$out/$name-rss.txt"
    done
  done
done
rm -f "$out/time.tmp"
bs=${BENCHSTAT:-benchstat}
if command -v "$bs" >/dev/null; then
  "$bs" "$out/$name-old.txt" "$out/$name-new.txt"
else
  echo "ab.sh: $bs not found (see the header to install it); the raw results are in $out/$name-{old,new}.txt" >&2
  exit 1
fi
