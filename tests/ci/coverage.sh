#!/usr/bin/env bash
# tests/ci/coverage.sh - builds with coverage, runs the tests and enforces line >= 95% and branch >= 85% over src/.
# Usage: tests/ci/coverage.sh [BUILD_DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build-coverage}
# Unoptimised, so each line and branch in the report is one in the source.
[ -f "$build/build.ninja" ] ||
  meson setup "$build" "$root" --werror -Db_coverage=true -Dbuildtype=debug >/dev/null
find "$build" -name '*.gcda' -delete
# Instrumented and -O0, beside the other CI stages: the longest suites need
# more than their plain time limits. Which lines run does not depend on how
# many random positions the differential suites check, so they check a
# fraction (TTT_TEST_QUICK); the plain and sanitizer runs check them all.
TTT_TEST_QUICK=1 meson test -C "$build" --print-errorlogs --timeout-multiplier 4 --no-suite demos --no-suite fuzz --no-suite server
cd "$root"
gcovr --root . --filter 'src/' --print-summary \
  --fail-under-line 95 --fail-under-branch 85 "$build"
