#!/usr/bin/env bash
# tests/ci/fuzz.sh - fuzzes every libFuzzer target for a bounded time (default 60 s each) under ASan+UBSan.
# Usage: tests/ci/fuzz.sh [BUILD_DIR] [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exec "$root/tests/fuzz/run.sh" "${1:-build-fuzz}" "${2:-60}"
