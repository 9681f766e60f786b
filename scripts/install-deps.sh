#!/usr/bin/env bash
# Installs the Debian 12 packages halma needs to build, test and run, skipping those already
# there. Uses sudo when not root. Safe to run again.
set -euo pipefail

packages=(
  # build
  build-essential cmake ninja-build pkg-config ccache git
  # libraries
  libzmq3-dev cppzmq-dev libprotobuf-dev protobuf-compiler libavahi-client-dev libsodium-dev libspdlog-dev
  libcli11-dev libtomlplusplus-dev libsystemd-dev zlib1g-dev libedit-dev
  # tests and benchmarks
  libgtest-dev libgmock-dev libbenchmark-dev python3 python3-zmq python3-protobuf
  tmux  # halma play is tested in a real terminal (tmux capture-pane)
  # run time: LAN discovery, and the network namespaces the discovery tests build
  avahi-daemon avahi-utils dbus iproute2 procps
)
# On a PC, the engine is also built for 32-bit Raspberry Pi OS and run under qemu (a test).
if [ "$(dpkg --print-architecture)" = amd64 ]; then
  packages+=(g++-arm-linux-gnueabihf qemu-user)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "install-deps: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
  sudo=sudo
fi
echo "install-deps: installing ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
