#!/bin/sh
# check_abi.sh - compares a fresh shared build's ABI with the committed baseline (libttt.abi); --update rewrites it.
# usage: tests/abi/check_abi.sh BUILD_DIR [--update]
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
build=$1
baseline="$top/tests/abi/libttt.abi"

rm -rf "$build"
meson setup "$build" "$top" -Ddefault_library=shared -Dbuildtype=debug -Dtests=false >/dev/null
# Only the shared library: the ABI is its, whatever the programs do.
target=$(ninja -C "$build" -t targets all | sed -n 's/^\(libttt\.so\.[0-9.]*[0-9]\): .*LINKER.*/\1/p' | head -n 1)
ninja -C "$build" "$target" >"$build/ninja.log" || { cat "$build/ninja.log"; exit 1; }
lib="$build/$target"

if [ "${2:-}" = "--update" ]; then
  # No source locations or build paths: the baseline names no machine.
  abidw --headers-dir "$top/include" --no-corpus-path --no-show-locs \
    --no-comp-dir-path --out-file "$baseline" "$lib"
  echo "wrote $baseline"
  exit 0
fi

# abidiff's status is a bit mask: 1/2 = an error, 4 = the ABI changed,
# 8 = a change it knows is incompatible. libabigail counts a changed return
# or parameter type as 4 only, so read its summary too: any function or
# variable removed or changed fails; only additions pass.
set +e
abidiff --headers-dir2 "$top/include" "$baseline" "$lib" >"$build/abidiff.txt"
status=$?
set -e
cat "$build/abidiff.txt"
if [ $((status & 11)) -ne 0 ] ||
   grep -Eq "summary: [1-9][0-9]* Removed|, [1-9][0-9]* Changed" "$build/abidiff.txt"; then
  echo "ABI check: a released function or type changed (abidiff status $status)"
  echo "0 passed, 1 failed"
  exit 1
fi
if [ $((status & 4)) -ne 0 ]; then
  echo "ABI check: compatible additions since the baseline (run with --update when releasing)"
fi
echo "ABI check: 1 passed, 0 failed"
