#!/usr/bin/env bash
# MCL-NOA-SSC on contradicted constraints (500 points, full RBF graph,
# 5/n pairs, 10% flipped) before and after the identical-result speed-ups
# of the vote (top-K voters by selection, a dense table and a scan of
# every pair on complete graphs) and the cross-validation's shared CSCAP
# prior: the cluster test binaries of a base commit (default 58847b7, the
# cross-validated refinement without them) and of the working tree run
# BenchmarkMCLNOASSCNoisy500 (the default: refinement chosen by
# cross-validation) and BenchmarkMCLNOASSCNoisy500Fixed (the fixed
# refinement) in turn, ROUNDS times (bench/ab.sh). The benchmark is new,
# so the working tree's cluster/noassc_noisy_bench_test.go is copied into
# the base tree. Run it under the bench lock:
#
#	flock /work/bench.lock bench/noassc_noisy.sh [BASE] [ROUNDS]
#
# Output: bench/out/noassc-{old,new}.txt, bench/out/noassc-rss.txt and the
# benchstat table on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."
COPY=cluster/noassc_noisy_bench_test.go exec bench/ab.sh noassc "${1:-58847b7}" "${2:-5}" MCLNOASSCNoisy500 MCLNOASSCNoisy500Fixed
