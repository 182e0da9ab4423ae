#!/usr/bin/env bash
# tests/ci/valgrind.sh - runs the test suite under valgrind memcheck; any memory error or leak fails the run.
# Usage: tests/ci/valgrind.sh [BUILD_DIR]   (a build without sanitizers)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(mkdir -p "${1:-build-valgrind}" && cd "${1:-build-valgrind}" && pwd)
[ -f "$build/build.ninja" ] || meson setup "$build" "$root" >/dev/null
ninja -C "$build" >/dev/null

# fair-sched keeps the per-game spin lock's waiters from starving the holder
# under valgrind's one-thread-at-a-time scheduler.
memcheck="valgrind --quiet --error-exitcode=99 --leak-check=full
 --errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect
 --fair-sched=yes"

# Memcheck runs code 20 to 50 times slower: the suites whose heavy checks
# dominate the time (proof, threat, search, search_rect, gravity, pairing,
# engine_bounds; tests/quick.h) check a fraction of their cases here (a
# quarter of the random positions, shallower perft walks, the largest
# board at half its side), and the random suite plays a quarter of its
# games (250 a board); the plain and sanitizer runs check them all.
export TTT_TEST_QUICK=1 TTT_RANDOM_GAMES=250

# Every test program but the CLI and brain scripts, the suites-required check
# and the server suite (shell scripts, whose shell is not ours to check) and the
# demos (Python and Rust interpreters, likewise).
tests=$(meson test -C "$build" --list --no-suite demos --no-suite fuzz --no-suite server 2>/dev/null |
  sed -n 's/^libttt \/ //p' | grep -vxE 'cli|brain|suites-required')
# shellcheck disable=SC2086 # test names are single words
meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 10 \
  --wrapper "$(echo $memcheck)" $tests

# The CLI script drives the ttt program through a wrapper that runs it under
# memcheck: an error turns its exit status into 99, which no check expects.
if [ -x "$build/examples/ttt" ]; then
  wrapped="$build/ttt-under-memcheck"
  printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$(echo $memcheck)" "$build/examples/ttt" >"$wrapped"
  chmod +x "$wrapped"
  sh "$root/tests/cli_test.sh" "$wrapped" | tail -n 1
fi
