#!/usr/bin/env bash
# Configures and builds into build-release/ (or $HALMA_BUILD_DIR): everything, or only the
# targets named (e.g. `scripts/build.sh halma halmad`, which is all a game needs).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${HALMA_BUILD_DIR:-build-release}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# Two cores and plenty of memory is the machine we plan for; ninja picks the parallelism.
ninja -C "$dir" "$@"
