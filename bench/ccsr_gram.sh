#!/usr/bin/env bash
# CCSR's solver before and after the Gram form (cluster/ccsr_gram.go), side
# by side in one run: the cluster test binaries of a base commit (default
# 9b66247, the last without it) and of the working tree run
# BenchmarkCCSRSolve, BenchmarkCCSR1kKNN and BenchmarkCCSR10kKNN in turn,
# ROUNDS times (bench/ab.sh). Run it under the bench lock on an otherwise
# idle machine:
#
#	flock /work/bench.lock bench/ccsr_gram.sh [BASE] [ROUNDS]
#
# Output: bench/out/ccsr-{old,new}.txt, bench/out/ccsr-rss.txt and the
# benchstat table on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
exec bench/ab.sh ccsr "${1:-9b66247}" "${2:-3}" CCSRSolve CCSR1kKNN CCSR10kKNN
