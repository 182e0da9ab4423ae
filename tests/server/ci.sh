#!/usr/bin/env bash
# tests/server/ci.sh - runs the server's API, docs, hostile-input, browser, crash, load and restart tests against a built ttt-server.
# Usage: tests/server/ci.sh PATH/TO/ttt-server [PYTHON]  (ttt-server-load beside it and
# the ttt program in the directory above are used too)
# Builds nothing; every server it starts listens on 127.0.0.1 on a free port
# with a temporary database and is stopped by pid.
set -euo pipefail
server=$(realpath "${1:?usage: ci.sh PATH/TO/ttt-server [PYTHON]}")
python=${2:-python3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export TTT_SERVER="$server" PYTHONDONTWRITEBYTECODE=1

tests=("$here/test_api.py" "$here/test_hostile.py" "$here/test_docs.py")
if [ -f "$here/test_browser.py" ] && "$python" -c 'import selenium' 2>/dev/null &&
   command -v chromedriver >/dev/null &&
   { command -v chromium >/dev/null || command -v chromium-browser >/dev/null; }; then
    tests+=("$here/test_browser.py")
else
    echo "ci.sh: no selenium, chromium or chromedriver: the browser test is not run" >&2
fi
cd "$work"
timeout 600 "$python" -m pytest -q -p no:cacheprovider --rootdir "$here" "${tests[@]}"
timeout 300 "$python" "$here/crash.py" --ci --dir "$work"
timeout 120 "$python" "$here/load.py" --ci --dir "$work"
load_c=$(dirname "$server")/ttt-server-load
if [ -x "$load_c" ]; then
    timeout 120 "$python" "$here/load.py" --ci --dir "$work" --c-client "$load_c"
fi
timeout 120 "$python" "$here/restart.py" --ci --dir "$work"
