#!/bin/sh
# brain_test.sh - drives `ttt brain` through scripted Gomocup protocol sessions; usage: brain_test.sh path/to/ttt
#
# Prints "ok - name" or "not ok - name" per check, then "N passed, M failed",
# and exits non-zero if anything failed.

. "$(dirname "$0")/check_lib.sh"

# session INPUT: feeds INPUT (printf escapes, \r\n line ends as managers
# send them) to `ttt brain`, killed after 120 s should it hang; stdout in
# $out (CRs dropped), stderr in $err, the exit status in $status.
session() {
    # shellcheck disable=SC2059 # the input is meant to hold escapes
    printf "$1" | timeout 120 "$TTT" brain >"$tmp/raw" 2>"$err"
    status=$?
    tr -d '\r' <"$tmp/raw" >"$out"
}

# answer N: line N of the last session's output.
answer() {
    sed -n "$1p" "$out"
}

# is_move TEXT SIZE: TEXT is "x,y" with 0 <= x, y < SIZE.
is_move() {
    echo "$1" | awk -F, -v n="$2" '
        NF == 2 && $1 ~ /^[0-9]+$/ && $2 ~ /^[0-9]+$/ && $1 < n && $2 < n { ok = 1 }
        END { exit !ok }'
}

# --- START, BEGIN, ABOUT, END --------------------------------------------

session 'START 15\r\nBEGIN\r\nEND\r\n'
[ "$status" -eq 0 ] && [ "$(answer 1)" = OK ] && is_move "$(answer 2)" 15 &&
    [ "$(wc -l <"$out")" -eq 2 ]
report "START 15 answers OK, BEGIN a move on the board, END exits 0" $?

session 'ABOUT\r\nEND\r\n'
[ "$status" -eq 0 ] && grep -q '^name="libttt", version="[0-9.]*", author="[^"]*"' "$out"
report "ABOUT gives name, version and author" $?

session 'START 20\r\nBEGIN\r\n'
[ "$status" -eq 0 ] && [ "$(answer 1)" = OK ] && is_move "$(answer 2)" 20
report "the end of input ends the brain with status 0" $?

# --- TURN: the opponent opens; every answer legal and on an empty cell ----

# Four answers: too few stones for the brain to have won yet.
session 'START 15\r\nTURN 7,7\r\nTURN 0,0\r\nTURN 14,14\r\nTURN 0,14\r\nEND\r\n'
[ "$status" -eq 0 ] && [ "$(answer 1)" = OK ] &&
    sed -n '2,$p' "$out" | awk -F, '
        BEGIN { split("7,7 0,0 14,14 0,14", theirs, " ") }
        {
            taken[theirs[NR]] = 1
            if (NF != 2 || $1 !~ /^[0-9]+$/ || $2 !~ /^[0-9]+$/ || $1 > 14 ||
                $2 > 14 || ($0 in taken)) exit 1
            taken[$0] = 1
            n++
        }
        END { exit n != 4 }'
report "TURN: four answers, each a legal move on an empty cell" $?

# --- BOARD ... DONE --------------------------------------------------------

# The brain (1) has four in a row from 7,7 to 10,7, blocked at 6,7; the
# opponent (2) has four at x = 0 from y = 0 to 3. The only win is 11,7.
session 'START 15\r\nBOARD\r\n7,7,1\r\n0,0,2\r\n8,7,1\r\n0,1,2\r\n9,7,1\r\n0,2,2\r\n10,7,1\r\n0,3,2\r\n6,7,2\r\nDONE\r\nEND\r\n'
[ "$(answer 2)" = 11,7 ]
report "BOARD: the brain plays its win in one (11,7), not the block" $?

# The opponent has four at x = 5 from y = 5 to 8, blocked at 5,4 by the
# brain: it must block at 5,9. Equal counts: the brain moves first.
session 'START 15\r\nBOARD\r\n5,5,2\r\n5,4,1\r\n5,6,2\r\n10,10,1\r\n5,7,2\r\n12,12,1\r\n5,8,2\r\n14,1,1\r\nDONE\r\nEND\r\n'
[ "$(answer 2)" = 5,9 ]
report "BOARD: the brain blocks a four (5,9)" $?

