#!/usr/bin/env bash
# `halma analyze` as a script would use it: output format and exit codes.
set -u
halma=$1
start='4/44/444/4444/............./............/.........../........../........./........../.........../............/............./1111/111/11/1 1'
fail=0
check() {  # name, expected, actual
    if [ "$2" != "$3" ]; then echo "FAIL $1: expected [$2], got [$3]"; fail=1; else echo "ok   $1"; fi
}
check "moves count" 14 "$("$halma" analyze moves "$start" | wc -l)"
check "moves format" "n1-m5" "$("$halma" analyze moves "$start" | head -1)"
check "perft default start" 4648 "$("$halma" analyze perft 3)"
check "perft rules" 4760 "$("$halma" analyze perft --rules rest=any 3 "$start")"
six='4/44/444/4444/3333.....5555/333......555/33.......55/3........5/........./2........6/22.......66/222......666/2222.....6666/1111/111/11/1 1'
check "perft six long own" 43968 "$("$halma" analyze perft --rules jumps=long,rest=own 4 "$six")"
check "perft six short any" 199 "$("$halma" analyze perft --rules rest=any 2 $six)"
check "path" "o1-m7" "$("$halma" analyze path o1-m7 "$start")"
"$halma" analyze moves "garbage" >/dev/null 2>/tmp/halma-cli-err.$$; rc=$?
check "garbage position exit" 2 "$rc"
grep -q "bad position" /tmp/halma-cli-err.$$ || { echo "FAIL garbage message: $(cat /tmp/halma-cli-err.$$)"; fail=1; }
"$halma" analyze perft --rules jumps=huge 2 >/dev/null 2>/tmp/halma-cli-err.$$; rc=$?
check "bad rules exit" 2 "$rc"
grep -q "jumps=short|long" /tmp/halma-cli-err.$$ || { echo "FAIL bad rules message: $(cat /tmp/halma-cli-err.$$)"; fail=1; }
"$halma" analyze path o1-m9 "$start" >/dev/null 2>/tmp/halma-cli-err.$$; rc=$?
check "illegal move exit" 1 "$rc"
grep -q "not reachable" /tmp/halma-cli-err.$$ || { echo "FAIL illegal message: $(cat /tmp/halma-cli-err.$$)"; fail=1; }
nine="${start/4\/44/.\/44}"
"$halma" analyze moves "$nine" >/dev/null 2>/tmp/halma-cli-err.$$; rc=$?
check "marble count exit" 2 "$rc"
grep -q "set 4 has 9 marbles" /tmp/halma-cli-err.$$ || { echo "FAIL count message: $(cat /tmp/halma-cli-err.$$)"; fail=1; }
# As a game goes on: unused=filled starts with the other triangles filled; a finished game has no
# moves; a set just finished leaves the other its move to complete the round (set 1 began it).
check "perft filled start" 2945504 "$("$halma" analyze perft --rules unused=filled 5)"
done_game='1/11/111/1111/............./............/.........../........../........./........../.........../............/............./4444/444/44/4 1'
check "a finished game has no moves" "" "$("$halma" analyze moves "$done_game" 2>/tmp/halma-cli-err.$$)"
grep -q "the game is over" /tmp/halma-cli-err.$$ || { echo "FAIL game over message: $(cat /tmp/halma-cli-err.$$)"; fail=1; }
owed='1/11/111/1111/............./...44......./........4../...4.4..../44...4.../........../......4..../............/....4......../..../.../../. 4'
check "the round is completed" 1 "$("$halma" analyze moves "$owed" | grep -c '^f4-e5$')"
full='1/11/111/1144/............./............/.........../........../....11.../........../.........../............/............./4444/444/4./. 1'
check "spoil=occupied: a full home has finished" "" "$("$halma" analyze moves --rules spoil=occupied "$full" 2>/dev/null)"
# What cannot be a position is named as typed, control characters shown as \xNN.
"$halma" analyze moves "$start"$'\r' >/dev/null 2>/tmp/halma-cli-err.$$
grep -qF "set to move '1\x0d'" /tmp/halma-cli-err.$$ || { echo "FAIL carriage return: $(cat -v /tmp/halma-cli-err.$$)"; fail=1; }
"$halma" analyze moves "１${start#4}" >/dev/null 2>/tmp/halma-cli-err.$$
grep -q "row a has '１'" /tmp/halma-cli-err.$$ || { echo "FAIL fullwidth digit: $(cat /tmp/halma-cli-err.$$)"; fail=1; }
check "two spaces before the set to move" 14 "$("$halma" analyze moves "${start% 1}  1" | wc -l)"
"$halma" analyze frobnicate >/dev/null 2>&1; rc=$?
check "unknown command exit" 2 "$rc"
rm -f /tmp/halma-cli-err.$$
exit $fail
