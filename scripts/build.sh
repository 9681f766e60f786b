#!/usr/bin/env bash
# Configures and builds everything into build-release/ (or $HALMA_BUILD_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${HALMA_BUILD_DIR:-build-release}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# Two cores and plenty of memory is the machine we plan for; ninja picks the parallelism.
ninja -C "$dir"
