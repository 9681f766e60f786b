#!/usr/bin/env bash
# Installs the Debian 12 packages a task needs, skipping those already there. Uses sudo when not
# root. Safe to run again.
#   scripts/install-deps.sh [TASK...]     TASK: build, run, test, package, cross-arm64, cross-armhf
# With no TASK: build, run and test (everything but packaging). The README's two quick starts
# ask for what they need; a Pi installing the .deb needs none of this (apt pulls in its libraries).
set -euo pipefail

tasks=("$@")
[ ${#tasks[@]} -gt 0 ] || tasks=(build run test)

# The libraries halma builds against, as -dev packages; cross builds want the :ARCH copies of
# those that are Multi-Arch: same (the others, headers only, serve every architecture).
libs_same=(libzmq3-dev cppzmq-dev libprotobuf-dev libavahi-client-dev libsodium-dev libspdlog-dev
           libtomlplusplus-dev libsystemd-dev zlib1g-dev libedit-dev
           libcpp-httplib-dev)  # halma web's HTTP server and its event stream (cli/web/)
libs_all=(libcli11-dev)

packages=()
cross=()
for task in "${tasks[@]}"; do
    case $task in
    build) packages+=(build-essential cmake ninja-build pkg-config ccache git protobuf-compiler
                      "${libs_same[@]}" "${libs_all[@]}") ;;
    # What the programs use while running: LAN discovery through avahi over D-Bus.
    # halma web opens the page with xdg-open when there is a desktop.
    run) packages+=(avahi-daemon dbus xdg-utils) ;;
    test)
        packages+=(libgtest-dev libgmock-dev libbenchmark-dev python3 python3-zmq python3-protobuf
                   tmux           # halma play is tested in a real terminal (tmux capture-pane)
                   avahi-utils iproute2 procps   # the network namespaces the discovery tests build
                   chromium chromium-driver python3-selenium   # halma web in a real browser
                   # The fuzz targets (scripts/fuzz.sh): libFuzzer, ASan and UBSan. Not clang-14:
                   # it cannot compile libstdc++ 12's std::expected, which the code uses.
                   clang-19 libclang-rt-19-dev)
        # On a PC, the engine is also built for 32-bit Raspberry Pi OS and run under qemu.
        if [ "$(dpkg --print-architecture)" = amd64 ]; then
            packages+=(g++-arm-linux-gnueabihf qemu-user)
        fi ;;
    # Debian packages (scripts/package.sh) and their checks.
    package) packages+=(dpkg-dev help2man lintian file binutils bash-completion systemd) ;;
    cross-arm64 | cross-armhf)
        arch=${task#cross-}
        cross+=("$arch")
        packages+=("crossbuild-essential-$arch")
        for p in "${libs_same[@]}"; do packages+=("$p:$arch"); done ;;
    *) echo "install-deps: unknown task $task (build, run, test, package, cross-arm64, cross-armhf)" >&2
       exit 2 ;;
    esac
done

sudo=""
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "install-deps: need root or sudo" >&2; exit 1; }
    sudo=sudo
fi
# A cross build's libraries come from the foreign architecture, added to dpkg once.
for arch in ${cross[@]+"${cross[@]}"}; do
    dpkg --print-foreign-architectures | grep -qx "$arch" || $sudo dpkg --add-architecture "$arch"
done

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
    echo "install-deps: all ${#packages[@]} packages for ${tasks[*]} present"
    exit 0
fi
echo "install-deps (${tasks[*]}): installing ${missing[*]}"
# A mirror caught mid-sync fails one index ("File has unexpected size"): the install below still
# works from the indexes that came, and says clearly what is missing if it does not.
$sudo apt-get update -qq || echo "install-deps: apt-get update reported errors (above); installing from the indexes it has" >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
