#!/usr/bin/env bash
# Quick start, part two: install what is missing, build, run every test (ends with ctest's summary).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh
ctest --test-dir "${HALMA_BUILD_DIR:-build-release}" --output-on-failure --timeout 900
