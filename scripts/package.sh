#!/usr/bin/env bash
# Builds the Debian packages halmad and halma: for this machine (amd64) always, checked by the
# package tests (cpack, lintian, layout, maintainer scripts); with --arm also for arm64 and
# armhf, cross-built with Debian's cross compilers and checked with file and readelf (threaded
# programs hang under qemu-user here, so they are not run). The .debs end up in packages/.
#   scripts/package.sh [--arm | --arch ARCH ...] [--no-deps]
# armhf is Debian's ARMv7 with hardware floating point: Raspberry Pi 2 and later (not the Pi 1
# or Zero, which are ARMv6); arm64 runs on a Pi 3, 4, 5 or Zero 2 W with a 64-bit OS.
set -euo pipefail
cd "$(dirname "$0")/.."
native=$(dpkg --print-architecture)
arches=("$native")
deps=yes
while [ $# -gt 0 ]; do
    case $1 in
    --arm) arches+=(arm64 armhf) ;;
    --arch) arches+=("$2"); shift ;;
    --no-deps) deps="" ;;
    *) echo "usage: scripts/package.sh [--arm | --arch ARCH ...] [--no-deps]" >&2; exit 2 ;;
    esac
    shift
done

if [ -n "$deps" ]; then
    tasks=(build package)
    for arch in "${arches[@]}"; do [ "$arch" = "$native" ] || tasks+=("cross-$arch"); done
    scripts/install-deps.sh "${tasks[@]}"
fi

out=packages
mkdir -p "$out"
# Step 1: configure and build one architecture into build-deb/ARCH with Debian's build flags
# (hardening=+all: PIE, full RELRO, stack protector, fortify, and CET or branch protection).
build_arch() {
    local arch=$1 dir=build-deb/$1
    local -a extra=()
    local flags
    export DEB_BUILD_MAINT_OPTIONS=hardening=+all DEB_HOST_ARCH=$arch
    flags="$(dpkg-buildflags --get CPPFLAGS) $(dpkg-buildflags --get CXXFLAGS)"
    local ldflags
    ldflags=$(dpkg-buildflags --get LDFLAGS)
    unset DEB_HOST_ARCH
    mkdir -p "$dir"
    if [ "$arch" != "$native" ]; then
        # Debian's generator names the cross compiler and pkg-config of ARCH.
        /usr/share/cmake/debtoolchainfilegen "$arch" >"$dir/toolchain.cmake"
        extra+=(-DCMAKE_TOOLCHAIN_FILE="$PWD/$dir/toolchain.cmake"
                -DHALMA_HELP_FROM="$PWD/build-deb/$native")  # the man pages come from native --help
    else
        extra+=(-DHALMA_PACKAGE_TESTS=ON)
    fi
    cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_INSTALL_PREFIX=/usr \
        -DHALMA_BUILD_TESTS=OFF -DHALMA_BUILD_BENCH=OFF -DHALMA_DEB_ARCH="$arch" \
        -DCMAKE_CXX_FLAGS="$flags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" "${extra[@]}" >/dev/null
    ninja -C "$dir"
}

# Step 2: a cross-built package is checked without running it: the right machine, ARMv7 for
# armhf, stripped, and linked against libraries its architecture's packages provide.
check_cross() {
    local arch=$1 deb root
    root=$(mktemp -d)
    for deb in "$out"/halma*_"$arch".deb; do
        dpkg -x "$deb" "$root"
        [ "$(dpkg-deb -f "$deb" Architecture)" = "$arch" ] || { echo "$deb: not $arch" >&2; return 1; }
    done
    local machine
    case $arch in
    arm64) machine="ARM aarch64" ;;
    armhf) machine="ARM, EABI5" ;;
    *) machine="" ;;
    esac
    for bin in halmad halma; do
        local desc
        desc=$(file -b "$root/usr/bin/$bin")
        echo "$arch $bin: $desc"
        grep -q "$machine" <<<"$desc" && grep -q ", stripped" <<<"$desc" \
            || { echo "$bin is not a stripped $arch program" >&2; return 1; }
        readelf -d "$root/usr/bin/$bin" | grep -q BIND_NOW || { echo "$bin: no full RELRO" >&2; return 1; }
        if [ "$arch" = armhf ]; then
            readelf -A "$root/usr/bin/$bin" | grep -q "Tag_CPU_arch: v7" \
                || { echo "$bin is not ARMv7" >&2; return 1; }
        fi
    done
    rm -rf "$root"
}

for arch in "${arches[@]}"; do
    build_arch "$arch"
    dir=build-deb/$arch
    if [ "$arch" = "$native" ]; then
        ctest --test-dir "$dir" --output-on-failure   # runs cpack, then checks the packages
    else
        rm -f "$dir"/packages/*.deb
        (cd "$dir" && cpack --config CPackConfig.cmake >/dev/null)
    fi
    cp "$dir"/packages/*.deb "$out/"
    [ "$arch" = "$native" ] || check_cross "$arch"
done
for deb in "$out"/*.deb; do
    echo "$deb: $(stat -c %s "$deb") bytes, installed $(dpkg-deb -f "$deb" Installed-Size) KiB"
done
