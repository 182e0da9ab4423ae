#!/usr/bin/env bash
# tests/ci/cross.sh - cross-builds libttt for one target (tests/cross/TARGET.ini) and runs its whole cmocka suite under qemu-user or wine (i686: directly where the kernel can).
# Usage: tests/ci/cross.sh TARGET [WORK_DIR]   (WORK_DIR/build is meson's build directory)
#   TARGET: i686-linux-gnu, s390x-linux-gnu, aarch64-linux-gnu or x86_64-w64-mingw32
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=$1
work=$(realpath -m "${2:-build-$target}")
build=$work/build
cross="$root/tests/cross/$target.ini"
[ -f "$cross" ] || { echo "no cross file $cross"; exit 1; }
start=$(date +%s)

rm -rf "$work"
mkdir -p "$work"
setup_args=(--cross-file "$cross" --werror -Dtests=enabled)
if [ "$target" = x86_64-w64-mingw32 ]; then
  # Debian has no Windows cmocka: build it from Debian's source package.
  prefix=$("$root/tests/ci/cmocka-mingw.sh" "$work/cmocka")
  setup_args+=(-Dpkg_config_path="$prefix/lib/pkgconfig" -Ddefault_library=shared)
  # A wine prefix of its own, made on first use.
  export WINEDEBUG=-all WINEPREFIX="$work/wineprefix"
fi

# How the target's programs run. meson runs them through the cross file's
# exe_wrapper when the target's CPU family differs from the build machine's,
# and directly when it does not (i686 on x86_64), trusting the kernel to run
# 32-bit x86 programs, which not every kernel can. A probe program decides:
# run directly where the kernel can (several times faster than qemu), under
# the wrapper where it cannot. TTT_CROSS_RUN=native or =wrapper chooses
# instead (=wrapper shows on any machine the way such a kernel goes).
wrapper=$(sed -n "s/^exe_wrapper *= *\['\([^']*\)'.*/\1/p" "$cross")
run_way=wrapper why="the target's CPU differs from the build machine's"
case "$target" in
  i686-*)
    printf 'int main(void) { return 0; }\n' >"$work/probe.c"
    "$target-gcc" "$work/probe.c" -o "$work/probe"
    if "$work/probe" 2>"$work/probe.log"; then
      run_way=native why="the kernel runs $target programs"
    else
      why="the kernel cannot run $target programs: $(tail -n 1 "$work/probe.log")"
    fi
    case "${TTT_CROSS_RUN:-}" in
      native) run_way=native why="TTT_CROSS_RUN=native" ;;
      wrapper) run_way=wrapper why="TTT_CROSS_RUN=wrapper" ;;
      "") ;;
      *) echo "TTT_CROSS_RUN is native or wrapper, not '$TTT_CROSS_RUN'"; exit 1 ;;
    esac
    [ "$run_way" = wrapper ] ||
      setup_args+=(--cross-file "$root/tests/cross/runs-natively.ini")
    ;;
esac
if [ "$run_way" = wrapper ] && [ -n "$wrapper" ] && ! command -v "$wrapper" >/dev/null; then
  echo "$target: the tests run under $wrapper ($why), which is missing: install Debian's qemu-user (or wine64 for Windows)"
  exit 1
fi
echo "$target: tests run $( [ "$run_way" = native ] && echo directly || echo "under $wrapper") ($why)"

meson setup "$build" "$root" "${setup_args[@]}" >"$work/setup.log" 2>&1 ||
  { cat "$work/setup.log"; exit 1; }
ninja -C "$build" >"$work/ninja.log" 2>&1 || { cat "$work/ninja.log"; exit 1; }

# Every test but those that drive host tools against target binaries: the
# FFI demos and the Python package (host python, pip and cargo build for the
# host), the CLI script and the install check (host sh running the target
# program) and the export check (host nm; the DLL's exports are checked
# below instead).
tests=$(meson test -C "$build" --list 2>/dev/null |
  sed -n 's/^libttt[^/]* \/ //p' |
  grep -vxE 'python|python-demo|python-package|rust|consumer|cli|brain|install-cli|symbols')
