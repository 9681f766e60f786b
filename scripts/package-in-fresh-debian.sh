#!/usr/bin/env bash
# Builds the Debian packages (scripts/package.sh ARGS) inside a fresh Debian 12 root made with
# debootstrap, and copies them to packages/. For when this PC's own packages cannot be matched
# by the other architecture's: multiarch needs the same version of each library for amd64 and
# armhf/arm64, and a newer security update installed here, or a mirror caught mid-sync ("File
# has unexpected size" for one architecture's index), breaks that. The fresh root takes every
# architecture from the same point release (bookworm and bookworm-updates; no security suite, so
# use the packages this builds to try things, and a clean machine's for a release).
# A manual step, not CI: debootstrap and apt download from Debian's mirror.
#   sudo scripts/package-in-fresh-debian.sh [--arm | --arch ARCH ...]   (default: --arm)
# The root is kept in /var/tmp/halma-package-root for the next run (HALMA_PACKAGE_ROOT to move it).
set -euo pipefail
cd "$(dirname "$0")/.."
[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || { echo "needs debootstrap (apt-get install debootstrap)" >&2; exit 2; }
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--arm)
root=${HALMA_PACKAGE_ROOT:-/var/tmp/halma-package-root}

if [ ! -x "$root/usr/bin/apt-get" ]; then
    mkdir -p "$root"
    echo "== debootstrap bookworm into $root"
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian >"$root.debootstrap.log"
fi
cat >"$root/etc/apt/sources.list" <<SOURCES
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
SOURCES
cleanup() {
    umount "$root/dev" 2>/dev/null || true
    umount "$root/proc" 2>/dev/null || true
}
trap cleanup EXIT
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
mountpoint -q "$root/dev" || mount --bind /dev "$root/dev"
# The committed tree, not the work tree: what is built is what a clone would build.
rm -rf "$root/src" && mkdir -p "$root/src"
git archive HEAD | tar -x -C "$root/src"
chroot "$root" sh -c 'apt-get -q update && apt-get -y -q install --no-install-recommends sudo ca-certificates' >/dev/null
chroot "$root" sh -c "cd /src && scripts/package.sh ${args[*]}"
mkdir -p packages
cp "$root"/src/packages/*.deb packages/
ls -l packages/
