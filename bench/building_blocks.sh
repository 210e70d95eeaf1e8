#!/usr/bin/env bash
# The building-block table of docs/measured-results.md, measured in one run:
# every Go benchmark a row of that table names, one iteration each (-benchtime 1x,
# -count ${COUNT:-1}), one package after another, with the peak RSS of each
# package's benchmark process. Not for A/B comparisons (use bench/ab.sh):
# it records what the table states, on the day it runs. Run it from the
# repository under the bench lock, with nothing else running:
#
#	flock /work/bench.lock bench/building_blocks.sh > /tmp/bb.txt
set -euo pipefail
cd "$(dirname "$0")/.."
count=${COUNT:-1}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
run() { # run PACKAGE REGEXP
  local bin="$dir/$(basename "$1").test"
  go test -c -o "$bin" "./$1"
  echo "## $1"
  (cd "$1" && /usr/bin/time -f "peak RSS %M KB, %e s wall" "$bin" -test.run '^$' -test.bench "$2" \
    -test.benchtime 1x -test.count "$count" -test.benchmem 2>&1 | grep -E '^Benchmark|peak RSS')
}
echo "# bench/building_blocks.sh at $(git rev-parse --short HEAD), $(date -u '+%Y-%m-%d %H:%M UTC'), GOMAXPROCS $(nproc)"
run graph 'BenchmarkKNN20k8d$|BenchmarkGonumKDTree20k8d$|BenchmarkKNN100k10d$|BenchmarkMulToOrder$'
run eigen 'BenchmarkEigen100k$'
run kmeans 'BenchmarkKMeans100k5d$|BenchmarkCluster100kx50$'
run cluster 'BenchmarkNOASSC100k$|BenchmarkLabelProp100k$|BenchmarkFGPWCSpamSized$|BenchmarkFGPWC100k$|BenchmarkCSP1kKNN$|BenchmarkCSP10kKNN$|BenchmarkCOSC1kKNN$|BenchmarkCOSC10kKNN$|BenchmarkCCSR1kKNN$|BenchmarkCCSR10kKNN$|BenchmarkCCSRSolve$|BenchmarkCPCA100k$|BenchmarkCLPP100kKNN$|BenchmarkOPPLC100k$|BenchmarkL1CSC1kKNN$|BenchmarkL1CSC10kKNN$|BenchmarkL1CSC100kKNN$'
run powerlaw 'BenchmarkTable51Estimators10M$'
run constraint 'BenchmarkPairs1e6$'
run metrics 'BenchmarkARI$'
