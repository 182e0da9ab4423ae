#!/usr/bin/env bash
# tests/ci/handbuild.sh - compiles src/*.c by hand as a vendoring project would (no meson, no defines) and runs the threads test under ThreadSanitizer.
# Usage: tests/ci/handbuild.sh [WORK_DIR]
# Done with and without __STDC_NO_THREADS__ (as where <threads.h> is
# missing): the per-game lock must be there either way. A build with
# -DTTT_THREADS=0 must then show TSan's race report, which proves the test
# would see a missing lock.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(realpath -m "${1:-build-handbuild}")
cc=${CC:-cc}
rm -rf "$work"
mkdir -p "$work"
cd "$root"
passed=0
failed=0
. "$root/tests/ci/tsan_probe.sh" "$cc" "$work/probe"

# build NAME CFLAGS...: objects of every source file, then the threads test.
build() {
  local name=$1
  shift
  mkdir -p "$work/$name"
  # The vendoring command itself, with warnings as errors.
  (cd "$work/$name" && "$cc" -std=c11 -Wall -Wextra -Wpedantic -Werror "$@" \
    -I"$root/include" -c "$root"/src/*.c)
  (cd "$work/$name" && "$cc" -std=c11 -fsanitize=thread -g -O1 "$@" \
    -I"$root/include" -c "$root"/src/*.c)
  "$cc" -std=c11 -fsanitize=thread -g -O1 -I"$root/include" \
    "$root/tests/test_threads.c" "$work/$name"/*.o -o "$work/$name/test_threads" \
    -lcmocka -pthread
}

# run NAME EXPECT(pass|race)
run() {
  local got
  if TSAN_OPTIONS=halt_on_error=1:exitcode=66 CMOCKA_MESSAGE_OUTPUT=TAP \
       ${tsan_run[@]+"${tsan_run[@]}"} "$work/$1/test_threads" >"$work/$1/run.log" 2>&1; then
    got=pass
  elif grep -q "WARNING: ThreadSanitizer: data race" "$work/$1/run.log"; then
    got=race
  else
    got=error
  fi
  if [ "$got" = "$2" ]; then
    echo "ok - $1: threads test under TSan: $got"
    passed=$((passed + 1))
  else
    tail -n 40 "$work/$1/run.log"
    echo "not ok - $1: threads test under TSan: $got, wanted $2"
    failed=$((failed + 1))
  fi
}

build default
# The default hand build waits on the lock through sched_yield (POSIX), not
# C11 threads.
if nm -u "$work/default/game.o" | grep -q ' sched_yield$'; then
  echo "ok - default: the lock yields through sched_yield"
  passed=$((passed + 1))
else
  echo "not ok - default: no sched_yield call: is the lock compiled in?"
  failed=$((failed + 1))
fi
run default pass

build no-c11-threads -D__STDC_NO_THREADS__
run no-c11-threads pass

build no-lock -DTTT_THREADS=0
run no-lock race

echo "hand build: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
