#!/usr/bin/env bash
# tests/ci/static.sh - cppcheck and clang-tidy over src/; fails on any finding not listed with its reason in analyzer-suppressions.txt.
# Usage: tests/ci/static.sh [BUILD_DIR]   (a meson build dir for compile_commands.json; set up if missing)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
build=${1:-build-static}
supp=tests/ci/analyzer-suppressions.txt
[ -f "$build/compile_commands.json" ] || meson setup "$build" >/dev/null

status=0
echo "-- cppcheck $(cppcheck --version | sed 's/Cppcheck //')"
# Both settings of the threads option: the lock code differs between them.
for threads in 1 0; do
  cppcheck --enable=warning,performance,portability --std=c11 --inline-suppr -q \
    --template='{file}:{line}:{column}: warning: {message} [{id}]' \
    -DTTT_THREADS=$threads -Iinclude -Isrc src/ 2>&1
done | python3 tests/ci/findings.py "$root" "$supp" || status=1

echo "-- clang-tidy $(clang-tidy --version | sed -n 's/.*LLVM version //p')"
# Checks and their justified exclusions are in .clang-tidy at the top.
ls src/*.c | xargs -P "$(nproc)" -n 1 clang-tidy -p "$build" --quiet 2>/dev/null |
  python3 tests/ci/findings.py "$root" "$supp" "$build" || status=1
exit $status