echo "$target: running $(echo $tests | wc -w) tests: $(echo $tests)"
# qemu and wine are 3-20x slower than the machine itself. Under qemu the
# suites with long random differential checks (proof, threat) check a quarter
# of their positions (i686 too, when it runs under qemu-i386); the native
# runs check them all.
case "$target" in s390x-*|aarch64-*) export TTT_TEST_QUICK=1 ;; esac
[ "$run_way" = wrapper ] && [ "$target" = i686-linux-gnu ] && export TTT_TEST_QUICK=1
meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 4 $tests

# Which way each test ran, from meson's own log: every command starts with
# the wrapper, or none does. A kernel without 32-bit x86 support is caught
# here on the wrapper's side, whatever machine runs this.
# (Tests that are host scripts, sh or python3, run as they are.)
python3 - "$build/meson-logs/testlog.json" "$build" "$target" "$run_way" "$wrapper" <<'PY'
import json, os, sys
log, build, target, way, wrapper = sys.argv[1:]
build = os.path.realpath(build)
def built(path):
    return os.path.realpath(path).startswith(build + os.sep)
wrapped = direct = 0
with open(log) as lines:
    for command in (json.loads(line)["command"] for line in lines if line.strip()):
        if wrapper and os.path.basename(command[0]) == os.path.basename(wrapper):
            wrapped += built(command[1])
        else:
            direct += built(command[0])
how = f"under {wrapper}" if way == "wrapper" and wrapper else "directly"
if (wrapped if how == "directly" else direct):
    sys.exit(f"{target}: {wrapped} target programs ran under {wrapper}, {direct} directly; all should run {how}")
print(f"{target}: {wrapped + direct} target programs ran {how}")
PY
if [ "$run_way" = native ] && [ -n "$wrapper" ]; then
  # Run directly, the suite never used the wrapper: one program under it
  # shows the wrapper's way still works, as a kernel without 32-bit support
  # would need.
  CMOCKA_MESSAGE_OUTPUT=TAP "$wrapper" "$build/tests/test_game" >"$work/wrapped-test_game.log" 2>&1 ||
    { cat "$work/wrapped-test_game.log"; echo "$target: test_game failed under $wrapper"; exit 1; }
  echo "$target: test_game under $wrapper: $(grep -c '^ok ' "$work/wrapped-test_game.log") passed"
fi

if [ "$target" = x86_64-w64-mingw32 ]; then
  "$root/tests/ci/dll_exports.sh" "$build/libttt-1.dll" "$root/src/libttt.map"
  # A program compiling the sources in by hand, as a static consumer does:
  # no define at all, and the lock yields through SwitchToThread.
  mkdir -p "$work/static"
  (cd "$work/static" && x86_64-w64-mingw32-gcc -std=c11 -Wall -Wextra -Wpedantic -Werror \
    -I"$root/include" -c "$root"/src/*.c "$root/examples/consumer/main.c")
  x86_64-w64-mingw32-nm "$work/static/game.o" | grep -q '__imp_SwitchToThread' ||
    { echo "the Windows lock does not call SwitchToThread"; exit 1; }
  x86_64-w64-mingw32-gcc -static "$work/static"/*.o -o "$work/static/consumer.exe"
  /usr/lib/wine/wine64 "$work/static/consumer.exe" | tr -d '\r' | tee "$work/static/out.txt"
  grep -q '^libttt 1\.[0-9]*\.[0-9]*, state 1,' "$work/static/out.txt" ||
    { echo "the static consumer did not win as X"; exit 1; }
  echo "static consumer: 1 passed, 0 failed"
fi
echo "$target: done in $(( $(date +%s) - start )) s"
