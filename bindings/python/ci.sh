#!/usr/bin/env bash
# bindings/python/ci.sh - builds the Python package as a user would (pip, a fresh venv), checks what it installs, runs its pytest suite and the benchmark.
# Usage: [C_BENCH=build/tests/bench/ttt-bench] bindings/python/ci.sh [--no-bench] [WORK_DIR]
#   (WORK_DIR: default a temporary one, removed after; C_BENCH relative to the source root)
# Needs Debian's python3-venv, python3-pip, python3-mesonpy and python3-pytest; offline.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

bench=1
if [ "${1:-}" = "--no-bench" ]; then bench=0; shift; fi
if [ -n "${1:-}" ]; then
  work=$1
  rm -rf "$work"
  mkdir -p "$work"
  work=$(cd "$work" && pwd)
else
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi

# The interpreter Debian's python3-mesonpy and python3-pytest belong to: the
# first python3 on PATH if it has them, else /usr/bin/python3.
python=${PYTHON:-python3}
if ! "$python" -c 'import mesonpy, pytest' 2>/dev/null; then
  if /usr/bin/python3 -c 'import mesonpy, pytest' 2>/dev/null; then
    python=/usr/bin/python3
  else
    echo "ci.sh: no python3 with mesonpy and pytest (apt-get install python3-mesonpy python3-pytest python3-venv python3-pip)" >&2
    exit 1
  fi
fi

# The tests and the benchmark must see only the installed package.
unset LIBTTT_PATH PYTHONPATH
export PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

echo "== python: a wheel, then installed into a fresh venv ($python)"
"$python" -m venv --system-site-packages "$work/venv"
venv_python="$work/venv/bin/python"
find "$work/venv" | sort >"$work/before.txt"
"$venv_python" -m pip wheel --no-build-isolation --no-deps --no-index \
  --wheel-dir "$work/dist" "$root" >"$work/wheel.log" 2>&1 ||
  { cat "$work/wheel.log"; exit 1; }
wheel=$(ls "$work"/dist/ttt-*.whl)
"$venv_python" -m pip install --no-index --no-deps "$wheel" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; exit 1; }

# The wheel holds the package with libttt inside and nothing else; the venv
# gained only the package and its metadata (no header, static library,
# pkg-config file or program beside them).
"$venv_python" - "$wheel" <<'PY'
import sys, zipfile
names = zipfile.ZipFile(sys.argv[1]).namelist()
want = {"ttt/__init__.py", "ttt/__main__.py", "ttt/env.py", "ttt/py.typed", "ttt/libttt.so", "ttt/ttt-cli"}
package = {n for n in names if not n.startswith("ttt-1.4.0.dist-info/")}
if package != want:
    sys.exit("wheel contents: %s, expected %s" % (sorted(package), sorted(want)))
print("wheel:", sys.argv[1].rsplit("/", 1)[-1], "holds", ", ".join(sorted(package)))
PY
find "$work/venv" | sort >"$work/after.txt"
site=$("$venv_python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
unexpected=$(comm -13 "$work/before.txt" "$work/after.txt" |
  grep -v -e "^$site/ttt\$" -e "^$site/ttt/" -e "^$site/ttt-1.4.0.dist-info" || true)
if [ -n "$unexpected" ]; then
  echo "installing the package changed more than the package:"
  echo "$unexpected"
  exit 1
fi

echo "== python: pytest against the installed package, from outside the source tree"
cp -r "$root/bindings/python/tests" "$work/tests"
cd "$work"
# pytest exits 5 when it collects no tests: set -e counts it as a failure,
# as any other non-zero status. conftest.py fails every skip.
"$venv_python" -m pytest -p no:cacheprovider -q "$work/tests"

if [ "$bench" = 1 ]; then
  echo "== python: benchmark (figures for README)"
  # C_BENCH: a ttt-bench program, for the C library's own games/s.
  "$venv_python" "$root/tests/bench/bench_python.py" \
    ${C_BENCH:+--c-bench "$(cd "$root" && realpath "$C_BENCH")"}
fi
