#!/usr/bin/env bash
# tests/ci/tsan.sh - runs the thread tests (plays and undos racing with reads, saves, clones, playouts and solves; listener order and removal) under ThreadSanitizer; any report fails the run.
# Usage: tests/ci/tsan.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-tsan}
[ -f "$build/build.ninja" ] ||
  meson setup "$build" "$root" --werror -Db_sanitize=thread -Db_lundef=false >/dev/null
ninja -C "$build" tests/test_threads >/dev/null
. "$root/tests/ci/tsan_probe.sh" "${CC:-cc}" "$build/tsan-probe"
# Several runs: each one sees different interleavings of the same threads.
TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1 \
  ${tsan_run[@]+"${tsan_run[@]}"} meson test -C "$build" --no-rebuild --print-errorlogs --repeat 3 threads
