#!/usr/bin/env bash
# tests/ci/cross.sh - cross-builds libttt for one target (tests/cross/TARGET.ini) and runs its whole cmocka suite under qemu-user or wine.
# Usage: tests/ci/cross.sh TARGET [BUILD_DIR]
#   TARGET: i686-linux-gnu, s390x-linux-gnu, aarch64-linux-gnu or x86_64-w64-mingw32
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
target=$1
build=${2:-build-$target}
cross="$root/tests/cross/$target.ini"
[ -f "$cross" ] || { echo "no cross file $cross"; exit 1; }
start=$(date +%s)

setup_args=(--cross-file "$cross" --werror -Dtests=enabled)
if [ "$target" = x86_64-w64-mingw32 ]; then
  # Debian has no Windows cmocka: build it from Debian's source package.
  prefix=$("$root/tests/ci/cmocka-mingw.sh" "$(dirname "$(realpath -m "$build")")/cmocka-mingw")
  setup_args+=(-Dpkg_config_path="$prefix/lib/pkgconfig" -Ddefault_library=shared)
  export WINEDEBUG=-all WINEPREFIX="$(realpath -m "$build")-wineprefix"
fi

rm -rf "$build"
meson setup "$build" "$root" "${setup_args[@]}" >"$build.setup.log" 2>&1 ||
  { cat "$build.setup.log"; exit 1; }
ninja -C "$build" >"$build.ninja.log" 2>&1 || { cat "$build.ninja.log"; exit 1; }

# Every test but those that drive host tools against target binaries: the
# FFI demos (host python and cargo), the CLI script (host sh running the
# target program) and the export check (host nm; the DLL's exports are
# checked below instead).
tests=$(meson test -C "$build" --list 2>/dev/null |
  sed -n 's/^libttt[^/]* \/ //p' |
  grep -vxE 'python|python-demo|rust|consumer|cli|symbols')
echo "$target: running $(echo $tests | wc -w) tests: $(echo $tests)"
# qemu and wine are 3-20x slower than the machine itself.
meson test -C "$build" --no-rebuild --print-errorlogs --timeout-multiplier 4 $tests

if [ "$target" = x86_64-w64-mingw32 ]; then
  "$root/tests/ci/dll_exports.sh" "$build/libttt-1.dll" "$root/src/libttt.map"
fi
echo "$target: done in $(( $(date +%s) - start )) s"
