#!/usr/bin/env bash
# tests/docs/ci.sh - runs the Python samples of README.md and docs/ against an installed ttt package and the Rust samples in a scratch crate (the CI stage beside meson's doc-samples test).
# Usage: tests/docs/ci.sh PYTHON   (PYTHON: an interpreter with the ttt package
#   installed, such as the venv bindings/python/ci.sh makes; needs cargo, offline)
# Exit status 77 (meson's SKIP) when a tool is missing, but 1 under CI=true.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
python=${1:?usage: tests/docs/ci.sh PYTHON}

echo "-- the Python and Rust samples"
python3 "$root/tests/docs/run_samples.py" --source-root "$root" --python "$python" --lang python,rust

# Its C and shell cases are meson's doc-samples-selftest.
echo "-- the runner fails on broken Python samples"
python3 "$root/tests/docs/selftest.py" "$root" --python "$python"