# An open four of the opponent on row 3, from 4,3 to 7,3: the brain can
# only take one end, 3,3 or 8,3.
session 'START 15\r\nBOARD\r\n4,3,2\r\n12,12,1\r\n5,3,2\r\n0,14,1\r\n6,3,2\r\n14,8,1\r\n7,3,2\r\n10,0,1\r\nDONE\r\nEND\r\n'
case $(answer 2) in 3,3 | 8,3) true ;; *) false ;; esac
report "BOARD: the brain blocks an open four at one end" $?

# Counts that cannot have the brain to move, a cell given twice, field 3,
# a bad line, an empty BOARD (the brain opens): ERROR each time, then on.
session 'START 15\r\nBOARD\r\n1,1,1\r\n2,2,1\r\nDONE\r\nBOARD\r\n1,1,1\r\n1,1,2\r\nDONE\r\nBOARD\r\n1,1,3\r\nDONE\r\nBOARD\r\n1,x,1\r\n15,0,2\r\nDONE\r\nBOARD\r\nDONE\r\nEND\r\n'
[ "$status" -eq 0 ] && answer 2 | grep -q '^ERROR ' &&
    answer 3 | grep -q '^ERROR ' && answer 4 | grep -q '^ERROR ' &&
    answer 5 | grep -q '^ERROR ' && is_move "$(answer 6)" 15 &&
    [ "$(wc -l <"$out")" -eq 6 ]
report "BOARD: impossible counts, doubled cells, field 3, bad lines give ERROR" $?

# --- RESTART, TAKEBACK -----------------------------------------------------

session 'START 15\r\nTURN 7,7\r\nRESTART\r\nBEGIN\r\nEND\r\n'
[ "$(answer 3)" = OK ] && is_move "$(answer 4)" 15
report "RESTART: OK, then the brain may open a new game" $?

session 'START 15\r\nBEGIN\r\n'
first=$(answer 2)
session "START 15\r\nBEGIN\r\nTAKEBACK $first\r\nBEGIN\r\nTAKEBACK 0,0\r\nEND\r\n"
[ "$(answer 3)" = OK ] && [ "$(answer 4)" = "$first" ] &&
    answer 5 | grep -q '^ERROR '
report "TAKEBACK of the last stone: OK (the board is empty again); of an empty cell: ERROR" $?

# After a BOARD the stones' order is free: a stone of the side that moved
# last may be taken back even if it was not given last. INFO timeout_turn 0
# (as fast as possible) gives a fixed node budget, so the same move twice.
board='INFO timeout_turn 0\r\nSTART 15\r\nBOARD\r\n7,7,2\r\n8,8,1\r\n0,0,2\r\nDONE\r\n'
session "$board"
mine=$(answer 2)
session "${board}TAKEBACK 7,7\r\nTAKEBACK $mine\r\nTAKEBACK 7,7\r\nTURN 7,7\r\nEND\r\n"
reply=$(answer 6)
is_move "$mine" 15 && answer 3 | grep -q '^ERROR ' && [ "$(answer 4)" = OK ] &&
    [ "$(answer 5)" = OK ] && is_move "$reply" 15 &&
    [ "$reply" != 7,7 ] && [ "$reply" != 8,8 ] && [ "$reply" != 0,0 ]
report "TAKEBACK after BOARD: a stone of the side that moved last, in any order; not the other side's" $?

# --- INFO ------------------------------------------------------------------

# INFO has no answer, but rules the brain does not play get a MESSAGE and
# malformed values an ERROR; unknown keys are ignored.
session 'INFO timeout_turn 1000\r\nINFO max_memory 83886080\r\nINFO game_type 1\r\nINFO folder /tmp\r\nINFO rule 0\r\nINFO some_new_key 7\r\nINFO rule 4\r\nINFO timeout_turn soon\r\nINFO\r\nSTART 15\r\nEND\r\n'
answer 1 | grep -q '^MESSAGE ' && answer 2 | grep -q '^ERROR ' &&
    answer 3 | grep -q '^ERROR ' && [ "$(answer 4)" = OK ] &&
    [ "$(wc -l <"$out")" -eq 4 ]
report "INFO: silent for known and unknown keys, MESSAGE for renju, ERROR for bad values" $?

