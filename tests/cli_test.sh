#!/bin/sh
# cli_test.sh - plays scripted games through the ttt program; usage: cli_test.sh path/to/ttt
#
# Prints "ok - name" or "not ok - name" per check, then "N passed, M failed",
# and exits non-zero if anything failed.

TTT=$1
if [ -z "$TTT" ] || [ ! -x "$TTT" ]; then
    echo "usage: $0 path/to/ttt" >&2
    exit 2
fi

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT HUP INT TERM
out=$tmp/out
err=$tmp/err

passed=0
failed=0

# report NAME STATUS: counts and prints one check; on failure shows the output.
report() {
    if [ "$2" -eq 0 ]; then
        passed=$((passed + 1))
        echo "ok - $1"
    else
        failed=$((failed + 1))
        echo "not ok - $1"
        sed 's/^/#   stdout: /' "$out"
        sed 's/^/#   stderr: /' "$err"
    fi
}

# play INPUT ARGS...: feeds INPUT (printf escapes such as \\n, so no other
# backslash or percent sign) to "ttt play ARGS",
# leaving stdout in $out, stderr in $err and the exit status in $status.
play() {
    input=$1
    shift
    # shellcheck disable=SC2059 # the input is meant to hold escapes
    printf "$input" | "$TTT" play "$@" >"$out" 2>"$err"
    status=$?
}

# ends_with RESULT: exit 0, exactly one result line, and it is the last line.
ends_with() {
    [ "$status" -eq 0 ] &&
        [ "$(tail -n 1 "$out")" = "result: $1" ] &&
        [ "$(grep -c '^result: ' "$out")" -eq 1 ]
}

# usage_fails ARGS...: the command exits 2 with a message on stderr and
# nothing that looks like a game on stdout.
usage_fails() {
    "$TTT" "$@" </dev/null >"$out" 2>"$err"
    status=$?
    [ "$status" -eq 2 ] && [ -s "$err" ] && ! grep -q '^result: ' "$out"
}

# --- Finished games --------------------------------------------------------

play 'b2\na1\nc3\na2\nb1\na3\n' --x human --o human
ends_with "O won"
report "O wins down column a" $?

play 'a1\nb1\na2\nb2\na3\n'
ends_with "X won"
report "X wins down column a" $?

play 'a1\nb1\nc1\nb2\nb3\nc2\na2\na3\nc3\n'
ends_with "draw"
report "full-board draw" $?

play '2 2\n1 1\n3 3\n2 1\n1 2\n3 1\n'
ends_with "O won"
report "moves as 1-based row and column numbers" $?

play 'a1\nb1\na2\nb2\na3\n' --misere
ends_with "O won"
report "misere: completing a line loses" $?

play 'a1\nb1\nc1\nb2\nb3\nc2\na2\na3\nc3\n' --early-draw
ends_with "draw" && ! grep -q 'plays c3' "$out"
report "early draw once no line can be completed" $?

play 'A1\nB1\nA2\nB2\nA3\n'
ends_with "X won"
report "upper-case cell names" $?

play 'b2\na1\nc3\na2\nb1\na3'
ends_with "O won"
report "last line without a newline" $?

play 'b2\na1\nc3\na2\nb1\na3\nc1\nquit\n'
ends_with "O won" && ! grep -q 'plays c1' "$out"
report "input after the end is not played" $?

play 'a1\nb1\na2\nb2\na3\n'
ends_with "X won" && ! grep -q 'to move' "$out"
report "no prompts when input is not a terminal" $?

# --- Rejected input --------------------------------------------------------

play 'b2\nb2\na1\n'
ends_with "unfinished" &&
    grep -q '^cannot play b2: .*' "$out" &&
    grep -A1 '^cannot play b2' "$out" | grep -q '^O plays a1$'
report "occupied cell rejected, then a legal move" $?

play 'd4\n4 4\n0 1\nb2\n'
ends_with "unfinished" &&
    grep -q '^cannot play d4: ' "$out" &&
    grep -q '^cannot play 4 4: ' "$out" &&
    grep -q '^cannot play 0 1: ' "$out" &&
    grep -q '^X plays b2$' "$out"
report "off-board moves rejected" $?

