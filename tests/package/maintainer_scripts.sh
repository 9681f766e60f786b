#!/usr/bin/env bash
# halmad's maintainer scripts, run as dpkg would against a scratch root (DPKG_ROOT): the real
# systemd-sysusers makes the user there; deb-systemd-helper, deb-systemd-invoke and systemctl
# are stand-ins that log what they were asked. Install, upgrade, remove and purge, in order:
# the rooms and seats in /var/lib/halma survive all but the purge.
# Usage: maintainer_scripts.sh DEB_DIR VERSION
set -uo pipefail
here=$(dirname "$0")
. "$here/lib.sh"
debs=$1 version=$2
deb=$debs/halmad_${version}_$(dpkg --print-architecture).deb
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root scripts=$work/control stubs=$work/stubs log=$work/log
mkdir -p "$root/etc" "$root/run/systemd/system" "$stubs"
dpkg -x "$deb" "$root"
dpkg-deb -e "$deb" "$scripts"
: >"$log"
for tool in deb-systemd-helper deb-systemd-invoke systemctl; do
    printf '#!/bin/sh\necho "%s $*" >>"%s"\n' "$tool" "$log" >"$stubs/$tool"
    chmod +x "$stubs/$tool"
done
# postrm looks for deb-systemd-helper in the root, as dpkg's postrm must (it may be gone).
mkdir -p "$root/usr/bin" && cp "$stubs/deb-systemd-helper" "$root/usr/bin/"
run() { # run SCRIPT ARGS...: as dpkg runs it, with the stand-ins first on PATH
    : >"$log"
    DPKG_ROOT=$root PATH=$stubs:$PATH sh -e "$scripts/$1" "${@:2}"
}
logged() { grep -qx -- "$1" "$log"; }
not_logged() { ! grep -q -- "$1" "$log"; }

# A fresh install: the user and group, the unit enabled and started.
check "postinst configure (install) exits 0" run postinst configure
check "it made the system user halma" grep -q '^halma:x:[0-9]*:[0-9]*:halma daemon:/var/lib/halma:' "$root/etc/passwd"
check "it made the group halma (the API socket's)" grep -q '^halma:x:' "$root/etc/group"
check "it enabled halmad.service" logged "deb-systemd-helper enable halmad.service"
check "it started halmad.service" logged "deb-systemd-invoke start halmad.service"

# The service ran: rooms and seats on disk.
mkdir -p "$root/var/lib/halma/rooms/lunch"
echo event >"$root/var/lib/halma/rooms/lunch/events"
echo seat >"$root/var/lib/halma/seats"

# An upgrade: the old prerm does not stop it, the new postinst restarts it; nothing is lost.
check "prerm upgrade exits 0" run prerm upgrade "$version"
check "an upgrade does not stop it in prerm" not_logged "stop"
check "postinst configure (upgrade) exits 0" run postinst configure "$version"
check "an upgrade restarts it" logged "deb-systemd-invoke restart halmad.service"
check "an upgrade keeps the rooms" test -f "$root/var/lib/halma/rooms/lunch/events"
check "an upgrade keeps the seats" test -f "$root/var/lib/halma/seats"
check "a second run of sysusers leaves one user halma" test "$(grep -c '^halma:' "$root/etc/passwd")" = 1

# Remove: stopped and masked, state kept for a reinstall.
check "prerm remove exits 0" run prerm remove
check "remove stops it" logged "deb-systemd-invoke stop halmad.service"
check "postrm remove exits 0" run postrm remove
check "remove masks it" logged "deb-systemd-helper mask halmad.service"
check "remove keeps the rooms" test -f "$root/var/lib/halma/rooms/lunch/events"

# Purge: the state goes, and d-s-h forgets the unit.
check "postrm purge exits 0" run postrm purge
check "purge deletes /var/lib/halma" test ! -e "$root/var/lib/halma"
check "purge tells deb-systemd-helper" logged "deb-systemd-helper purge halmad.service"

# Without systemd running (a chroot, a container): nothing is started or stopped.
rm -rf "$root/run/systemd"
check "postinst without systemd exits 0" run postinst configure
check "without systemd nothing is started" not_logged "deb-systemd-invoke"
finish
