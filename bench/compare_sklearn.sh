#!/usr/bin/env bash
# Compare `tether cluster` (NJW on a binary 10-NN graph, as scikit-learn's
# affinity="nearest_neighbors") with scikit-learn's SpectralClustering
# (n_neighbors=10, eigen_solver="lobpcg") on 5 Gaussian blobs in 10
# dimensions, at n = 10^4 and 10^5, in the same run.
#
# Needs Debian's python3-sklearn (apt-get install python3-sklearn) and GNU
# time. Not part of the test suite. Usage: bench/compare_sklearn.sh [STD]
# STD is the blobs' standard deviation (default 4: overlapping blobs whose
# 10-NN graph is connected, so both tools solve a real eigenproblem).
set -euo pipefail
cd "$(dirname "$0")/.."
std="${1:-4}"
out=bench/out
mkdir -p "$out"
go build -o "$out/tether" ./cmd/tether
py=/usr/bin/python3
printf '| n | tool | seconds (graph + clustering) | ARI | peak RSS (MB) |\n|---:|---|---:|---:|---:|\n'
for n in 10000 100000; do
  data="$out/blobs-$n-std$std.csv"
  [ -f "$data" ] || "$out/tether" gen blobs -n "$n" -k 5 -dim 10 -noise "$std" -seed 1 -o "$data" 2>/dev/null
  # tether: time the whole process, report graph + clustering seconds from its JSON summary.
  # Once with the default k-NN search (auto: approximate from graph.ApproxMinN
  # points) and once with the exact search, as scikit-learn's.
  for search in auto exact; do
    /usr/bin/time -f '%M' -o "$out/tether.rss" "$out/tether" cluster -input "$data" -label last \
      -graph sknn -knn 10 -affinity binary -knn-search "$search" -method njw -k 5 -seed 1 -quiet -json -o /dev/null > "$out/tether.json"
    "$py" - "$n" "$search" "$out/tether.json" "$out/tether.rss" <<'PY'
import json, sys
n, search, js, rss = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3])), int(open(sys.argv[4]).read().split()[-1])
print(f"| {n} | tether, {search} k-NN search | {js['graph_seconds'] + js['seconds']:.2f} | {js['figures']['ARI']:.4f} | {rss/1024:.0f} |")
PY
  done
  "$py" bench/sklearn_spectral.py "$data" 5 > "$out/sklearn.json"
  "$py" - "$n" "$out/sklearn.json" <<'PY'
import json, sys
n, js = sys.argv[1], json.load(open(sys.argv[2]))
print(f"| {n} | {js['tool']} | {js['seconds']:.2f} | {js['ari']:.4f} | {js['peak_rss_mb']:.0f} |")
PY
done
