#!/usr/bin/env bash
# halmad as a service: one_version (project()'s version in --version, the start-up log and
# DaemonStatus), socket_modes (the API socket is the owner's alone, unless systemd made the
# directory and opened it to the group: RuntimeDirectoryMode=0750 gives the group halma 0660).
# Usage: service_tests.sh TEST HALMAD HALMA VERSION
set -uo pipefail
. "$(dirname "$0")/../package/lib.sh"
test_name=$1 halmad=$2 halma=$3 version=$4
tmp=$(mktemp -d)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

start() { # start RUNTIME_DIR [ENV=VALUE...]: a halmad on loopback, waits for its socket
    local dir=$1; shift
    env "$@" "$halmad" --listen 127.0.0.1:0 --no-mdns --runtime-dir "$dir" \
        --state-dir "$tmp/state-$(basename "$dir")" >"$tmp/log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do
        [ -S "$dir/api.sock" ] && "$halma" --runtime-dir "$dir" daemon status >/dev/null 2>&1 && return 0
        sleep 0.05
    done
    echo "halmad did not start:"; cat "$tmp/log"; return 1
}
stop() { kill "$pid" && wait "$pid"; pid=""; }
mode() { stat -c %a "$1"; }

case $test_name in
one_version)
    check "halmad --version is 'halmad $version'" test "$("$halmad" --version)" = "halmad $version"
    check "halma --version is 'halma $version'" test "$("$halma" --version)" = "halma $version"
    start "$tmp/own" || exit 1
    check "the start-up log names version $version" grep -q "halmad $version listening" "$tmp/log"
    check "DaemonStatus.version is $version" \
        grep -q "\"version\": *\"$version\"" <<<"$("$halma" --runtime-dir "$tmp/own" daemon status --json)"
    stop ;;
socket_modes)
    # A player's own halmad: its directory made private (0700) even if it was open, socket 0600.
    mkdir -m 0755 "$tmp/own"
    start "$tmp/own" || exit 1
    check "own directory: made 0700 (was $(echo 755))" test "$(mode "$tmp/own")" = 700
    check "own socket: 0600" test "$(mode "$tmp/own/api.sock")" = 600
    stop
    # RUNTIME_DIRECTORY naming some other directory changes nothing.
    mkdir -m 0750 "$tmp/other"
    start "$tmp/own" RUNTIME_DIRECTORY="$tmp/other" || exit 1
    check "another directory systemd made does not open ours" test "$(mode "$tmp/own/api.sock")" = 600
    stop
    # The system service: systemd made the directory 0750 (RuntimeDirectoryMode=).
    mkdir -m 0750 "$tmp/svc"
    start "$tmp/svc" RUNTIME_DIRECTORY="$tmp/svc" || exit 1
    check "systemd's 0750 directory is left 0750" test "$(mode "$tmp/svc")" = 750
    check "... and the socket is open to the group: 0660" test "$(mode "$tmp/svc/api.sock")" = 660
    stop
    # A unit that keeps it private (RuntimeDirectoryMode=0700) keeps the socket private.
    mkdir -m 0700 "$tmp/private"
    start "$tmp/private" RUNTIME_DIRECTORY="$tmp/private" || exit 1
    check "systemd's 0700 directory gives a 0600 socket" test "$(mode "$tmp/private/api.sock")" = 600
    stop ;;
*) echo "unknown test $test_name"; exit 2 ;;
esac
finish
