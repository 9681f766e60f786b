#!/usr/bin/env bash
# halma's bash completion, with bash-completion's own helpers and the halma just built: Tab
# after "halma an" gives analyze, after "halma analyze " its subcommands, after "halma join --"
# the join options.
# Usage: bash_completion.sh COMPLETION_FILE DIR_OF_HALMA
set -uo pipefail
here=$(dirname "$0")
. "$here/lib.sh"
. /usr/share/bash-completion/bash_completion
. "$1"
PATH=$2:$PATH
complete_line() { # complete_line WORDS...: the last word is the one being completed
    COMP_WORDS=("$@")
    COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
    COMP_LINE="$*"
    COMP_POINT=${#COMP_LINE}
    COMPREPLY=()
    _halma
    printf '%s\n' "${COMPREPLY[@]}"
}
check "halma an<Tab> gives analyze" test "$(complete_line halma an)" = analyze
check "halma analyze <Tab> lists perft" grep -qx perft <<<"$(complete_line halma analyze '')"
check "halma analyze <Tab> does not list join" bash -c "! grep -qx join <<<'$(complete_line halma analyze '')'"
check "halma join --<Tab> lists --spectate" grep -qx -- --spectate <<<"$(complete_line halma join --)"
check "halma --runtime-dir /run/halma ro<Tab> gives rooms" test "$(complete_line halma --runtime-dir /run/halma ro)" = rooms
check "halma host x --bot-level <Tab> gives easy and hard" test "$(complete_line halma host x --bot-level '' | tr '\n' ' ')" = "easy hard "
finish
