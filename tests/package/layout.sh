#!/usr/bin/env bash
# The packages' layout, unpacked with dpkg -x into a throwaway root: what goes where, the
# control fields, stripped and hardened binaries that run and report the project's version,
# manual pages that name every option the programs have.
# Usage: layout.sh DEB_DIR VERSION
set -uo pipefail
here=$(dirname "$0")
. "$here/lib.sh"
debs=$1 version=$2
arch=$(dpkg --print-architecture)
root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
daemon=$debs/halmad_${version}_$arch.deb
client=$debs/halma_${version}_$arch.deb
check "the two packages are there, named by version and architecture" test -f "$daemon" -a -f "$client"
[ "$fails" -eq 0 ] || finish
for deb in "$daemon" "$client"; do
    dpkg -x "$deb" "$root"
    echo "$(basename "$deb"): $(stat -c %s "$deb") bytes, Installed-Size $(dpkg-deb -f "$deb" Installed-Size) KiB"
done

field() { dpkg-deb -f "$1" "$2"; }
check "halmad's version is project()'s" test "$(field "$daemon" Version)" = "$version"
check "halma's architecture is $arch" test "$(field "$client" Architecture)" = "$arch"
# dpkg-shlibdeps computed the libraries (ZeroMQ, avahi, libedit), beside the hand-written ones.
check "halmad depends on libzmq5 (shlibdeps)" grep -q 'libzmq5' <<<"$(field "$daemon" Depends)"
check "halmad depends on libavahi-client3 (shlibdeps)" grep -q 'libavahi-client3' <<<"$(field "$daemon" Depends)"
check "halmad depends on something that has systemd-sysusers" grep -q 'systemd-sysusers' <<<"$(field "$daemon" Depends)"
check "halma depends on libedit2 (shlibdeps)" grep -q 'libedit2' <<<"$(field "$client" Depends)"
check "halma does not pull in avahi" bash -c "! grep -q avahi <<<'$(field "$client" Depends)'"

expected=(
    usr/bin/halmad usr/bin/halma
    etc/halma/halmad.toml
    usr/lib/systemd/system/halmad.service usr/lib/systemd/user/halmad.service
    usr/lib/sysusers.d/halma.conf
    usr/share/man/man8/halmad.8.gz usr/share/man/man1/halma.1.gz
    usr/share/bash-completion/completions/halma
    usr/share/doc/halmad/copyright usr/share/doc/halmad/changelog.gz usr/share/doc/halmad/headless.md
    usr/share/doc/halma/copyright usr/share/doc/halma/changelog.gz usr/share/doc/halma/rules.md
)
for f in "${expected[@]}"; do check "/$f is installed" test -f "$root/$f"; done
check "nothing under /usr/local" test ! -e "$root/usr/local"
check "nothing outside /usr and /etc" test "$(ls "$root" | tr '\n' ' ')" = "etc usr "

# The conffile and the maintainer scripts, as dpkg reads them from the control archive.
control=$(mktemp -d)
dpkg-deb -e "$daemon" "$control"
check "/etc/halma/halmad.toml is a conffile" grep -qx /etc/halma/halmad.toml "$control/conffiles"
for s in postinst prerm postrm; do check "$s is executable" test -x "$control/$s"; done
rm -rf "$control"

# The unit points at the packaged program; its socket directory is open to the group halma.
unit=$root/usr/lib/systemd/system/halmad.service
check "the unit runs /usr/bin/halmad" grep -q '^ExecStart=/usr/bin/halmad ' "$unit"
check "the unit's runtime directory is 0750 (group halma)" grep -qx 'RuntimeDirectoryMode=0750' "$unit"
check "the user unit runs /usr/bin/halmad" grep -qx 'ExecStart=/usr/bin/halmad' "$root/usr/lib/systemd/user/halmad.service"
check "sysusers makes the user halma" grep -q '^u halma ' "$root/usr/lib/sysusers.d/halma.conf"

for bin in halmad halma; do
    b=$root/usr/bin/$bin
    check "$bin is stripped" bash -c "file -b '$b' | grep -q ', stripped'"
    # Debian's hardening (dpkg-buildflags, hardening=+all): full RELRO, stack protector, fortify.
    check "$bin has full RELRO (BIND_NOW)" bash -c "readelf -d '$b' | grep -q BIND_NOW && readelf -lW '$b' | grep -q GNU_RELRO"
    check "$bin is PIE" bash -c "readelf -h '$b' | grep -q 'DYN'"
    check "$bin has the stack protector" bash -c "readelf --dyn-syms -W '$b' | grep -q __stack_chk_fail"
    # halma calls no function glibc fortifies (lintian says so too); halmad does (snprintf...).
    if [ "$bin" = halmad ]; then
        check "$bin is fortified" bash -c "readelf --dyn-syms -W '$b' | grep -q '_chk@'"
    fi
    check "$bin --version says $version" test "$("$b" --version)" = "$bin $version"
    # The manual page names every long option --help lists: made from it, it cannot drift.
    page=$(find "$root/usr/share/man" -name "$bin.[18].gz")
    text=$(zcat "$page" | sed 's/\\-/-/g')
    missing=""
    for opt in $("$b" --help | grep -o -- '--[a-z][a-z-]*' | sort -u); do
        grep -q -- "$opt" <<<"$text" || missing+=" $opt"
    done
    check "$bin's manual page names all its options (missing:${missing:- none})" test -z "$missing"
    check "$bin's manual page says version $version" grep -q "$version" <<<"$text"
done
check "the packaged example config passes halmad --check-config" \
    "$root/usr/bin/halmad" --config "$root/etc/halma/halmad.toml" --check-config
finish
