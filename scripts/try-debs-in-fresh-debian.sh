#!/usr/bin/env bash
# Installs the amd64 packages into a fresh Debian 12 root booted with systemd, the way a Pi owner
# runs `apt install ./halmad_*.deb ./halma_*.deb`, and checks that the service comes up with the
# example rooms, that the maintainer scripts did their work, and that remove and purge clean up.
# A manual check, not a CI test: debootstrap and apt download from Debian's mirror.
#   sudo scripts/try-debs-in-fresh-debian.sh [packages/] [ROOT (default: a new one in /var/tmp)]
# The booted root has a network namespace of its own with only loopback: nothing it starts
# (halmad, avahi-daemon) can talk to this machine's network.
set -euo pipefail
cd "$(dirname "$0")/.."
debs=${1:-packages}
root=${2:-}
[ "$(id -u)" = 0 ] || { echo "run as root (debootstrap, chroot, namespaces)" >&2; exit 2; }
arch=$(dpkg --print-architecture)
shopt -s nullglob
packages=("$debs"/halma*_"$arch".deb)
[ ${#packages[@]} -gt 0 ] || { echo "no halma*_$arch.deb in $debs: run scripts/package.sh" >&2; exit 2; }
for tool in debootstrap unshare nsenter; do
    command -v $tool >/dev/null || { echo "needs $tool (apt-get install debootstrap util-linux)" >&2; exit 2; }
done

if [ -z "$root" ]; then
    root=$(mktemp -d /var/tmp/halma-debian-root.XXXXXX)
    chmod 755 "$root"  # it is "/" for everyone inside, the service user too
    echo "== debootstrap bookworm into $root"
    debootstrap --variant=minbase --include=systemd,systemd-sysv,dbus,avahi-daemon bookworm "$root" \
        http://deb.debian.org/debian >"$root.debootstrap.log"
fi
mkdir -p "$root/root/debs"
cp "${packages[@]}" "$root/root/debs/"
# The dependencies come from the mirror now, while the root still shares this machine's network;
# the install itself runs offline in the booted root.
chroot "$root" apt-get -q update >/dev/null
chroot "$root" sh -c 'cd /root/debs && apt-get -q -y --download-only install ./*.deb' >/dev/null
# A Pi's usual login user, in the group that may use the service.
chroot "$root" sh -c 'id pi >/dev/null 2>&1 || useradd -m pi; id guest >/dev/null 2>&1 || useradd -m guest'

boot=$(mktemp)
cat >"$boot" <<EOF
#!/bin/sh
set -e
mount --make-rprivate /
# The root a mount point of its own, as on a real machine: the unit's sandboxing needs it.
mount --bind $root $root
ip link set lo up
mount -t proc proc $root/proc
mount -t sysfs sysfs $root/sys
mount -t tmpfs tmpfs $root/run
mount -t tmpfs tmpfs $root/tmp
mount --rbind /dev $root/dev
mount --rbind /sys/fs/cgroup $root/sys/fs/cgroup
exec chroot $root /lib/systemd/systemd --system --unit=multi-user.target
EOF
chmod +x "$boot"
unshare --fork --pid --mount --uts --ipc --net "$boot" >"$root.boot.log" 2>&1 &
booted=""
for _ in $(seq 50); do
    booted=$(pgrep -f "^/lib/systemd/systemd --system --unit=multi-user.target" | head -n 1 || true)
    [ -n "$booted" ] && break
    sleep 0.2
done
[ -n "$booted" ] || { echo "systemd did not start" >&2; cat "$root.boot.log" >&2; exit 1; }
cleanup() { kill -9 "$booted" 2>/dev/null || true; rm -f "$boot"; }
trap cleanup EXIT
inside() { nsenter -t "$booted" -m -p -u -i -n -r -w "$@"; }
for _ in $(seq 60); do
    state=$(inside systemctl is-system-running 2>/dev/null || true)
    case $state in running|degraded) break ;; esac
    sleep 0.5
done
echo "== booted: $state"

echo "== apt install ./halmad_*.deb ./halma_*.deb"
inside sh -c 'cd /root/debs && apt-get -q -y install ./*.deb' | grep -E '^(Setting up|Created symlink)' || true
for _ in $(seq 40); do
    inside systemctl is-active --quiet halmad && inside test -S /run/halma/api.sock && break
    sleep 0.25
done
echo "halmad.service: $(inside systemctl is-active halmad) ($(inside systemctl is-enabled halmad))"
inside getent passwd halma | sed 's/^/user: /'
inside getent group halma | sed 's/^/group: /'
inside usermod -a -G halma pi
echo "== halma rooms, as root on the Pi"
for _ in $(seq 40); do
    inside halma rooms 2>/dev/null | grep -q . && break
    sleep 0.25
done
inside halma rooms || true
echo "== halma rooms, as pi (in the group halma)"
inside runuser -u pi -- halma rooms || true
echo "== halma rooms, as guest (not in the group)"
inside runuser -u guest -- halma rooms 2>&1 || true
echo "== halma daemon status"
inside halma daemon status 2>&1 | head -n 8 || true
echo "== state directory"
inside ls -la /var/lib/halma
echo "== journal"
inside journalctl -u halmad --no-pager -n 8

echo "== apt remove halmad, then purge"
inside apt-get -q -y remove halmad >/dev/null
echo "after remove: service $(inside systemctl is-active halmad 2>/dev/null || true), state kept: $(inside sh -c 'ls /var/lib/halma | wc -l') entries"
inside apt-get -q -y purge halmad >/dev/null
echo "after purge: /var/lib/halma $(inside sh -c 'test -e /var/lib/halma && echo still there || echo gone'), /etc/halma $(inside sh -c 'test -e /etc/halma && echo still there || echo gone')"