play 'b2x\nfoo\n1 2 3\n1 x\nb2\n'
ends_with "unfinished" &&
    [ "$(grep -c 'not a move' "$out")" -eq 4 ] &&
    grep -q '^X plays b2$' "$out"
report "malformed moves rejected" $?

long=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "a" }')
play "$long\\nb2\\n"
ends_with "unfinished" && grep -q 'longer than' "$out" &&
    grep -q '^X plays b2$' "$out"
report "overlong line rejected, next line read" $?

# --- Undo, redo, save, quit -------------------------------------------------

play "b2\\na1\\nc3\\nundo\\nundo\\nredo\\nsave $tmp/undo.ttt\\n"
ends_with "unfinished" &&
    [ "$(cat "$tmp/undo.ttt" 2>/dev/null)" = "ttt/1 n=3 k=3 rules=classic moves=b2,a1" ]
report "undo and redo" $?

play 'undo\nb2\nundo\na1\nredo\n'
ends_with "unfinished" &&
    grep -q '^undo: ' "$out" && grep -q '^redo: ' "$out"
report "undo on an empty game and redo after a new move are refused" $?

play "b2\\nundo\\nsave $tmp/random.ttt\\n" --o random
ends_with "unfinished" &&
    [ "$(cat "$tmp/random.ttt" 2>/dev/null)" = "ttt/1 n=3 k=3 rules=classic moves=-" ]
report "undo against a random player goes back to the human's turn" $?

play 'b2\nquit\na1\n'
ends_with "unfinished" && ! grep -q 'plays a1' "$out"
report "quit leaves the game unfinished" $?

play 'b2\n'
ends_with "unfinished"
report "end of input leaves the game unfinished" $?

# --- Save and replay ---------------------------------------------------------

play "b2\\na1\\nc3\\nsave $tmp/game.ttt\\n" --misere
[ "$(cat "$tmp/game.ttt" 2>/dev/null)" = "ttt/1 n=3 k=3 rules=misere moves=b2,a1,c3" ] &&
    "$TTT" replay "$tmp/game.ttt" >"$out" 2>"$err"
status=$?
ends_with "unfinished" &&
    grep -q '^ply 0' "$out" && grep -q '^ply 3: X c3$' "$out"
report "save, then replay the file" $?

printf 'ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3,a2,b1,a3\n' >"$tmp/won.ttt"
"$TTT" replay "$tmp/won.ttt" >"$out" 2>"$err"
status=$?
ends_with "O won" && grep -q '^ply 6: O a3$' "$out"
report "replay a finished game" $?

# --- Random players ----------------------------------------------------------

play '' --x random --o random --seed 7
ends_with "X won" || ends_with "O won" || ends_with "draw"
report "random against random finishes" $?

cp "$out" "$tmp/first"
play '' --x random --o random --seed 7
grep -q '^result: ' "$out" && cmp -s "$out" "$tmp/first"
report "the same seed plays the same game" $?

# --- Command line ------------------------------------------------------------

"$TTT" --help >"$out" 2>"$err" && grep -q 'usage' "$out"
report "--help" $?

"$TTT" help >"$out" 2>"$err" && grep -q 'usage' "$out"
report "help" $?

"$TTT" --version >"$out" 2>"$err" && [ -s "$out" ]
report "--version" $?

usage_fails play --bogus
report "unknown option exits 2" $?

usage_fails play --size abc
report "bad number exits 2" $?

usage_fails play --size
report "missing option value exits 2" $?

usage_fails play --size 2
report "size rejected by the library exits 2" $?

usage_fails play --k 4
report "win length longer than the board exits 2" $?

usage_fails play --x robot
report "unknown player exits 2" $?

usage_fails play --seed -1
report "negative seed exits 2" $?

usage_fails frobnicate
report "unknown command exits 2" $?

usage_fails replay "$tmp/no-such-file.ttt"
report "missing replay file exits 2" $?

printf 'ttt/1 n=3 k=3 rules=classic moves=b2,b2\n' >"$tmp/bad.ttt"
usage_fails replay "$tmp/bad.ttt" && grep -q 'byte' "$err"
report "replay of an illegal move exits 2" $?

printf 'this is not a game\n' >"$tmp/junk.ttt"
usage_fails replay "$tmp/junk.ttt" && grep -q 'byte' "$err"
report "malformed replay file exits 2" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
