#!/usr/bin/env bash
# tests/ci/cross.sh - cross-builds libttt for one target (tests/cross/TARGET.ini) and runs its whole cmocka suite under qemu-user or wine.
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
# of their positions; the native runs check them all.
case "$target" in s390x-*|aarch64-*) export TTT_TEST_QUICK=1 ;; esac
meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 4 $tests

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
