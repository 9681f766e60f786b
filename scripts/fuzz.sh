#!/usr/bin/env bash
# Builds the fuzz targets (fuzz/) with clang for libFuzzer under ASan and UBSan, into
# build-fuzz/ (or $HALMA_FUZZ_BUILD_DIR), and runs each for a bounded time, starting from the
# seed corpus kept in fuzz/corpus/TARGET. What the run learns goes to BUILD/corpus/TARGET, not
# into the repository. A crash stops with the reproducer's name (BUILD/crash-*): fix the bug,
# then copy the reproducer into fuzz/corpus/TARGET/ so that the ordinary build runs it as a test
# (ctest -R fuzz_corpus).
#   scripts/fuzz.sh [-t SECONDS] [TARGET...]    default: 60 s each, every target
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=60
if [ "${1:-}" = -t ]; then seconds=$2; shift 2; fi
all=(peer_message host_message api_request room_files room_session notation config_file)
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")

dir=${HALMA_FUZZ_BUILD_DIR:-build-fuzz}
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++-19 \
    -DHALMA_FUZZ=ON -DHALMA_BUILD_TESTS=OFF -DHALMA_BUILD_BENCH=OFF >/dev/null
ninja -C "$dir" "${targets[@]/#/fuzz_}"

# Leaks are reported (a leak is a bug too); UBSan stops at the first finding, with a stack.
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Scratch files of the targets (room_files writes a room's files per input): on a tmpfs when
# there is one, and gone afterwards even when a target crashed.
scratch=$(mktemp -d "$( [ -d /dev/shm ] && echo /dev/shm || echo "${TMPDIR:-/tmp}")/halma-fuzz.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
export HALMA_FUZZ_TMP=$scratch
failed=()
for t in "${targets[@]}"; do
    work="$dir/corpus/$t"
    mkdir -p "$work"
    echo "fuzz: $t for ${seconds}s"
    # -rss_limit_mb and -max_len: what halmad accepts is at most 64 KiB from a peer (more for a
    # host's snapshot); bigger inputs only slow the run.
    if ! "$dir/fuzz/fuzz_$t" -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=65536 \
        -timeout=10 -print_final_stats=1 -artifact_prefix="$dir/" \
        "$work" "fuzz/corpus/$t" >"$dir/fuzz-$t.log" 2>&1; then
        failed+=("$t")
        echo "fuzz: $t FAILED; the end of $dir/fuzz-$t.log:"
        tail -40 "$dir/fuzz-$t.log"
    else
        grep -E "^stat::number_of_executed_units|^stat::new_units_added" "$dir/fuzz-$t.log" \
            | sed "s/^/fuzz: $t /"
    fi
done
if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz: crashes in ${failed[*]}" >&2
    exit 1
fi
echo "fuzz: ${#targets[@]} target(s) ran ${seconds}s each without a crash"
