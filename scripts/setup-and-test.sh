#!/usr/bin/env bash
# Quick start, part two: install what is missing, build this PC's Debian packages and check them
# (lintian, layout, maintainer scripts), then build and run every test: ctest's summary is last.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build run test package
scripts/package.sh --no-deps
scripts/build.sh
ctest --test-dir "${HALMA_BUILD_DIR:-build-release}" --output-on-failure --timeout 900
