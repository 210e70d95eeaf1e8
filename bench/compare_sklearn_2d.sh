#!/usr/bin/env bash
# NJW on 10⁵ points of 5 overlapping Gaussian blobs in 2 dimensions
# (`tether gen blobs -n 100000 -k 5 -seed 1`, standard deviation 1), where
# the eigensolve dominates: tether on its default graph (symmetric 10-NN,
# RBF weights, local scaling) and on scikit-learn's binary 10-NN graph
# (-graph sknn -affinity binary), against scikit-learn's SpectralClustering
# (affinity="nearest_neighbors", n_neighbors=10) with eigen_solver lobpcg
# and arpack (amg needs pyamg, which Debian does not package), in the same
# run. Each row is one process under GNU time: wall seconds of the whole
# process, tether's own graph + clustering seconds, scikit-learn's fit
# seconds, ARI against the generating blobs and peak RSS.
#
# Needs Debian's python3-sklearn and GNU time. Not part of the test suite.
# Usage: flock /work/bench.lock bench/compare_sklearn_2d.sh [TETHER...]
# TETHER are tether binaries to compare (default: one built from the
# working tree); each is run in turn.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out"
bins=("$@")
if [ ${#bins[@]} -eq 0 ]; then
  go build -o "$out/tether" ./cmd/tether
  bins=("$out/tether")
fi
py=/usr/bin/python3
n=100000
data="$out/blobs2d-$n.csv"
[ -f "$data" ] || "${bins[0]}" gen blobs -n "$n" -k 5 -seed 1 -o "$data" 2>/dev/null
printf '| tool | graph | wall s | seconds (graph + clustering, or fit) | ARI | peak RSS (MB) |\n|---|---|---:|---:|---:|---:|\n'
for bin in "${bins[@]}"; do
  for graph in default sknn; do
    args=()
    [ "$graph" = sknn ] && args=(-graph sknn -knn 10 -affinity binary)
    /usr/bin/time -f '%e %M' -o "$out/tether.time" "$bin" cluster -input "$data" -label last \
      "${args[@]}" -method njw -k 5 -seed 1 -quiet -json -o /dev/null > "$out/tether.json"
    "$py" - "$bin" "$graph" "$out/tether.json" "$out/tether.time" <<'PY'
import json, sys
b, graph, js = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
wall, rss = open(sys.argv[4]).read().split()[-2:]
name = {"default": "default (knn, rbf, local σ)", "sknn": "sknn, binary"}[graph]
print(f"| tether ({b}) | {name} | {float(wall):.1f} | {js['graph_seconds'] + js['seconds']:.2f} | {js['figures']['ARI']:.4f} | {int(rss)/1024:.0f} |")
PY
  done
done
for solver in lobpcg arpack; do
  /usr/bin/time -f '%e %M' -o "$out/sk.time" "$py" bench/sklearn_spectral.py "$data" 5 "$solver" > "$out/sklearn.json"
  "$py" - "$out/sklearn.json" "$out/sk.time" <<'PY'
import json, sys
js = json.load(open(sys.argv[1]))
wall, rss = open(sys.argv[2]).read().split()[-2:]
print(f"| {js['tool']} | nearest_neighbors, 10 | {float(wall):.1f} | {js['seconds']:.2f} | {js['ari']:.4f} | {int(rss)/1024:.0f} |")
PY
done
