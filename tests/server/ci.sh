#!/usr/bin/env bash
# tests/server/ci.sh - runs the server's API, docs, hostile-input, store, PostgreSQL-store, three-node cluster (the API suites on three nodes too), lobby, clock, crash, load, login-flood, restart and players tests, or (--browser) its browser test, against a built ttt-server.
# Usage: tests/server/ci.sh [--browser] PATH/TO/ttt-server [PYTHON]
# (ttt-server-load beside it and the ttt program in the directory above are
# used too). Builds nothing; every server it starts listens on 127.0.0.1 on a
# free port with a temporary database and is stopped by pid.
# Exit status 77 (meson's SKIP, with the reason) when python3 with pytest and
# httpx (and, for --browser, selenium, chromium and chromedriver) is missing,
# but 1 under CI=true: CI installs them, so there a missing tool is a failure.
set -euo pipefail
browser=0
if [ "${1:-}" = --browser ]; then browser=1; shift; fi
server=$(realpath "${1:?usage: ci.sh [--browser] PATH/TO/ttt-server [PYTHON]}")
here=$(cd "$(dirname "$0")" && pwd)

skip() {
    echo "ci.sh: SKIP: $*" >&2
    if [ "${CI:-}" = true ]; then
        echo "ci.sh: CI=true, so a missing tool fails the test" >&2
        exit 1
    fi
    exit 77
}

# The interpreter with the modules: PYTHON (the second argument) if given,
# else python3 on PATH, else /usr/bin/python3 (Debian's python3-pytest and
# python3-httpx belong to it).
needs='import pytest, httpx'
[ "$browser" = 1 ] && needs='import pytest, httpx, selenium'
if [ -n "${2:-}" ]; then candidates=("$2"); else candidates=(python3 /usr/bin/python3); fi
python=""
for candidate in "${candidates[@]}"; do
    if "$candidate" -c "$needs" >/dev/null 2>&1; then python=$candidate; break; fi
done
if [ -z "$python" ]; then
    if [ "$browser" = 1 ]; then
        skip "no python3 with pytest, httpx and selenium (apt-get install python3-pytest python3-httpx python3-selenium)"
    fi
    skip "no python3 with pytest and httpx (apt-get install python3-pytest python3-httpx)"
fi
if [ "$browser" = 1 ]; then
    command -v chromedriver >/dev/null ||
        skip "no chromedriver: the browser test is not run (apt-get install chromium-driver)"
    command -v chromium >/dev/null || command -v chromium-browser >/dev/null ||
        skip "no chromium: the browser test is not run (apt-get install chromium)"
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Each step runs in the background so that a SIGTERM (meson's time-out) or
# SIGINT here is handled at once: it goes on to the step's timeout, which
# passes it to the step's processes; they stop their servers and end, and
# so does this script.
step=""
stopped() {
    if [ -n "$step" ]; then
        kill -TERM "$step" 2>/dev/null || true
        wait "$step" || true
    fi
    echo "ci.sh: stopped by $1" >&2
    exit 1
}
trap 'stopped SIGTERM' TERM
trap 'stopped SIGINT' INT
run() {
    "$@" &
    step=$!
    wait "$step"
}
export TTT_SERVER="$server" PYTHONDONTWRITEBYTECODE=1
unset TTT_TEST_NODES  # one server, unless a step below asks for three
cd "$work"
# -rs: any test pytest skips is named in the log (and fails under CI=true,
# see conftest.py). --basetemp: each run's own temporary folders, never the
# shared /tmp/pytest-of-USER, whose old folders a pytest run beside this
# one may clean away.
if [ "$browser" = 1 ]; then
    run timeout 420 "$python" -m pytest -q -rs -p no:cacheprovider --rootdir "$here" \
        --basetemp "$work/pytest" "$here/test_browser.py"
    exit 0
fi
run timeout 1500 "$python" -m pytest -q -rs -p no:cacheprovider --rootdir "$here" \
    --basetemp "$work/pytest" "$here/test_api.py" "$here/test_hostile.py" "$here/test_strict.py" "$here/test_limits.py" \
    "$here/test_bots.py" "$here/test_docs.py" "$here/test_store.py" "$here/test_scripts.py" \
    "$here/test_accounts.py" "$here/test_rated.py" "$here/test_ratings.py" "$here/test_pgstore.py" \
    "$here/test_cluster.py" "$here/test_cluster_accounts.py" "$here/test_cluster_ratings.py" \
    "$here/test_lobby.py" "$here/test_clocks.py"
# The API, hostile-input, strict and docs tests again, on three nodes on one
# PostgreSQL behind haproxy balancing round-robin, so that one game's
# requests reach every node (TTT_TEST_NODES, see conftest.py). Without
# PostgreSQL or haproxy: SKIP, named, outside CI; a failure under CI=true.
# TTT_SERVER_NODES_RERUN=0 leaves this rerun out, as .ci/run's sanitizer
# stage does (its gcc stage runs it; the cluster tests above still run).
missing=$(cd "$here" && "$python" -c 'import cluster; print(cluster.missing() or "")')
if [ "${TTT_SERVER_NODES_RERUN:-1}" = 0 ]; then
    echo "ci.sh: the API tests on three nodes are left out (TTT_SERVER_NODES_RERUN=0)" >&2
elif [ -z "$missing" ]; then
    run env TTT_TEST_NODES=3 timeout 900 "$python" -m pytest -q -rs -p no:cacheprovider \
        --rootdir "$here" --basetemp "$work/pytest-nodes" "$here/test_api.py" \
        "$here/test_hostile.py" "$here/test_strict.py" "$here/test_docs.py"
elif [ "${CI:-}" = true ]; then
    echo "ci.sh: the API tests on three nodes cannot run: $missing; CI=true, so that fails" >&2
    exit 1
else
    echo "ci.sh: SKIP: the API tests on three nodes: $missing" >&2
fi
run timeout 300 "$python" "$here/crash.py" --ci --dir "$work"
# The same kills, of one node of three on PostgreSQL behind haproxy, and
# three stops of PostgreSQL among them (77: PostgreSQL or haproxy missing,
# outside CI).
run timeout 300 "$python" "$here/crash.py" --ci --nodes 3 --pg-stops 3 --dir "$work" || [ $? = 77 ]
run timeout 120 "$python" "$here/load.py" --ci --dir "$work"
load_c=$(dirname "$server")/ttt-server-load
if [ -x "$load_c" ]; then
    run timeout 120 "$python" "$here/load.py" --ci --dir "$work" --c-client "$load_c"
    # Moves with and without a flood of logins beside them (right and wrong
    # passwords): every login answered as documented, every move acknowledged.
    run timeout 120 "$python" "$here/logins.py" --ci --dir "$work" --c-client "$load_c"
fi
run timeout 120 "$python" "$here/restart.py" --ci --dir "$work"
run timeout 120 "$python" "$here/players.py" --ci --dir "$work"
