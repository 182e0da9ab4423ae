#!/bin/sh
# cli_test.sh - plays scripted games through the ttt program; usage: cli_test.sh path/to/ttt
#
# Prints "ok - name" or "not ok - name" per check, then "N passed, M failed",
# and exits non-zero if anything failed.

. "$(dirname "$0")/check_lib.sh"

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

# play_both INPUT ARGS...: as play, with INPUT typing the moves of both sides
# (the default O is the perfect player; ARGS may still choose others).
play_both() {
    input=$1
    shift
    play "$input" --o human "$@"
}

# ends_with RESULT: exit 0, exactly one result line, and it is the last line.
ends_with() {
    [ "$status" -eq 0 ] &&
        [ "$(tail -n 1 "$out")" = "result: $1" ] &&
        [ "$(grep -c '^result: ' "$out")" -eq 1 ]
}

# usage_fails ARGS...: the command exits 2 with a message on stderr (at
# most two lines: the problem, then where the help is, never the whole
# help) and nothing that looks like a game on stdout.
usage_fails() {
    "$TTT" "$@" </dev/null >"$out" 2>"$err"
    status=$?
    [ "$status" -eq 2 ] && [ -s "$err" ] && [ "$(wc -l <"$err")" -le 2 ] &&
        ! grep -q '^result: ' "$out"
}

# --- Finished games --------------------------------------------------------

play 'b2\na1\nc3\na2\nb1\na3\n' --x human --o human
ends_with "O won"
report "O wins down column a" $?

play_both 'a1\nb1\na2\nb2\na3\n'
ends_with "X won"
report "X wins down column a" $?

play_both 'a1\nb1\nc1\nb2\nb3\nc2\na2\na3\nc3\n'
ends_with "draw"
report "full-board draw" $?

play_both '2 2\n1 1\n3 3\n2 1\n1 2\n3 1\n'
ends_with "O won"
report "moves as 1-based row and column numbers" $?

play_both 'a1\nb1\na2\nb2\na3\n' --misere
ends_with "O won"
report "misere: completing a line loses" $?

play_both 'a1\nb1\nc1\nb2\nb3\nc2\na2\na3\nc3\n' --early-draw
ends_with "draw" && ! grep -q 'plays c3' "$out"
report "early draw once no line can be completed" $?

play_both 'A1\nB1\nA2\nB2\nA3\n'
ends_with "X won"
report "upper-case cell names" $?

play_both 'b2\na1\nc3\na2\nb1\na3'
ends_with "O won"
report "last line without a newline" $?

play_both 'b2\na1\nc3\na2\nb1\na3\nc1\nquit\n'
ends_with "O won" && ! grep -q 'plays c1' "$out"
report "input after the end is not played" $?

play_both 'a1\nb1\na2\nb2\na3\n'
ends_with "X won" && ! grep -q 'to move' "$out"
report "no prompts when input is not a terminal" $?

# --- Rejected input --------------------------------------------------------

play_both 'b2\nb2\na1\n'
ends_with "unfinished" &&
    grep -q '^cannot play b2: .*' "$out" &&
    grep -A1 '^cannot play b2' "$out" | grep -q '^O plays a1$'
report "occupied cell rejected, then a legal move" $?

play_both 'd4\n4 4\n0 1\nb2\n'
ends_with "unfinished" &&
    grep -q '^cannot play d4: ' "$out" &&
    grep -q '^cannot play 4 4: ' "$out" &&
    grep -q '^cannot play 0 1: ' "$out" &&
    grep -q '^X plays b2$' "$out"
report "off-board moves rejected" $?

play_both 'b2x\nfoo\n1 2 3\n1 x\nb2\n'
ends_with "unfinished" &&
    [ "$(grep -c 'not a move' "$out")" -eq 4 ] &&
    grep -q '^X plays b2$' "$out"
report "malformed moves rejected" $?

long=$(awk 'BEGIN { for (i = 0; i < 5000; i++) printf "a" }')
play_both "$long\\nb2\\n"
ends_with "unfinished" && grep -q 'longer than' "$out" &&
    grep -q '^X plays b2$' "$out"
report "overlong line rejected, next line read" $?

# A NUL byte makes a line malformed wherever it is: "b2\0zz" is not b2.
play 'b2\0zz' --x human --o human
ends_with "unfinished" && grep -q 'NUL byte' "$out" && ! grep -q 'plays' "$out"
report "a line holding a NUL byte is rejected" $?

play 'b2\0zz\na1\n\0\nb3\0\n' --x human --o human
ends_with "unfinished" && [ "$(grep -c 'NUL byte' "$out")" -eq 3 ] &&
    [ "$(grep -c 'plays' "$out")" -eq 1 ] && grep -q '^X plays a1$' "$out"
report "NUL bytes rejected anywhere in a line, the next line read" $?

# --- Undo, redo, save, quit -------------------------------------------------

play_both "b2\\na1\\nc3\\nundo\\nundo\\nredo\\nsave $tmp/undo.ttt\\n"
ends_with "unfinished" &&
    [ "$(cat "$tmp/undo.ttt" 2>/dev/null)" = "ttt/1 n=3 k=3 rules=classic moves=b2,a1" ]
report "undo and redo" $?

play_both 'undo\nb2\nundo\na1\nredo\n'
ends_with "unfinished" &&
    grep -q '^undo: ' "$out" && grep -q '^redo: ' "$out"
report "undo on an empty game and redo after a new move are refused" $?

play "b2\\nundo\\nsave $tmp/random.ttt\\n" --o random
ends_with "unfinished" &&
    [ "$(cat "$tmp/random.ttt" 2>/dev/null)" = "ttt/1 n=3 k=3 rules=classic moves=-" ]
report "undo against a random player goes back to the human's turn" $?

play_both 'b2\nquit\na1\n'
ends_with "unfinished" && ! grep -q 'plays a1' "$out"
report "quit leaves the game unfinished" $?

play_both 'b2\n'
ends_with "unfinished"
report "end of input leaves the game unfinished" $?

# --- Save and replay ---------------------------------------------------------

play_both "b2\\na1\\nc3\\nsave $tmp/game.ttt\\n" --misere
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

# --- Computer players in play -------------------------------------------------

# A corner opening has one drawing reply, the centre; the perfect player,
# O by default, must find it whatever its seed.
ok=0
for seed in 1 2 3; do
    play 'a1\n' --seed "$seed"
    ends_with "unfinished" && grep -q '^O plays b2$' "$out" || ok=1
done
report "the default O is the perfect player" $ok

# Whatever X tries (occupied cells are refused and the next line is read),
# the perfect O never loses.
ok=0
for moves in 'a1 b1 c1 a2 b2 c2 a3 b3 c3' 'b2 a1 c3 a3 c1 b1 a2 c2 b3' \
    'c3 b3 a3 c2 b2 a2 c1 b1 a1'; do
    for seed in 1 2; do
        play "$(echo "$moves" | tr ' ' '\n')\n" --seed "$seed"
        ends_with "draw" || ends_with "O won" || ok=1
    done
