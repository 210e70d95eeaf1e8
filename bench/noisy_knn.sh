#!/usr/bin/env bash
# Noisy constraints on the CLI's default graph (an observation for
# planning, not a study): 900 points of 3 blobs (tether gen blobs, seed 3),
# the default 10-NN graph, about 2.5 pairs per node (pairs-frac 0.0055:
# 2225 pairs, noisy-constraints' 5/n density) drawn from the blobs with
# constraint seeds 1-3, clean and with 10% flipped; ARI of MCL-NOA-SSC
# (default, ReferenceFixed, NoResolve), CSCAP and NJW. noisy-constraints
# measures full RBF graphs only. Run it from the repository under the
# bench lock:
#
#	flock /work/bench.lock bench/noisy_knn.sh
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go build -o "$dir/tether" ./cmd/tether
t="$dir/tether"
"$t" gen blobs -n 900 -k 3 -seed 3 -o "$dir/b.csv" 2>/dev/null
"$t" labels -input "$dir/b.csv" -label label -o "$dir/b.truth" 2>/dev/null
echo "| constraint seed | method | knobs | ARI clean | ARI 10% flipped | loss |"
echo "|---:|---|---|---:|---:|---:|"
for seed in 1 2 3; do
  "$t" constraints gen --truth "$dir/b.truth" --protocol pairs-frac --rate 0.0055 --seed "$seed" -o "$dir/c.cons" 2>/dev/null
  "$t" constraints gen --truth "$dir/b.truth" --protocol pairs-frac --rate 0.0055 --noise 0.1 --seed "$seed" -o "$dir/n.cons" 2>/dev/null
  for spec in "mcl-noa-ssc|" "mcl-noa-ssc|ReferenceFixed=true" "mcl-noa-ssc|NoResolve=true" "cscap|" "njw|"; do
    m=${spec%%|*}
    k=${spec#*|}
    set_flag=()
    if [ -n "$k" ]; then set_flag=(-set "$k"); fi
    ari() {
      "$t" cluster -input "$dir/b.csv" -label label -k 3 -method "$m" "${set_flag[@]}" -constraints "$1" \
        -conflicts soft -o "$dir/l.csv" -quiet 2>&1 | awk '/^ARI/ {print $2}'
    }
    a=$(ari "$dir/c.cons")
    b=$(ari "$dir/n.cons")
    echo "| $seed | $m | ${k:-defaults} | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.3f", a - b}') |"
  done
done
