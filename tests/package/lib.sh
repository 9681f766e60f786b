# Shared by the package tests: a failure names what was expected.
fails=0
check() { # check DESCRIPTION COMMAND...: runs COMMAND, counts a failure if it fails
    local what=$1; shift
    if "$@" >/dev/null 2>&1; then echo "ok: $what"; else echo "FAIL: $what"; fails=$((fails + 1)); fi
}
finish() { [ "$fails" -eq 0 ] || { echo "$fails check(s) failed"; exit 1; }; }