done
report "human X never beats the default perfect O" $ok

play '' --x perfect --o perfect --seed 3
ends_with "draw"
report "perfect against perfect draws" $?

play '' --x bot --o bot --size 5 --k 4 --budget 2000
ends_with "X won" || ends_with "O won" || ends_with "draw"
report "bot against bot finishes, with a small budget" $?

play 'd4\nd5\nc4\nquit\n' --size 7 --k 4 --perfect-budget 1000 --budget 2000
ends_with "unfinished" &&
    [ "$(grep -c 'perfect player' "$out")" -eq 1 ] &&
    [ "$(grep -c '^O plays ' "$out")" -ge 2 ]
report "a perfect player out of budget says so once, and the bot moves" $?

# A huge board: the solver's move lists fill up long before its node budget.
# That is a budget running out, so the bot stands in, as documented. (K = 5:
# with K = N a pairing strategy proves the draw at once, below.)
play 'a1\n' --size 256 --k 5
ends_with "unfinished" && ! grep -q 'out of memory' "$out" &&
    [ "$(grep -c 'perfect player cannot solve' "$out")" -eq 1 ] &&
    [ "$(grep -c '^O plays ' "$out")" -eq 1 ]
report "the perfect player on 256x256 hands over to the bot, not out of memory" $?

play 'a1\n' --size 256
ends_with "unfinished" && ! grep -q 'perfect player cannot solve' "$out" &&
    [ "$(grep -c '^O plays ' "$out")" -eq 1 ]
report "the perfect player on 256x256 K=256 plays at once: a pairing draw" $?

# A computer player that fails ends the game with exit status 1. Failing one
# takes memory it cannot get: a 512x512 bot's search board is some 40 MB.
# (A sanitizer build cannot start under such a limit; then this is not run.)
if (ulimit -v 30000 && "$TTT" --version) >/dev/null 2>&1; then
    (ulimit -v 30000 && exec "$TTT" play --size 512 --k 5 --x bot --o human \
        </dev/null >"$out" 2>"$err")
    status=$?
    [ "$status" -eq 1 ] && grep -q '^bot player failed: out of memory$' "$out" &&
        [ "$(tail -n 1 "$out")" = "result: unfinished" ]
    report "play exits 1 when a computer player fails" $?
else
    echo "# not run: play exits 1 when a computer player fails (no memory limit here)"
fi

# --- perft -------------------------------------------------------------------

# engine CMD ARGS...: runs "ttt CMD ARGS", leaving stdout in $out, stderr in
# $err and the exit status in $status.
engine() {
    "$TTT" "$@" </dev/null >"$out" 2>"$err"
    status=$?
}

# len_sum: the games counted by the "len" lines of $out.
len_sum() {
    awk '$1 == "len" { n += $3 } END { printf "%.0f", n }' "$out"
}

engine perft 3 3 9
[ "$status" -eq 0 ] &&
    [ "$(head -n 1 "$out")" = "x_won=131184 o_won=77904 draw=46080 open=0" ] &&
    [ "$(grep -c '^x_won=' "$out")" -eq 1 ] &&
    [ "$(grep -vc '^len [0-9]* [1-9][0-9]*$' "$out")" -eq 1 ] &&
    [ "$(len_sum)" = 255168 ] &&
    grep -q '^len 5 1440$' "$out" && grep -q '^len 9 127872$' "$out"
report "perft 3 3 9: every game, by outcome and by length" $?

