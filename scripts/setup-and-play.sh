#!/usr/bin/env bash
# Quick start, part one: install what is missing, build, and run the main job.
# Until the daemon lands, the main job is the engine's analysis of the 2-player start.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
halma=${HALMA_BUILD_DIR:-build-release}/cli/halma
start='4/44/444/4444/............./............/.........../........../........./........../.........../............/............./1111/111/11/1 1'
echo
echo "The 2-player start: $start"
echo "Set 1 (bottom) moves first. Its legal moves:"
"$halma" analyze moves "$start" | paste -sd' '
echo "Move sequences 1..4 plies deep:"
for d in 1 2 3 4; do printf '  perft(%d) = %s\n' "$d" "$("$halma" analyze perft "$d")"; done
