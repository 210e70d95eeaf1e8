#!/usr/bin/env bash
# CCSR's solver before and after the Gram form (cluster/ccsr_gram.go), side
# by side in one run: the cluster test binaries of a base commit (default
# 9b66247, the last without it) and of the working tree run the CCSR
# benchmarks in turn, ROUNDS times, and benchstat compares them. Run it
# under the bench lock on an otherwise idle machine:
#
#	flock /work/bench.lock bench/ccsr_gram.sh [BASE] [ROUNDS]
#
# Output: bench/out/ccsr-{old,new}.txt and the benchstat table on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
base="${1:-9b66247}"
rounds="${2:-3}"
out=bench/out
mkdir -p "$out"
wt=$(mktemp -d)
trap 'git worktree remove --force "$wt" >/dev/null 2>&1 || true' EXIT
git worktree add --detach "$wt" "$base" >/dev/null 2>&1
(cd "$wt" && go test -c -o "$OLDPWD/$out/cluster-old.test" ./cluster)
go test -c -o "$out/cluster-new.test" ./cluster
: > "$out/ccsr-old.txt"
: > "$out/ccsr-new.txt"
for r in $(seq "$rounds"); do
  for v in old new; do
    /usr/bin/time -f "peak RSS %M kB ($v, round $r)" "$out/cluster-$v.test" -test.run '^$' \
      -test.bench '^BenchmarkCCSR(Solve|1kKNN|10kKNN)$' -test.count 1 -test.benchtime 1x >> "$out/ccsr-$v.txt"
  done
done
benchstat "$out/ccsr-old.txt" "$out/ccsr-new.txt"