engine perft 3 3 2
[ "$status" -eq 0 ] &&
    [ "$(cat "$out")" = "x_won=0 o_won=0 draw=0 open=72
len 2 72" ]
report "perft 3 3 2: games still open at the depth" $?

engine perft 3 3 0
[ "$status" -eq 0 ] &&
    [ "$(cat "$out")" = "x_won=0 o_won=0 draw=0 open=1
len 0 1" ]
report "perft 3 3 0: the position itself" $?

# Misere changes who wins, not when a game ends.
engine perft --misere 3 3 9
cp "$out" "$tmp/misere"
engine perft 3 3 9 --misere
[ "$status" -eq 0 ] && cmp -s "$out" "$tmp/misere" &&
    [ "$(head -n 1 "$out")" = "x_won=77904 o_won=131184 draw=46080 open=0" ]
report "perft --misere, before or after the numbers" $?

# A game drawn early has one way left to fill the board, and no line to win.
engine perft 3 3 9 --early-draw
[ "$status" -eq 0 ] &&
    [ "$(head -n 1 "$out")" = "x_won=131184 o_won=77904 draw=46080 open=0" ] &&
    [ "$(len_sum)" = 255168 ] && grep -q '^len 9 104832$' "$out"
report "perft --early-draw: the same games, some drawn sooner" $?

engine perft 3 3 9 a1 b1 a2 b2 a3
[ "$status" -eq 0 ] &&
    [ "$(cat "$out")" = "x_won=1 o_won=0 draw=0 open=0
len 0 1" ]
report "perft of a finished position" $?

# --- solve -------------------------------------------------------------------

engine solve 3 3
[ "$status" -eq 0 ] &&
    [ "$(cat "$out")" = "value=draw plies=9 best=a1,b1,c1,a2,b2,c2,a3,b3,c3 nodes=$(sed -n 's/.* nodes=//p' "$out")" ] &&
    grep -q ' nodes=[1-9][0-9]*$' "$out"
report "solve 3 3: a draw, every move keeps it" $?

engine solve 3 3 a1
[ "$status" -eq 0 ] && grep -q '^value=draw plies=8 best=b2 nodes=' "$out"
report "solve after a corner: only the centre draws" $?

engine solve 3 3 a1 b1 a2 b2
[ "$status" -eq 0 ] && grep -q '^value=win plies=1 best=a3 nodes=' "$out"
report "solve: X wins in one" $?

engine solve 3 3 a1 b1 b2 c3 a2
[ "$status" -eq 0 ] && grep -q '^value=loss plies=2 best=c1,c2,a3,b3 nodes=' "$out"
report "solve: O cannot stop both threats" $?

engine solve 3 3 a1 b1 a2 b2 a3
[ "$status" -eq 0 ] && [ "$(cat "$out")" = "value=loss plies=0 best=- nodes=0" ]
report "solve of a won game: a loss for the player who would move" $?

engine solve --misere 3 3
[ "$status" -eq 0 ] && grep -q '^value=draw plies=9 best=b2 nodes=' "$out"
report "solve --misere: only the centre draws" $?

engine solve 3 3 --value-only
[ "$status" -eq 0 ] && grep -q '^value=draw plies=- best=- nodes=[0-9]*$' "$out"
report "solve --value-only" $?

engine solve 4 4
[ "$status" -eq 0 ] && grep -q '^value=draw plies=16 best=a1,.*,d4 nodes=' "$out"
report "solve 4 4: a draw" $?

engine solve 4 3 --value-only
[ "$status" -eq 0 ] && grep -q '^value=win ' "$out"
report "solve 4 3: a first-player win" $?

engine solve 4 4 --budget 10
[ "$status" -eq 1 ] && [ -s "$err" ] &&
    grep -q '^value=[a-z]* plies=- best=- nodes=[0-9]*$' "$out"
report "solve out of budget: what is known, exit 1" $?

# --- match -------------------------------------------------------------------

engine match --x perfect --o perfect --games 10 --seed 1
[ "$status" -eq 0 ] && [ "$(cat "$out")" = "x_won=0 o_won=0 draw=10" ]
report "match: perfect against perfect always draws" $?

engine match --x bot --o perfect --games 5 --seed 1
[ "$status" -eq 0 ] && grep -q '^x_won=0 o_won=0 draw=5$' "$out" &&
    engine match --x perfect --o bot --games 5 --seed 1 &&
    [ "$(cat "$out")" = "x_won=0 o_won=0 draw=5" ]
report "match: the bot holds the perfect player to a draw on 3x3" $?

# A small budget keeps this quick (and the sanitizer run too); the bot still
# wins every game of these seeds, and 100 of 100 in either colour.
engine match --x bot --o random --size 7 --k 4 --games 10 --seed 1 --budget 10000
[ "$status" -eq 0 ] && [ "$(cat "$out")" = "x_won=10 o_won=0 draw=0" ] &&
    engine match --x random --o bot --size 7 --k 4 --games 10 --seed 1 --budget 10000 &&
    [ "$(cat "$out")" = "x_won=0 o_won=10 draw=0" ]
report "match: the bot beats the random player on 7x7, K 4, as X and as O" $?

engine match --x random --o random --games 20 --seed 5
cp "$out" "$tmp/first"
engine match --o random --games 20 --x random --seed 5
[ "$status" -eq 0 ] && cmp -s "$out" "$tmp/first" &&
    [ "$(awk -F '[ =]' '{ print $2 + $4 + $6 }' "$out")" = 20 ]
report "match: the same seed plays the same games" $?

engine match --x perfect --o random --size 6 --k 4 --games 2 --perfect-budget 100 --budget 2000
[ "$status" -eq 0 ] && grep -q '^x_won=[0-9]* o_won=[0-9]* draw=[0-9]*$' "$out" &&
    [ "$(wc -l <"$out")" -eq 1 ] && [ "$(grep -c 'perfect player' "$err")" -eq 1 ]
report "match: a perfect player out of budget is noted once, on stderr" $?

# --- Resignation, draw offers, names -----------------------------------------

play_both "b2\\nresign\\n" --x-name Ana --o-name Bob --save "$tmp/resigned.ttt"
ends_with "X won" && grep -q '^O resigns$' "$out" &&
    grep -q '^O resigned; X wins$' "$out" &&
    grep -q ' x="Ana" o="Bob" end=resign-o' "$tmp/resigned.ttt" &&
    "$TTT" replay "$tmp/resigned.ttt" >"$out" 2>"$err" &&
    [ "$(tail -n 1 "$out")" = "result: X won" ] &&
    grep -q '^O resigned; X wins$' "$out" && grep -q '^X: Ana, O: Bob$' "$out"
report "resign: the other side wins; saved and replayed with ending and names" $?

play_both "b2\\na1\\ndraw\\nyes\\n"
ends_with "draw" && grep -q '^X offers a draw$' "$out" &&
    grep -q '^O accepts the draw$' "$out" && grep -q '^draw: agreed$' "$out"
report "draw: a human opponent accepts" $?

play_both "b2\\ndraw\\nno\\na1\\nquit\\n"
ends_with "unfinished" && grep -q '^O offers a draw$' "$out" &&
    grep -q '^X declines the draw$' "$out" &&
    grep -q '^O plays a1$' "$out" && ! grep -q 'not a move' "$out"
report "draw: a human opponent declines, the answer is not a move" $?

# A computer accepts exactly when the solver calls the position a draw:
# the empty board is one (ttt solve says so), the position after a1 against
# the perfect X is not.
engine solve 3 3 --value-only
grep -q '^value=draw ' "$out" &&
    play 'draw\n' --x human --o perfect &&
    ends_with "draw" && grep -q '^O accepts the draw$' "$out"
report "draw: the computer accepts a drawn position" $?

play 'a1\ndraw\nquit\n' --x perfect --o human --seed 1
moves=$(sed -n 's/^[XO] plays \([a-z0-9]*\)$/\1/p' "$out" | tr '\n' ' ')
grep -q '^X declines the draw$' "$out" && ends_with "unfinished" &&
    engine solve 3 3 --value-only $moves && ! grep -q '^value=draw ' "$out"
report "draw: the computer declines a position its solver does not call drawn" $?

play 'draw\nquit\n' --x human --o bot --size 5 --k 4
ends_with "unfinished" && grep -q '^O declines the draw$' "$out"
report "draw: on a board too large to solve the computer declines" $?

usage_fails play --x-name "$(printf 'a\tb')"
report "a name with a control character exits 2" $?

usage_fails play --o-name "$(printf '%070d' 0)"
report "a name over the limit exits 2" $?

usage_fails match --x bot --o random --x-name Al --o-name Al
report "match: the same name for both players exits 2" $?

# --- Best-of matches ---------------------------------------------------------

# check_best_of N A B: $out is a best-of-N match of players A (--x) and B;
# checks it against its own game lines: the colours alternate (A is X in the
# odd games), the totals are the winner= counts, the match stops at the
# first player past N/2 wins (or at the cap of 10*N games, with no winner),
# and the winner is that player.
check_best_of() {
    awk -v n="$1" -v a="$2" -v b="$3" '
        /^game=/ {
            for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
            games++
            if (f["game"] != games) bad = "numbering"
            want_x = games % 2 ? a : b; want_o = games % 2 ? b : a
            if (f["x"] != want_x || f["o"] != want_o) bad = "alternation"
            w = f["winner"]
            if (f["result"] == "draw") { if (w != "-") bad = "draw winner"; draws++ }
            else if (w != (f["result"] == "x_won" ? f["x"] : f["o"])) bad = "winner"
            else wins[w]++
            if (done) bad = "played on after the match was decided"
            if (wins[w] > int(n / 2)) { done = 1; winner = w }
            next
        }
        /^games=/ { split($1, g, "="); split($2, d, "=");
                    if (g[2] != games || d[2] != draws + 0) bad = "summary" ; next }
        /^wins=/ { split($1, c, "="); split($2, p, "="); seen[p[2]] = c[2]; next }
        /^match winner: / { said = substr($0, 15); next }
        /^no match winner$/ { said = "-"; next }
        { bad = "unexpected line: " $0 }
        END {
            if (seen[a] != wins[a] + 0 || seen[b] != wins[b] + 0) bad = "totals"
            if (done && said != winner) bad = "match winner"
            if (!done && (said != "-" || games != 10 * n)) bad = "cap"
            if (wins[a] + wins[b] > n) bad = "too many decisive games"
            if (bad != "") { print "# " bad; exit 1 }
        }' "$out"
}

engine match --x bot --o random --best-of 5 --seed 3
[ "$status" -eq 0 ] && check_best_of 5 bot random && grep -q '^match winner: ' "$out"
report "match --best-of 5: alternating colours, per-player totals, a winner" $?

engine match --x random --o random --best-of 7 --seed 2
[ "$status" -eq 0 ] && check_best_of 7 random-1 random-2
report "match --best-of 7 of two random players: derived names, totals" $?

engine match --x perfect --o perfect --best-of 3 --seed 1
[ "$status" -eq 0 ] && check_best_of 3 perfect-1 perfect-2 &&
    grep -q '^no match winner$' "$out"
report "match --best-of 3 of perfect players: all drawn, ended by the cap" $?

engine match --x bot --o random --best-of 3 --x-name Ana --o-name Bob --seed 4
[ "$status" -eq 0 ] && check_best_of 3 Ana Bob
report "match --best-of with --x-name and --o-name" $?

mkdir "$tmp/records"
engine match --x bot --o random --best-of 3 --seed 9 --record "$tmp/records"
cp "$out" "$tmp/match"
ok=$status
[ "$(ls "$tmp/records" | wc -l)" -eq "$(grep -c '^game=' "$tmp/match")" ] || ok=1
while read -r game x o result winner; do
    i=${game#game=}
    want=$(echo "${result#result=}" | sed 's/x_won/X won/; s/o_won/O won/')
    "$TTT" replay "$tmp/records/game-$i.ttt" >"$out" 2>"$err" &&
        [ "$(tail -n 1 "$out")" = "result: $want" ] &&
        grep -q "^X: ${x#x=}, O: ${o#o=}\$" "$out" || ok=1
    : "$winner"
done <<EOF_GAMES
$(grep '^game=' "$tmp/match")
EOF_GAMES
cp "$tmp/match" "$out"
check_best_of 3 bot random || ok=1
report "match --record: every game saved, replays with its result and names" $ok

engine match --x bot --o random --record "$tmp/no-such-dir" --best-of 3
[ "$status" -eq 2 ] && grep -q 'no-such-dir' "$err" && ! grep -q '^game=' "$out"
report "match --record into a missing directory fails before the first game" $?

# --- Command line ------------------------------------------------------------

"$TTT" --help >"$out" 2>"$err" && grep -q 'usage' "$out"
report "--help" $?

"$TTT" help >"$out" 2>"$err" && grep -q 'usage' "$out"
report "help" $?

"$TTT" --version >"$out" 2>"$err" && [ -s "$out" ]
report "--version" $?

"$TTT" help >"$out" 2>"$err" &&
    grep -q 'ttt perft' "$out" && grep -q 'ttt solve' "$out" &&
    grep -q 'ttt match' "$out" && grep -q 'perfect' "$out"
report "help covers perft, solve, match and the computer players" $?

# engine_fails ARGS...: exit 2, a message on stderr, nothing on stdout.
engine_fails() {
    engine "$@"
    [ "$status" -eq 2 ] && [ -s "$err" ] && [ ! -s "$out" ]
}

ok=0
for args in "perft" "perft 3 3" "perft 3 3 -1" "perft 3 3 x" "perft 2 2 1" \
    "perft 3 4 9" "perft 3 3 9 --bogus" "perft 3 3 9 a1 a1" \
    "solve" "solve 3" "solve 3 0" "solve 3 3 a1 a1" "solve 3 3 d4" \
    "solve 3 3 b2x" "solve 3 3 a1 b1 a2 b2 a3 c3" "solve 3 3 --budget" \
    "solve 3 3 --budget -5" "solve 3 3 --games 3" \
    "match" "match --x bot" "match --x human --o bot" "match --x bot --o robot" \
    "match --x bot --o bot --games 0" "match --x bot --o bot --size 2" \
    "match --x bot --o bot extra" "play extra"; do
    # shellcheck disable=SC2086 # the arguments are meant to split
    if ! engine_fails $args; then
        echo "# not exit 2 with a message: ttt $args"
        ok=1
    fi
done
report "bad engine arguments exit 2" $ok

# --- Rectangles, gravity and --game ------------------------------------------

# A Connect Four game to its end, typed as column letters: X along the
# bottom row, O on top of it.
play 'a\na\nb\nb\nc\nc\nd\n' --game connect4 --o human
ends_with "X won" && grep -q '^X plays a6$' "$out" && grep -q '^O plays a5$' "$out" &&
    grep -q '^X plays d6$' "$out" &&
    grep -q '^X completed the line a6-d6 and wins$' "$out" &&
    grep -q '^6 \[X\]\[X\]\[X\]\[X\] \.  \.  \.$' "$out"
report "connect4: a game to its end with column letters" $?

# The drawing: seven columns, six rows, and under gravity the letters below
# the board too, where the marks land.
play 'd\nquit\n' --game connect4 --o human
[ "$(tail -n 9 "$out" | head -n 8)" = "   a  b  c  d  e  f  g
1  .  .  .  .  .  .  .
2  .  .  .  .  .  .  .
3  .  .  .  .  .  .  .
4  .  .  .  .  .  .  .
5  .  .  .  .  .  .  .
6  .  .  .  X  .  .  .
   a  b  c  d  e  f  g" ] && ends_with "unfinished"
report "connect4: the board labels its columns above and below" $?

play 'D\nd\nquit\n' --game connect4 --o human
ends_with "unfinished" && grep -q '^X plays d6$' "$out" && grep -q '^O plays d5$' "$out"
report "connect4: column letters in either case stack up" $?

# A cell name is taken only where the mark would land.
play 'c1\nc5\nc6\n3 3\nc5\nquit\n' --game connect4 --o human
ends_with "unfinished" &&
    grep -q '^cannot play c1: .*lands on c6: type c or c6)$' "$out" &&
    grep -q '^cannot play c5: .*lands on c6' "$out" &&
    grep -q '^X plays c6$' "$out" &&
    grep -q '^cannot play 3 3: .*lands on c5' "$out" &&
    grep -q '^O plays c5$' "$out" && [ "$(grep -c ' plays ' "$out")" -eq 2 ]
report "connect4: a floating cell is rejected, the landing cell accepted" $?

play 'a\na\na\na\na\na\na\na1\nb\nquit\n' --game connect4 --o human
ends_with "unfinished" && [ "$(grep -c '^[XO] plays a[1-6]$' "$out")" -eq 6 ] &&
    grep -q '^cannot play a: .*(choose another column)$' "$out" &&
    grep -q '^cannot play a1: .*(O is on a1)$' "$out" &&
    grep -q '^X plays b6$' "$out"
report "connect4: a full column is rejected, by letter and by cell" $?

play 'h\nzz\nd7\nb\nquit\n' --game connect4 --o human
ends_with "unfinished" &&
    grep -q '^cannot play h: .*(the columns run from a to g)$' "$out" &&
    grep -q '^cannot play zz: ' "$out" &&
    grep -q '^cannot play d7: .*runs from a1 to g6' "$out" &&
    grep -q '^X plays b6$' "$out"
report "connect4: columns and cells off the board are rejected" $?

# Without gravity a column letter alone is not a move.
play_both 'b\nb2\nquit\n'
ends_with "unfinished" && grep -q "^'b' is not a move" "$out" && grep -q '^X plays b2$' "$out"
report "a column letter is no move without gravity" $?

# Undo and redo under gravity; the record carries the shape and the rule.
play "d\nd\ne\nundo\nredo\nundo\nsave $tmp/c4.ttt\n" --game connect4 --o human
ends_with "unfinished" &&
    [ "$(cat "$tmp/c4.ttt" 2>/dev/null)" = "ttt/1 w=7 h=6 k=4 rules=gravity moves=d6,d5" ] &&
    "$TTT" replay "$tmp/c4.ttt" >"$out" 2>"$err" &&
    grep -q '^7x6 board, 4 in a row, rules gravity, 2 moves$' "$out" &&
    grep -q '^ply 2: O d5$' "$out" && [ "$(tail -n 1 "$out")" = "result: unfinished" ]
report "connect4: undo, redo, save and replay" $?

# --size WxH without gravity: wider than tall and taller than wide.
play 'a1\na2\nb1\nb2\nc1\nb3\nd1\n' --size 6x3 --k 4 --o human
ends_with "X won" && grep -q '^X completed the line a1-d1 and wins$' "$out" &&
    grep -q '^   a  b  c  d  e  f$' "$out" && grep -q '^3  \.  \[\?O' "$out" &&
    ! grep -q '^4 ' "$out"
report "--size 6x3 --k 4: a row wins, three rows drawn" $?

play 'a1\nb1\na2\nb2\na3\nb3\na4\nb4\na5\n' --size 3x7 --k 5 --o human
ends_with "X won" && grep -q '^X completed the line a1-a5 and wins$' "$out" &&
    grep -q '^7  \.  \.  \.$' "$out"
report "--size 3x7 --k 5: a column wins, K longer than the width" $?

play_both 'b2\na1\nc3\na2\nb1\na3\n' --size 3x3
ends_with "O won"
report "--size 3x3 is the classic board" $?

# Two computers play Connect Four to its end with no terminal.
play '' --game connect4 --x random --o random --seed 4
{ ends_with "X won" || ends_with "O won" || ends_with "draw"; } &&
    [ "$(grep -c '^[XO] plays [a-g][1-6]$' "$out")" -ge 7 ] &&
    ! grep -q 'cannot play' "$out"
report "connect4: random against random plays to the end" $?

play '' --game connect4 --x bot --o bot --seed 2 --budget 3000
{ ends_with "X won" || ends_with "O won" || ends_with "draw"; } &&
    ! grep -q 'cannot play' "$out"
report "connect4: bot against bot plays to the end from a script" $?

# The default O on connect4 is the bot, and it answers a column letter.
play 'd\nquit\n' --game connect4 --budget 3000
# O answers on one of the landing cells after X's d6.
ends_with "unfinished" && [ "$(grep -cE '^O plays ([a-g]6|d5)$' "$out")" -eq 1 ] &&
    ! grep -q 'perfect player' "$out"
report "connect4: the default O is the bot" $?

engine match --game connect4 --x bot --o random --games 2 --seed 1 --budget 3000
[ "$status" -eq 0 ] && [ "$(awk -F '[ =]' '{ print $2 + $4 + $6 }' "$out")" = 2 ]
report "match --game connect4" $?

play_both 'b2\na1\nc3\na2\nb1\na3\n' --game tictactoe
ends_with "O won"
report "--game tictactoe is the classic game" $?

play 'h8\nquit\n' --game gomoku --o human
ends_with "unfinished" && grep -q '^X plays h8$' "$out" && grep -q '^15 ' "$out"
report "--game gomoku: 15x15" $?

# perft on Connect Four: the published counts of games of 1 to 7 plies
# (7**d until a column can fill up: 823536 = 7**7 - 7 at 7 plies).
ok=0
for row in "1 7" "2 49" "3 343" "4 2401" "5 16807" "6 117649"; do
    # shellcheck disable=SC2086 # "depth games" is meant to split
    set -- $row
    engine perft 7x6 4 "$1" --gravity
    if ! { [ "$status" -eq 0 ] &&
        [ "$(head -n 1 "$out")" = "x_won=0 o_won=0 draw=0 open=$2" ] &&
        [ "$(sed -n 2p "$out")" = "len $1 $2" ]; }; then
        echo "# perft 7x6 4 $1: $(head -n 1 "$out")"
        ok=1
    fi
done
report "perft 7x6 4 --gravity: the published counts to depth 6" $ok

engine perft --game connect4 7
[ "$status" -eq 0 ] && grep -q '^len 7 823536$' "$out" &&
    [ "$(awk -F '[ =]' 'NR == 1 { print $2 + $8 }' "$out")" = 823536 ] &&
    [ "$(awk -F '[ =]' 'NR == 1 { print $4 + $6 }' "$out")" = 0 ]
report "perft --game connect4 7: 823536 games, some won by X" $?

# The issue's own figures at 8 plies.
engine perft 7x6 4 8 --gravity
[ "$status" -eq 0 ] &&
    [ "$(cat "$out")" = "x_won=13032 o_won=44430 draw=0 open=5628804
len 7 13032
len 8 5673234" ]
report "perft 7x6 4 8 --gravity: the published Connect Four counts" $?

# perft after moves is the sum over the moves: the library's own answers.
engine perft 5x4 3 4 --gravity
total=$(len_sum)
sum=0
for col in a b c d e; do
    engine perft 5x4 3 3 --gravity "$col"
    sum=$((sum + $(len_sum)))
done
[ "$status" -eq 0 ] && [ "$total" -gt 0 ] && [ "$sum" = "$total" ]
report "perft 5x4 3 --gravity: the root's games are the sum over its columns" $?

engine perft 5x3 3 2
[ "$status" -eq 0 ] && [ "$(head -n 1 "$out")" = "x_won=0 o_won=0 draw=0 open=210" ]
report "perft 5x3 3 2: 15 * 14 games on a rectangle" $?

engine perft 7x6 4 2 --gravity d1
[ "$status" -eq 2 ] && grep -q "move 1, 'd1': .*lands on d6" "$err" && [ ! -s "$out" ]
report "perft: a floating cell among MOVES exits 2" $?

engine perft 7x6 4 1 --gravity d d d d d d d
[ "$status" -eq 2 ] && grep -q "move 7, 'd': " "$err"
report "perft: a full column among MOVES exits 2" $?

# Small gravity boards agree with the published values: 4x4 with K = 3 is a
# first-player win, with K = 4 a draw.
engine solve 4x4 3 --gravity
[ "$status" -eq 0 ] && grep -q '^value=win plies=[0-9]* best=[a-d]4' "$out"
report "solve 4x4 3 --gravity: a first-player win" $?

engine solve 4x4 4 --gravity --value-only
[ "$status" -eq 0 ] && grep -q '^value=draw ' "$out"
report "solve 4x4 4 --gravity: a draw" $?

# solve's best moves are exactly the columns whose position the opponent
# loses in one ply fewer: the library's answers checked against each other.
engine solve 5x4 4 --gravity c c
root=$(head -n 1 "$out")
plies=$(echo "$root" | sed -n 's/.* plies=\([0-9]*\) .*/\1/p')
value=$(echo "$root" | sed -n 's/^value=\([a-z]*\) .*/\1/p')
best=$(echo "$root" | sed -n 's/.* best=\([^ ]*\) .*/\1/p')
want=""
case $value in win) reply=loss ;; loss) reply=win ;; *) reply=draw ;; esac
for col in a b c d e; do
    engine solve 5x4 4 --gravity c c "$col"
    [ "$status" -eq 0 ] || continue
    if grep -q "^value=$reply plies=$((plies - 1)) " "$out"; then
        want="$want,$col"
    fi
done
got=$(echo "$best" | tr ',' '\n' | sed 's/[0-9]*$//' | tr '\n' ',' | sed 's/,$//')
# Each best move is a landing cell: the bottom row, or c2 above the two
# marks in column c.
[ -n "$plies" ] && [ ",$got" = "$want" ] &&
    ! echo "$best" | tr ',' '\n' | grep -v '^[abde]4$' | grep -qv '^c2$'
report "solve 5x4 4 --gravity: the best moves are the children that keep the value" $?

engine solve 7x6 4 --gravity d d c --budget 100000
[ "$status" -le 1 ] && grep -q '^value=[a-z]* plies=[-0-9]* best=[-a-g0-9,]* nodes=[0-9]*$' "$out"
report "solve 7x6 4 --gravity d d c: column letters as MOVES" $?

usage_fails play --game connect4 --size 7x6
report "--game with --size exits 2" $?

usage_fails match --x bot --o bot --game gomoku --k 4
report "--game with --k exits 2" $?

usage_fails play --game chess
report "an unknown --game exits 2" $?

ok=0
for args in "perft --game connect4 7x6 4 3" "perft 7x6 4 3 --game connect4" \
    "perft --game connect4 7x6" "solve --game connect4 7x6 4" "solve --game connect4 7" \
    "perft 7x 4 1" "perft x6 4 1" "perft 7x6x5 4 1" "solve 7x2 3" "solve 7x6 8" \
    "solve 1025x6 4" "solve 7x6 4 d" "perft 7x6 4 1 --gravity h"; do
    # shellcheck disable=SC2086 # the arguments are meant to split
    if ! engine_fails $args; then
        echo "# not exit 2 with a message: ttt $args"
        ok=1
    fi
done
report "bad board arguments exit 2" $ok

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

usage_fails frobnicate &&
    [ "$(tail -n 1 "$err")" = "Try 'ttt COMMAND --help' (COMMAND: play, replay, perft, solve, match or brain), or 'ttt --help'." ]
report "unknown command exits 2" $?

# No command at all: one line, then where the help is; nothing on stdout.
"$TTT" </dev/null >"$out" 2>"$err"
[ $? -eq 2 ] && [ ! -s "$out" ] && [ "$(wc -l <"$err")" -eq 2 ] &&
    grep -q "^Try 'ttt COMMAND --help'" "$err"
report "ttt alone prints one line and where the help is, exit 2" $?

# A usage error in a command points to that command's help.
ok=0
for args in "play --bogus" "replay" "perft 3" "solve --budget" \
    "match --x bot" "brain extra"; do
    cmd=${args%% *}
    # shellcheck disable=SC2086 # the arguments are meant to split
    if ! usage_fails $args || [ "$(wc -l <"$err")" -ne 2 ] ||
        [ "$(tail -n 1 "$err")" != "Try 'ttt $cmd --help'." ]; then
        echo "# ttt $args: not one line and \"Try 'ttt $cmd --help'.\":"
        sed 's/^/#   /' "$err"
        ok=1
    fi
done
report "a usage error prints one line and Try 'ttt COMMAND --help'" $ok

# ttt COMMAND --help: that command's usage and options, no other command's.
ok=0
for cmd in play replay perft solve match brain; do
    if ! "$TTT" "$cmd" --help >"$out" 2>"$err" || [ -s "$err" ] ||
        ! head -n 1 "$out" | grep -q "^usage: ttt $cmd " ||
        grep -E "^(usage:)? *ttt [a-z-]+" "$out" |
            grep -Evq "^(usage:)? *ttt $cmd( |\$)"; then
        echo "# ttt $cmd --help is not $cmd's help alone:"
        sed 's/^/#   /' "$out" "$err" | head -n 20
        ok=1
    fi
done
"$TTT" play --help >"$out" 2>&1 && grep -q -- '--perfect-budget' "$out" &&
    ! grep -q -- '--value-only' "$out"
[ $? -eq 0 ] || ok=1
"$TTT" solve --help >"$out" 2>&1 && grep -q -- '--value-only' "$out" &&
    ! grep -q -- '--x-name' "$out"
[ $? -eq 0 ] || ok=1
report "ttt COMMAND --help prints that command's help only" $ok

usage_fails replay "$tmp/no-such-file.ttt"
report "missing replay file exits 2" $?

printf 'ttt/1 n=3 k=3 rules=classic moves=b2,b2\n' >"$tmp/bad.ttt"
usage_fails replay "$tmp/bad.ttt" && grep -q 'byte' "$err"
report "replay of an illegal move exits 2" $?

# A record as an editor or a mail leaves it: no final newline, CR LF line
# ends, blank lines after it. Each replays as the record itself.
ok=0
for end in '' '\r\n' '\n\n' '\r\n\r\n'; do
    printf "ttt/1 n=3 k=3 rules=classic moves=b2,a1,c3$end" >"$tmp/lenient.ttt"
    if ! "$TTT" replay "$tmp/lenient.ttt" >"$out" 2>"$err" ||
        [ "$(tail -n 1 "$out")" != "result: unfinished" ] ||
        ! grep -q '^ply 3: X c3' "$out"; then
        echo "# replay refused the record ending in '$end':"
        sed 's/^/#   /' "$err"
        ok=1
    fi
done
report "replay takes a record with no final newline, CR LF, or blank lines after it" $ok

# Any other error says what the record needed at that byte.
printf 'ttt/1 n=3 k=3 rules=classic moves=b2,\n' >"$tmp/cut.ttt"
usage_fails replay "$tmp/cut.ttt" &&
    grep -q 'byte 37: malformed text; expected a cell name' "$err"
report "replay names what was expected at the bad byte" $?

printf 'this is not a game\n' >"$tmp/junk.ttt"
usage_fails replay "$tmp/junk.ttt" && grep -q 'byte' "$err"
report "malformed replay file exits 2" $?

# Records are bounded (8 MiB; the longest there can be is 6.5 MB): an
# endless or huge file is refused after reading just past the bound, not
# read until memory runs out.
usage_fails replay /dev/zero && grep -q 'larger than 8 MiB' "$err"
report "replay of an endless file exits 2, saying it is too large" $?

dd if=/dev/zero of="$tmp/huge.ttt" bs=1024 count=8193 2>/dev/null
usage_fails replay "$tmp/huge.ttt" && grep -q 'larger than 8 MiB' "$err"
report "replay of a file over 8 MiB exits 2" $?

# Exactly 8 MiB is read, and judged by its content.
dd if=/dev/zero of="$tmp/limit.ttt" bs=1024 count=8192 2>/dev/null
usage_fails replay "$tmp/limit.ttt" && grep -q 'byte 0' "$err" &&
    ! grep -q 'larger than' "$err"
report "replay of a file of exactly 8 MiB is parsed" $?

# --- Names, files and answers checked where they are given -----------------

long_name=$(printf 'a%.0s' $(seq 65))
usage_fails match --x bot --o random --games 1 --x-name "$long_name" &&
    grep -q 'at most 64 bytes' "$err"
report "match refuses a name over 64 bytes with exit 2, as play does" $?

# Two names equal in their first 64 bytes are two names: refused as too long,
# never merged.
usage_fails match --x bot --o bot --games 1 --x-name "${long_name}x" \
    --o-name "${long_name}y" && grep -q 'at most 64 bytes' "$err" &&
    ! grep -q 'both players are named' "$err"
report "match never cuts names to compare them" $?

usage_fails play --x-name "$(printf '\033]0;pwned\007')"
! grep -q "$(printf '\033')" "$err" && ! grep -q "$(printf '\007')" "$err" &&
    grep -q 'x1B]0;pwned' "$err"
report "a rejected name is echoed with its control bytes escaped" $?

# 'a' and 40 two-byte characters: a 40-byte cut would split the 20th.
usage_fails play --o-name "a$(printf '\303\251%.0s' $(seq 40))" &&
    iconv -f UTF-8 -t UTF-8 "$err" >/dev/null 2>&1 && grep -q '\.\.\.' "$err"
report "a rejected name's echo is cut between UTF-8 characters" $?

# Every argument a usage error echoes (an unknown command, option, player or
# game, a bad number, size, K, move or extra argument) has its control bytes
# escaped: none reaches the terminal raw.
esc=$(printf '\033]0;pwned\007')
echoes_escaped() {
    usage_fails "$@" && ! grep -q "$(printf '\033')" "$err" &&
        ! grep -q "$(printf '\007')" "$err" && grep -q 'x1B]0;pwned' "$err"
}
bad=0
for args in "$esc" "play --$esc" "play --x $esc" "play --game $esc" \
    "play --seed $esc" "match --games $esc" "play $esc" "match $esc" \
    "brain $esc" "perft 3 3 $esc" "solve 3 $esc" \
    "solve $esc 3" "solve 3 3 a1 $esc"; do
    # shellcheck disable=SC2086 # each case is words to split
    echoes_escaped $args || { echo "# not escaped: ttt $args" | tr '\033\007' '??'; bad=1; }
done
[ "$bad" -eq 0 ]
report "every echoed argument of a usage error has its control bytes escaped" $?

# A file name is echoed the same way by replay, play --save and match
# --record (whole, however long a real path can be: only past 8 KiB is it
# cut).
bad=0
for args in "replay $tmp/$esc" "play --save $tmp/$esc/game.ttt" \
    "match --x random --o random --games 1 --record $tmp/$esc"; do
    # shellcheck disable=SC2086 # each case is words to split
    echoes_escaped $args || { echo "# not escaped: ttt $args" | tr '\033\007' '??'; bad=1; }
done
printf 'not a record' >"$tmp/$esc.ttt"
"$TTT" replay "$tmp/$esc.ttt" >"$out" 2>"$err"
[ $? -eq 2 ] && ! grep -q "$(printf '\033')" "$err" && grep -q 'x1B]0;pwned.*byte' "$err" || bad=1
[ "$bad" -eq 0 ]
report "every file name an error echoes has its control bytes escaped" $?

play 'b2\n\033[2Jzz\nquit\n' --o human
ends_with "unfinished" && ! grep -q "$(printf '\033')" "$out" &&
    grep -q 'x1B\[2Jzz' "$out"
report "a rejected move is echoed with its control bytes escaped" $?

play 'b2\n' --save "$tmp/no-such-dir/game.ttt"
[ "$status" -eq 2 ] && grep -q 'no-such-dir/game.ttt' "$err" &&
    ! grep -q 'plays' "$out"
report "play --save into a missing directory exits 2 before the first move" $?

"$TTT" match --x random --o random --games 3 --record "$tmp/no-such-dir" \
    >"$out" 2>"$err"
status=$?
[ "$status" -eq 2 ] && grep -q 'no-such-dir' "$err" && [ ! -s "$out" ] &&
    [ ! -e "$tmp/no-such-dir" ]
report "match --record into a missing directory exits 2 before the first game" $?

"$TTT" match --x random --o random --games 1 --record "$tmp/bad.ttt" \
    >"$out" 2>"$err"
status=$?
[ "$status" -eq 2 ] && grep -q 'not a directory' "$err"
report "match --record naming a file exits 2" $?

# A directory whose name is 4,088 bytes long (relative, in 19 parts): with
# "/game-1.ttt" the record's name passes 4,096 bytes, which a fixed buffer
# cut to "game-1". The whole name is used, or refused with a message.
deep=$(printf 'd%.0s' $(seq 214))
long_dir=$deep
for _ in $(seq 17); do long_dir=$long_dir/$deep; done
long_dir=$long_dir/$(printf 'e%.0s' $(seq 218))
ttt_path=$(cd "$(dirname "$TTT")" && pwd)/$(basename "$TTT")
(cd "$tmp" && mkdir -p "$long_dir" 2>/dev/null &&
    "$ttt_path" match --x random --o random --games 1 --record "$long_dir" \
        >"$out" 2>"$err")
status=$?
(cd "$tmp/$deep" 2>/dev/null && cd "${long_dir#"$deep"/}" 2>/dev/null &&
    ls) >"$tmp/listing"
[ "${#long_dir}" -eq 4088 ] && ! grep -qv '^game-1\.ttt$' "$tmp/listing" &&
    { { [ "$status" -eq 0 ] && grep -q '^game-1\.ttt$' "$tmp/listing"; } ||
      { [ "$status" -ne 0 ] && grep -q 'game-1\.ttt' "$err"; }; }
report "match --record keeps a long directory's record names whole" $?
rm -rf "${tmp:?}/$deep"

# After a draw offer the next line must say yes or no: "resign" is neither,
# is explained, and the offer still stands for the "yes" that follows.
play_both 'b2\ndraw\nresign\nyes\n'
ends_with "draw" && grep -q 'answer the draw offer with yes or no' "$out" &&
    ! grep -q 'resigns' "$out"
report "an answer to a draw offer that is neither yes nor no is asked again" $?

# --- solve on a terminal: progress, and an interrupt ---------------------

# ttt solve under a pseudo-terminal (script), its stderr a terminal: a
# progress line comes within a few seconds; SIGINT then stops the search
# and the program prints what it knows and exits 1, as for a spent budget.
# Every wait is bounded; the program is stopped by its pid. script(1) needs
# a pseudo-terminal: a machine or container without devpts on /dev/pts
# fails this check, saying so.
if command -v script >/dev/null 2>&1 && script -qec true /dev/null </dev/null >/dev/null 2>&1; then
    rm -f "$tmp/pid"
    started=$(date +%s)
    timeout 120 script -qec "echo \$\$ >'$tmp/pid'; exec '$TTT' solve 8 5 --value-only --budget 100000000" \
        /dev/null </dev/null >"$tmp/pty" 2>&1 &
    script_pid=$!
    waited=0
    while ! grep -q 'solve: [1-9][0-9]* positions, ' "$tmp/pty" 2>/dev/null &&
        [ "$waited" -lt 300 ]; do
        sleep 0.1
        waited=$((waited + 1))
    done
    progressed=$(grep -c 'solve: [1-9][0-9]* positions, ' "$tmp/pty")
    [ -s "$tmp/pid" ] && kill -INT "$(cat "$tmp/pid")"
    wait "$script_pid"
    status=$?
    # At most one progress line a second (each overwrites the one before).
    lines=$(tr '\r' '\n' <"$tmp/pty" | grep -c '^solve: [0-9]* positions, ')
    seconds=$(($(date +%s) - started))
    tr -d '\r' <"$tmp/pty" | sed 's/.*\x1b\[K//' >"$out"
    : >"$err"
    [ "$progressed" -ge 1 ] && [ "$lines" -le $((seconds + 1)) ] &&
        [ "$status" -eq 1 ] &&
        grep -q '^value=unknown plies=- best=- nodes=[1-9][0-9]*$' "$out" &&
        grep -q 'interrupted after [0-9]* positions; the value lies between loss and win' "$out"
    report "solve on a terminal shows progress at most every second and stops on SIGINT with what it knows (exit 1)" $?

    # The final nodes= adds up every round, as the progress line does: with
    # a budget of 100000 the round of 65536 positions completes and the next
    # runs out, so the total passes 100000 + 65536 (it was the last round's
    # count alone). The bound only catches a hang: an instrumented build on a
    # busy machine searched 65,568 positions in 120 s.
    timeout 600 script -qec "exec '$TTT' solve 8 5 --value-only --budget 100000" \
        /dev/null </dev/null >"$tmp/pty" 2>&1
    nodes=$(tr -d '\r' <"$tmp/pty" | sed -n 's/.*value=unknown plies=- best=- nodes=\([0-9]*\)$/\1/p')
    [ -n "$nodes" ] && [ "$nodes" -gt 165536 ]
    report "solve on a terminal reports every round's positions in nodes= ($nodes)" $?

    # The rounds' child dies with the program: SIGTERM or SIGHUP to ttt
    # stops the child before ttt ends (it ran on alone until its round
    # ended). ttt runs under a shell that outlives it by a few seconds, as
    # under an interactive shell: were ttt the terminal's session leader,
    # its end would hang up the terminal and kill the child anyway. The
    # child is found in /proc by its parent's pid.
    children_of() {
        for stat in /proc/[0-9]*/stat; do
            line=$(cat "$stat" 2>/dev/null) || continue
            # Fields after the command name, which may hold spaces; split
            # on purpose (they are numbers and a state letter).
            # shellcheck disable=SC2086
            set -- ${line##*) }
            if [ "$2" = "$parent_pid" ]; then
                pid_dir=${stat%/stat}
                echo "${pid_dir#/proc/}"
            fi
        done
    }
    for signal in TERM HUP; do
        rm -f "$tmp/pid"
        : >"$tmp/pty"
        timeout 120 script -qec "'$TTT' solve 8 5 --value-only --budget 100000000 & echo \$! >'$tmp/pid'; wait; sleep 3" \
            /dev/null </dev/null >"$tmp/pty" 2>&1 &
        script_pid=$!
        waited=0
        while ! grep -q 'solve: [1-9][0-9]* positions, ' "$tmp/pty" 2>/dev/null &&
            [ "$waited" -lt 300 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        parent_pid=$(cat "$tmp/pid" 2>/dev/null)
        child=$(children_of)
        [ -n "$parent_pid" ] && kill -"$signal" "$parent_pid"
        waited=0
        while [ -n "$parent_pid" ] && [ -e "/proc/$parent_pid" ] && [ "$waited" -lt 100 ]; do
            sleep 0.1
            waited=$((waited + 1))
        done
        # ttt has ended: its child must be gone already (or a zombie).
        alive=0
        if [ -n "$child" ] && [ -e "/proc/$child" ]; then
            state=$(sed 's/.*) \([A-Z]\).*/\1/' "/proc/$child/stat" 2>/dev/null)
            [ "$state" != Z ] && [ -n "$state" ] && alive=1
            [ "$alive" -eq 1 ] && kill -KILL "$child" 2>/dev/null
        fi
        wait "$script_pid"
        [ -n "$child" ] && [ "$alive" -eq 0 ]
        report "solve on a terminal: SIG$signal to ttt stops its child too" $?
    done
else
    echo "not ok - solve on a terminal: script(1) (Debian's bsdutils) is missing or cannot open a pseudo-terminal (mount devpts on /dev/pts)"
    failed=$((failed + 1))
fi

"$TTT" solve 5 4 --value-only --budget 300000 >"$out" 2>"$err"
[ "$(grep -c 'positions, ' "$err")" -eq 0 ]
report "solve shows no progress line when stderr is not a terminal" $?

finish
