#!/usr/bin/env bash
# Quick start, part one: install what is missing, build, and play a game against a computer
# player in this terminal. Uses the local halmad if one is running, else starts one for the game
# and stops it afterwards. HALMA_BOT_LEVEL=hard for a stronger opponent (default: easy).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh build run
# A game needs only the two programs; tests and benchmarks are built by setup-and-test.sh.
scripts/build.sh halma halmad
build=${HALMA_BUILD_DIR:-build-release}
halma="$build/cli/halma"
halmad="$build/daemon/halmad"
level=${HALMA_BOT_LEVEL:-easy}

started=""
room=""
stop_daemon() {
  # Hosted rooms outlive a daemon's restart: close the game's room so a daemon started just for
  # it leaves nothing behind. With the player's own daemon, the room stays (halma close ends it).
  # --force: mid-game, close asks first, and its question went to /dev/null while the script
  # waited for an answer nobody saw.
  [ -n "$started" ] && [ -n "$room" ] && "$halma" close --force --room "$room" >/dev/null 2>&1 </dev/null
  [ -n "$started" ] && kill "$started" 2>/dev/null && wait "$started" 2>/dev/null
  return 0
}
trap stop_daemon EXIT

if ! "$halma" daemon status >/dev/null 2>&1; then
  log="$build/halmad-quickstart.log"
  # Loopback only: this game is against the computer. A daemon for LAN play listens on all
  # interfaces (the default, port 7460); see README.md.
  "$halmad" --listen 127.0.0.1:0 >"$log" 2>&1 &
  started=$!
  for _ in $(seq 50); do
    "$halma" daemon status >/dev/null 2>&1 && break
    kill -0 "$started" 2>/dev/null || { echo "halmad did not start:"; cat "$log"; exit 1; }
    sleep 0.1
  done
fi

room="game-$(date +%H%M%S)"
"$halma" host "$room" --bots 1 --bot-level "$level" >/dev/null
article=a
[ "$level" = easy ] && article=an
echo "You play the marbles at the bottom of the board against $article $level computer player. Good luck!"
status=0
"$halma" play --room "$room" || status=$?
# halma play says the seat stays while halmad runs: the halmad started here stops now, with the
# room (a daemon that was running already keeps it).
if [ -n "$started" ]; then
  echo "(this game's halmad stops now, and its room with it: run this script again for a new game)"
fi
exit "$status"
