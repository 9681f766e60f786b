#!/usr/bin/env bash
# halmad as a service: one_version (project()'s version in --version, the start-up log and
# DaemonStatus), socket_modes (the API socket is the owner's alone, unless systemd made the
# directory and opened it to the group: RuntimeDirectoryMode=0750 gives the group halma 0660),
# service_fallback (on a Pi where only the service runs, `halma` finds /run/halma by itself, and
# a user outside the group is told why it cannot use it; root only: a mount namespace of its own
# puts a tmpfs over /run, so this machine's /run is never touched).
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
service_fallback)
    if [ -z "${HALMA_IN_OWN_RUN:-}" ]; then
        [ "$(id -u)" = 0 ] || { echo "SKIP: needs root for a mount namespace"; exit 77; }
        trap - EXIT; rm -rf "$tmp"
        HALMA_IN_OWN_RUN=1 exec unshare --mount --propagation private bash "$0" "$@"
    fi
    mount -t tmpfs -o mode=0755 tmpfs /run || { echo "SKIP: cannot mount a tmpfs on /run"; exit 77; }
    mkdir -m 0750 /run/halma
    start /run/halma RUNTIME_DIRECTORY=/run/halma || exit 1
    mkdir -m 0700 "$tmp/xdg"
    as_player() { env -u HALMA_RUNTIME_DIR XDG_RUNTIME_DIR="$tmp/xdg" "$@"; }
    out=$(as_player "$halma" daemon status 2>&1)
    check "with no daemon of one's own, halma reaches the service's: $out" grep -q "^halmad $version" <<<"$out"
    # One's own daemon comes first when there is one.
    mkdir -m 0700 "$tmp/xdg/halma"
    "$halmad" --listen 127.0.0.1:0 --no-mdns --runtime-dir "$tmp/xdg/halma" --state-dir "$tmp/state-own" \
        --name mine >"$tmp/own.log" 2>&1 &
    own=$!
    for _ in $(seq 100); do [ -S "$tmp/xdg/halma/api.sock" ] && break; sleep 0.05; done
    out=$(as_player "$halma" daemon status 2>&1)
    check "one's own daemon is preferred: $out" grep -q "player mine" <<<"$out"
    kill "$own"; wait "$own" 2>/dev/null
    rm -rf "$tmp/xdg/halma"
    # Someone outside the group halma cannot see into /run/halma: told why, not "no halmad".
    chmod 0755 "$tmp" "$tmp/xdg"
    out=$(as_player setpriv --reuid=65534 --regid=65534 --clear-groups "$halma" daemon status 2>&1)
    check "a user outside the group is told about the group halma: $out" grep -q "group halma" <<<"$out"
    stop ;;
*) echo "unknown test $test_name"; exit 2 ;;
esac
finish
