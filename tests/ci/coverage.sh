#!/usr/bin/env bash
# tests/ci/coverage.sh - builds with coverage, runs the tests and enforces line >= 95% and branch >= 85% over src/.
# Usage: tests/ci/coverage.sh [BUILD_DIR]
#        tests/ci/coverage.sh --report BUILD_DIR   (the thresholds only, over a
#        coverage build whose tests have run: CI's sanitizer build is one)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
report_only=0
if [ "${1:-}" = --report ]; then
  report_only=1
  shift
fi
build=$(mkdir -p "${1:-build-coverage}" && cd "${1:-build-coverage}" && pwd)
if [ "$report_only" = 0 ]; then
  # Unoptimised, so each line and branch in the report is one in the source.
  [ -f "$build/build.ninja" ] ||
    meson setup "$build" "$root" --werror -Db_coverage=true -Dbuildtype=debug >/dev/null
  find "$build" -name '*.gcda' -delete
  # Instrumented and -O0, beside the other CI stages: the longest suites need
  # more than their plain time limits.
  meson test -C "$build" --print-errorlogs --timeout-multiplier 4 --no-suite demos --no-suite fuzz --no-suite server
fi
cd "$root"
gcovr --root . --filter 'src/' --print-summary \
  --fail-under-line 95 --fail-under-branch 85 "$build"
