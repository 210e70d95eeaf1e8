#!/usr/bin/env bash
# Auto's cost below autoCostlyMaxN before and after the identical-result
# speedups of cscap (its prior shared across folds, the vote on graph
# neighbours, the column-parallel Woodbury solve): the cluster test
# binaries of a base commit (default 499dae5, the last without them) and of
# the working tree run BenchmarkAuto950 and BenchmarkAuto3000 in turn,
# ROUNDS times (bench/ab.sh). BenchmarkAuto950 is new, so the
# working tree's cluster/auto_bench_test.go is copied into the base tree
# (it uses only helpers the base has). Run it under the bench lock:
#
#	flock /work/bench.lock bench/auto_cost.sh [BASE] [ROUNDS]
#
# Output: bench/out/auto-{old,new}.txt, bench/out/auto-rss.txt and the
# benchstat table on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
COPY=cluster/auto_bench_test.go exec bench/ab.sh auto "${1:-499dae5}" "${2:-6}" Auto950 Auto3000
