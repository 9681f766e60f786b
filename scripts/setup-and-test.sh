#!/usr/bin/env bash
# Quick start, part two: install what is missing, build this PC's Debian packages and check them
# (lintian, layout, maintainer scripts), then build and run every test (and the fuzz targets for a
# short while): ctest's summary is last.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build run test package
scripts/package.sh --no-deps
scripts/build.sh
# Each fuzz target for 30 s under ASan and UBSan (a clang build of the fuzz targets only). A crash
# fails the run, but after the tests, whose summary stays the last thing printed.
fuzz_status=0
scripts/fuzz.sh -t 30 || fuzz_status=$?
ctest --test-dir "${HALMA_BUILD_DIR:-build-release}" --output-on-failure --timeout 900
exit "$fuzz_status"
