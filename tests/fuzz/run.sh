#!/usr/bin/env bash
# tests/fuzz/run.sh - builds the libFuzzer targets under ASan+UBSan and fuzzes each for a bounded time; any finding fails the run.
# Usage: tests/fuzz/run.sh BUILD_DIR SECONDS_PER_TARGET
set -euo pipefail

build=${1:?usage: run.sh BUILD_DIR SECONDS}
seconds=${2:?usage: run.sh BUILD_DIR SECONDS}
src=$(cd "$(dirname "$0")/../.." && pwd)

if [ ! -f "$build/build.ninja" ]; then
  CC=clang meson setup "$build" "$src" --werror -Dfuzz=true \
    -Db_sanitize=address,undefined -Db_lundef=false >/dev/null
fi
ninja -C "$build" tests/fuzz/fuzz_load tests/fuzz/fuzz_api

# halt_on_error: the first report ends the run, as libFuzzer expects.
export ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:detect_leaks=1
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

status=0
for target in load api; do
  exe="$build/tests/fuzz/fuzz_$target"
  # New inputs go to a scratch corpus; the committed seeds are only read.
  work="$build/fuzz-work/$target"
  artifacts="$build/fuzz-artifacts/$target/"
  mkdir -p "$work" "$artifacts"
  log="$build/fuzz-$target.log"
  if "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts" \
      "$work" "$src/tests/fuzz/corpus_$target" >"$log" 2>&1; then
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "fuzz_$target: ${execs:-?} executions in ${seconds}s, no findings"
  else
    echo "fuzz_$target: FINDING (log $log, reproducer in $artifacts)"
    grep -E -A30 'ERROR|runtime error|deadly signal|Test unit written' "$log" | head -60
    status=1
  fi
done
exit $status
