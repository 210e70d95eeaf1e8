#!/usr/bin/env bash
# Interleaved CLI A/B of NJW at 10⁵ points: two tether binaries (OLD, NEW)
# cluster the 2-D and the 10-D blob CSVs in turn, 3 rounds, each run under
# /usr/bin/time -v (wall, peak RSS, CPU) with the JSON's seconds and
# figures. The CSVs are written first with the NEW binary:
#   tether gen blobs -n 100000 -k 5 -seed 1                  (2-D)
#   tether gen blobs -n 100000 -k 5 -dim 10 -noise 4 -seed 1 (10-D)
# Run it under the bench lock:
#
#	OLD=/tmp/eig2-old NEW=/tmp/eig2-new DIR=/tmp/mlexp flock /work/bench.lock bench/njw_cli_ab.sh
set -u
dir=${DIR:-/tmp/njw-cli-ab}
mkdir -p "$dir"
[ -f "$dir/blobs2d-100000.csv" ] || "$NEW" gen blobs -n 100000 -k 5 -seed 1 -o "$dir/blobs2d-100000.csv"
[ -f "$dir/blobs10d-100000.csv" ] || "$NEW" gen blobs -n 100000 -k 5 -dim 10 -noise 4 -seed 1 -o "$dir/blobs10d-100000.csv"
for r in 1 2 3; do
  for data in blobs2d-100000 blobs10d-100000; do
    for v in old new; do
      bin=$OLD
      [ "$v" = new ] && bin=$NEW
      out="$dir/out-$v-$data-$r.json"
      /usr/bin/time -v -o "$dir/time.tmp" "$bin" cluster -input "$dir/$data.csv" -label last -method njw -k 5 -seed 1 -quiet -json > "$out" 2>"$dir/err.tmp"
      wall=$(grep 'Elapsed (wall' "$dir/time.tmp" | awk '{print $NF}')
      rss=$(grep 'Maximum resident' "$dir/time.tmp" | awk '{print $NF}')
      cpu=$(awk -F': ' '/User time|System time/ {s += $2} END {printf "%.1f", s}' "$dir/time.tmp")
      echo "$(date -u +%H:%M:%S) round $r $v $data wall $wall rss_kB $rss cpu $cpu $(python3 -c "import json; d=json.load(open('$out')); print('seconds', round(d['seconds'],2), 'graph_s', round(d['graph_seconds'],2), 'figures', d['figures'])")"
    done
  done
done