# Each answer within INFO timeout_turn on a 20x20 board (1 s: less than
# the brain spends by default, so the INFO must take effect): the brain gets
# one command at a time through a pipe, and each answer is timed. The
# opponent takes the first empty cell of the top row.
if date +%s%N | grep -q '^[0-9]*$'; then
    mkfifo "$tmp/to" "$tmp/from"
    timeout 120 "$TTT" brain <"$tmp/to" >"$tmp/from" 2>"$err" &
    brain_pid=$!
    exec 3>"$tmp/to" 4<"$tmp/from"
    limit=1000
    printf 'INFO timeout_turn %d\r\nSTART 20\r\n' "$limit" >&3
    read -r line <&4
    taken=" "
    slowest=0
    timing_ok=1
    : >"$out"
    i=0
    while [ "$i" -lt 8 ] && [ "$timing_ok" -eq 1 ]; do
        x=0
        while case $taken in *" $x,0 "*) true ;; *) false ;; esac; do
            x=$((x + 1))
        done
        taken="$taken$x,0 "
        t0=$(date +%s%N)
        printf 'TURN %d,0\r\n' "$x" >&3
        if ! IFS= read -r line <&4; then
            timing_ok=0
            break
        fi
        t1=$(date +%s%N)
        line=$(printf '%s' "$line" | tr -d '\r')
        echo "TURN $x,0 -> $line in $(((t1 - t0) / 1000000)) ms" >>"$out"
        ms=$(((t1 - t0) / 1000000))
        [ "$ms" -gt "$slowest" ] && slowest=$ms
        # Wall time on a machine that may be busy (CI runs two lines of
        # stages side by side): the check is for a brain that ignores the
        # limit, so an answer may take up to twice it.
        [ "$ms" -le $((2 * limit)) ] || timing_ok=0
        case $line in
        ERROR*over*) break ;; # the brain has won: no more turns
        esac
        is_move "$line" 20 || timing_ok=0
        case $taken in *" $line "*) timing_ok=0 ;; esac
        taken="$taken$line "
        i=$((i + 1))
    done
    printf 'END\r\n' >&3
    exec 3>&- 4<&-
    wait "$brain_pid"
    [ $? -eq 0 ] && [ "$timing_ok" -eq 1 ] && [ "$i" -ge 4 ]
    status=$?
    sed 's/^/# /' "$out"
    [ "$status" -eq 0 ]
    report "INFO timeout_turn $limit: every answer on 20x20 within twice it, wall time (slowest $slowest ms)" $?
else
    echo "not ok - date +%s%N is not available: the answers cannot be timed"
    failed=$((failed + 1))
fi

# --- malformed input -------------------------------------------------------

long=$(head -c 100000 /dev/zero | tr '\0' 'A')
session "START 15\r\n\r\n\r\nFOO bar\r\nTURN\r\nTURN 15,1\r\nTURN -1,3\r\nTURN a,b\r\nTURN 1\r\nTURN 1,2,3\r\nTURN 7,7\r\nTURN 7,7\r\nSTART 0\r\nSTART 5000\r\nSTART x\r\n$long\r\nST\000ART 15\r\n\n\r\rABOUT\r\nEND\r\n"
expected='OK
UNKNOWN
ERROR
ERROR
ERROR
ERROR
ERROR
ERROR
move
ERROR
ERROR
ERROR
ERROR
ERROR
ERROR
name'
printf '%s\n' "$expected" >"$tmp/expected"
[ "$status" -eq 0 ] && awk '
    NR == FNR { want[FNR] = $0; n = FNR; next }
    {
        split($0, word, /[ =]/)
        got = word[1] ~ /^[0-9]+,[0-9]+$/ ? "move" : word[1]
        if (got != want[FNR]) exit 1
        m = FNR
    }
    END { exit m != n }' "$tmp/expected" "$out"
report "garbage, bad and occupied TURNs, START 0/5000/x, a 100 kB line, a NUL byte, empty lines: UNKNOWN or ERROR, and the brain goes on" $?

session 'BEGIN\r\nTURN 1,1\r\nBOARD\r\nTAKEBACK 1,1\r\nRESTART\r\nEND\r\n'
[ "$status" -eq 0 ] && [ "$(grep -c '^ERROR ' "$out")" -eq 5 ]
report "commands before START answer ERROR" $?

# Input that ends inside BOARD (no DONE): the manager hears why nothing
# was played before the brain exits.
session 'START 15\r\nBOARD\r\n7,7,1\r\n'
[ "$status" -eq 0 ] && [ "$(answer 1)" = OK ] &&
    [ "$(answer 2)" = "ERROR BOARD ended without DONE" ] &&
    [ "$(wc -l <"$out")" -eq 2 ]
report "input ending inside BOARD answers ERROR before the brain exits" $?

finish
