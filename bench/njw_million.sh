#!/usr/bin/env bash
# NJW on 5 Gaussian blobs in 10-D (std 4, as bench/compare_sklearn.sh) with
# the binary 10-NN graph of scikit-learn's affinity="nearest_neighbors",
# generated in-process (tether cluster -gen blobs: the data of tether gen
# with the same flags and seed), once with the approximate k-NN search and
# once with the exact one. Prints one Markdown row per run: wall-clock
# seconds of the whole process (generation included), graph and clustering
# seconds, ARI, recall@9 of the approximate search (on 2000 sampled points
# above 10⁵, every point below), peak RSS, and the process's CPU seconds
# (user + system: on a shared machine whose other jobs take cores, wall
# time grows while CPU time barely does).
#
# Usage: bench/njw_million.sh [N...] (default 1000000); SEARCHES="approx"
# skips the exact search (default "approx exact"). Heavy: run it under
# flock /work/bench.lock on the shared machine.
set -euo pipefail
cd "$(dirname "$0")/.."
out=bench/out
mkdir -p "$out"
go build -o "$out/tether" ./cmd/tether
[ $# -gt 0 ] || set -- 1000000
printf '| n | k-NN search | total s | graph s | clustering s | ARI | recall@9 | peak RSS (MB) | CPU s |\n|---:|---|---:|---:|---:|---:|---:|---:|---:|\n'
for n in "$@"; do
  for search in ${SEARCHES:-approx exact}; do
    /usr/bin/time -f '%e %M %U %S' -o "$out/njw.time" "$out/tether" cluster -gen blobs -n "$n" -gen-k 5 -dim 10 -noise 4 \
      -graph sknn -knn 10 -affinity binary -knn-search "$search" -method njw -k 5 -seed 1 -quiet -v -json -o /dev/null \
      > "$out/njw.json" 2> "$out/njw.err"
    python3 - "$n" "$search" "$out/njw.json" "$out/njw.time" <<'PY'
import json, sys
n, search, js = sys.argv[1], sys.argv[2], json.load(open(sys.argv[3]))
wall, rss, usr, sys_ = open(sys.argv[4]).read().split()[-4:]
rec = js.get("knn_recall")
rec = f"{rec:.4f}" if rec is not None else "exact"
print(f"| {n} | {search} | {float(wall):.1f} | {js['graph_seconds']:.1f} | {js['seconds']:.1f} | {js['figures']['ARI']:.4f} | {rec} | {int(rss)/1024:.0f} | {float(usr) + float(sys_):.1f} |")
PY
  done
done
