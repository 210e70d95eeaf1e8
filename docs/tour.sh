#!/usr/bin/env bash
# Runs the README's tour: exactly the commands of the ```sh block under
# "## A short tour", in order, each with `set -euo pipefail`, in a scratch
# directory with a freshly built binary, so that the README and what runs
# cannot drift apart.
#
#   docs/tour.sh          run the tour
#   docs/tour.sh --list   print the commands of the block, one per line
#
# The scratch directory stands for the README's tour/ ("mkdir -p tour &&
# cd tour" is not run); "go build -o tether ../cmd/tether" is run from the
# repository root with its output in the scratch directory;
# "../../shared/datasets" (../shared/datasets relative to the root, as in
# the README; TOUR_SHARED overrides it) is replaced by its absolute path. When that folder is absent, the first line that uses it
# and every line after it are skipped: the README keeps them last, since
# they build on each other's files.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)

# tour_commands prints the non-blank, non-comment lines of the block.
tour_commands() {
  awk '
    /^## A short tour[[:space:]]*$/ { section = 1; next }
    section && /^## / { exit }
    section && !inblock && /^```sh[[:space:]]*$/ { inblock = 1; next }
    inblock && /^```[[:space:]]*$/ { exit }
    inblock && !/^[[:space:]]*(#|$)/ { print }
  ' "$root/README.md"
}

if [ "${1:-}" = "--list" ]; then
  tour_commands
  exit 0
fi

mapfile -t cmds < <(tour_commands)
if [ "${#cmds[@]}" -eq 0 ]; then
  echo "tour.sh: no commands found under \"## A short tour\" in README.md" >&2
  exit 1
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
shared="${TOUR_SHARED:-$root/../shared/datasets}"
cd "$work"
ran=0 skipped=0
for cmd in "${cmds[@]}"; do
  case "$cmd" in
  "mkdir -p tour && cd tour")
    # The scratch directory stands for tour/.
    echo "+ $cmd (the scratch directory)"
    ran=$((ran + 1))
    continue
    ;;
  "go build -o tether ../cmd/tether")
    echo "+ $cmd"
    (cd "$root" && go build -o "$work/tether" ./cmd/tether)
    ran=$((ran + 1))
    continue
    ;;
  *../../shared/datasets*)
    if [ ! -d "$shared" ]; then
      noshared=1
    fi
    cmd=${cmd//..\/..\/shared\/datasets/$shared}
    ;;
  esac
  if [ -n "${noshared:-}" ]; then
    echo "tour.sh: skipped (no ../shared/datasets): $cmd"
    skipped=$((skipped + 1))
    continue
  fi
  echo "+ $cmd"
  bash -euo pipefail -c "$cmd"
  ran=$((ran + 1))
done
echo "tour.sh: $ran commands ran, $skipped skipped"
