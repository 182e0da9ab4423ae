#!/usr/bin/env bash
# bindings/python/ci.sh - builds the Python package as a user would (pip, a fresh venv) from a read-only copy of the sources, checks what it installs, runs its pytest suite and the benchmark.
# Usage: [C_BENCH=build/tests/bench/ttt-bench] bindings/python/ci.sh [--no-bench] [WORK_DIR]
#   (WORK_DIR: default a temporary one, removed after; C_BENCH relative to the source root)
# Needs Debian's python3-venv, python3-pip, python3-mesonpy and python3-pytest; offline.
# Exit status 77 (meson's SKIP) when they are missing, but 1 under CI=true:
# CI installs them, so there a missing tool is a failure.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)

bench=1
if [ "${1:-}" = "--no-bench" ]; then bench=0; shift; fi
# The copy of the sources inside WORK_DIR is read-only: writable again
# before it is removed.
if [ -n "${1:-}" ]; then
  work=$1
  [ ! -d "$work" ] || chmod -R u+w "$work"
  rm -rf "$work"
  mkdir -p "$work"
  work=$(cd "$work" && pwd)
else
  work=$(mktemp -d)
  trap 'chmod -R u+w "$work"; rm -rf "$work"' EXIT
fi

# The interpreter Debian's python3-mesonpy and python3-pytest belong to:
# $PYTHON if set (and then only it), else the first python3 on PATH if it
# has them, else /usr/bin/python3. A venv with pip needs ensurepip's wheels
# (python3-venv) and pip (python3-pip).
needs='import mesonpy, pytest, venv, ensurepip, pip; ensurepip.version()'
python=${PYTHON:-python3}
if ! "$python" -c "$needs" >/dev/null 2>&1; then
  if [ -z "${PYTHON:-}" ] && [ -x /usr/bin/python3 ] &&
     /usr/bin/python3 -c "$needs" >/dev/null 2>&1; then
    python=/usr/bin/python3
  else
    echo "ci.sh: SKIP: no python3 with mesonpy, pytest, venv and pip (apt-get install python3-mesonpy python3-pytest python3-venv python3-pip)" >&2
    if [ "${CI:-}" = true ]; then exit 1; fi
    exit 77
  fi
fi

# The tests and the benchmark must see only the installed package.
unset LIBTTT_PATH PYTHONPATH
export PYTHONDONTWRITEBYTECODE=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1

# pip builds from a copy of the sources (the files git knows, committed or
# not; without git, what the .gitignore files leave, so no build directory)
# made read-only: the build must write nothing into it. Root ignores the
# write bits, so the copy's listing with every file's and directory's time
# is compared after the build too.
src="$work/src"
mkdir "$src"
if git -C "$root" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  (cd "$root" && git ls-files -z --cached --others --exclude-standard |
    xargs -0 cp -P --parents -t "$src" || true)  # (a deleted file: not copied)
else
  tar -C "$root" --exclude-vcs --exclude-vcs-ignores -cf - . | tar -C "$src" -xf -
fi
[ -f "$src/pyproject.toml" ] || { echo "ci.sh: copying the sources to $src failed"; exit 1; }
chmod -R a-w "$src"
snapshot() { find "$src" -printf '%p %y %s %T@\n' | sort; }
snapshot >"$work/src-before.txt"

echo "== python: a wheel from a read-only source tree, then installed into a fresh venv ($python)"
"$python" -m venv --system-site-packages "$work/venv"
venv_python="$work/venv/bin/python"
find "$work/venv" | sort >"$work/before.txt"
(cd "$src" && "$venv_python" -m pip wheel --no-build-isolation --no-deps --no-index \
  --wheel-dir "$work/dist" .) >"$work/wheel.log" 2>&1 ||
  { cat "$work/wheel.log"; exit 1; }
snapshot >"$work/src-after.txt"
if ! diff "$work/src-before.txt" "$work/src-after.txt"; then
  echo "building the wheel wrote into the source tree (above: before <, after >)"
  exit 1
fi
wheel=$(ls "$work"/dist/ttt-*.whl)
"$venv_python" -m pip install --no-index --no-deps "$wheel" >"$work/install.log" 2>&1 ||
  { cat "$work/install.log"; exit 1; }

# The wheel holds the package with libttt inside and nothing else, and
# declares the `ttt` console script; the venv gained only the package, its
# metadata and that script (no header, static library, pkg-config file or
# program beside them).
"$venv_python" - "$wheel" <<'PY'
import sys, zipfile
wheel = zipfile.ZipFile(sys.argv[1])
names = wheel.namelist()
want = {"ttt/__init__.py", "ttt/__main__.py", "ttt/_errors.py", "ttt/_game.py",
        "ttt/_library.py", "ttt/_notation.py", "ttt/_spaces.py", "ttt/_types.py",
        "ttt/env.py", "ttt/vector.py", "ttt/py.typed", "ttt/libttt.so", "ttt/ttt-cli"}
package = {n for n in names if not n.startswith("ttt-1.5.0.dist-info/")}
if package != want:
    sys.exit("wheel contents: %s, expected %s" % (sorted(package), sorted(want)))
entry_points = wheel.read("ttt-1.5.0.dist-info/entry_points.txt").decode().split()
if entry_points != ["[console_scripts]", "ttt", "=", "ttt.__main__:main"]:
    sys.exit("wheel entry points: %s, expected the ttt console script" % entry_points)
print("wheel:", sys.argv[1].rsplit("/", 1)[-1], "holds", ", ".join(sorted(package)),
      "and the console script ttt")
PY
find "$work/venv" | sort >"$work/after.txt"
site=$("$venv_python" -c 'import sysconfig; print(sysconfig.get_paths()["platlib"])')
unexpected=$(comm -13 "$work/before.txt" "$work/after.txt" |
  grep -v -e "^$site/ttt\$" -e "^$site/ttt/" -e "^$site/ttt-1.5.0.dist-info" \
    -e "^$work/venv/bin/ttt\$" || true)
if [ -n "$unexpected" ]; then
  echo "installing the package changed more than the package:"
  echo "$unexpected"
  exit 1
fi

# The console script runs the bundled program: `ttt --help` from the venv.
help=$("$work/venv/bin/ttt" --help) || { echo "ttt --help from the venv failed"; exit 1; }
case $help in
  *"ttt play"*) echo "venv: bin/ttt --help runs the ttt program" ;;
  *) echo "ttt --help from the venv printed: $help"; exit 1 ;;
esac

echo "== python: pytest against the installed package, from outside the source tree"
cp -r "$root/bindings/python/tests" "$work/tests"
cd "$work"
# For the tests of this script itself.
export TTT_CI_SCRIPT="$root/bindings/python/ci.sh"
# pytest exits 5 when it collects no tests: set -e counts it as a failure,
# as any other non-zero status. conftest.py fails every skip.
"$venv_python" -m pytest -p no:cacheprovider -q "$work/tests"

if [ "$bench" = 1 ]; then
  echo "== python: benchmark (figures for docs/performance.md)"
  # C_BENCH: a ttt-bench program, for the C library's own games/s.
  "$venv_python" "$root/tests/bench/bench_python.py" \
    ${C_BENCH:+--c-bench "$(cd "$root" && realpath "$C_BENCH")"}
fi
