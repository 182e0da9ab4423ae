# check_lib.sh - what cli_test.sh and brain_test.sh share: the argument check, a scratch folder, and the "ok"/"not ok" counts (sourced, never run).
#
# After sourcing: TTT is the program under test, $out and $err are scratch
# files for its output, report NAME STATUS counts one check, and finish
# prints "N passed, M failed" and returns non-zero if anything failed.

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

finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
