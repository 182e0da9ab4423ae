#!/bin/sh
# check_abi.sh - compares a fresh shared build's ABI with the baseline of every released minor version (libttt-*.abi); only additions pass.
# usage: tests/abi/check_abi.sh BUILD_DIR [SOURCE_DIR]   (SOURCE_DIR defaults to this tree)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=$1
src=$(cd "${2:-$here/../..}" && pwd)
. "$here/abi_lib.sh"

lib=$(build_shared_library "$src" "$build")
dump_abi "$lib" "$build/current.abi"

passed=0
failed=0
for baseline in "$here"/libttt-*.abi; do
  name=$(basename "$baseline" .abi)
  # abidiff's status is a bit mask: 1/2 = an error, 4 = the ABI changed,
  # 8 = a change it knows is incompatible. libabigail counts a changed
  # parameter type or struct layout as 4 only, so its summary is read too:
  # any function or variable removed or changed fails; additions pass.
  set +e
  abidiff --suppressions "$here/private.suppr" "$baseline" "$build/current.abi" \
    >"$build/abidiff-$name.txt" 2>&1
  status=$?
  set -e
  if [ $((status & 11)) -ne 0 ] ||
     grep -Eq "summary: [1-9][0-9]* Removed|, [1-9][0-9]* Changed|[1-9][0-9]* Removed function symbol|[1-9][0-9]* Removed variable symbol" \
       "$build/abidiff-$name.txt"; then
    cat "$build/abidiff-$name.txt"
    echo "ABI check against $name: FAILED (abidiff status $status): a released function or type changed or went missing"
    failed=$((failed + 1))
  else
    added=$(grep -Eo "[0-9]+ Added functions?" "$build/abidiff-$name.txt" | head -n 1 || true)
    echo "ABI check against $name: ok${added:+ ($added)}"
    passed=$((passed + 1))
  fi
done
echo "ABI check: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
