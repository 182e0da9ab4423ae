#!/usr/bin/env bash
# tests/ci/dll_exports.sh - a Windows libttt DLL must export exactly the functions of the linker map, nothing more or less.
# Usage: tests/ci/dll_exports.sh LIBTTT_DLL LIBTTT_MAP
set -euo pipefail
dll=$1
map=$2
objdump=${OBJDUMP:-x86_64-w64-mingw32-objdump}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# The map's global names: every line "name;" outside comments and "local: *;".
sed 's|/\*.*\*/||' "$map" | sed -n 's/^[[:space:]]*\(ttt_[A-Za-z0-9_]*\);.*/\1/p' | sort >"$tmp/map"
# The DLL's export table, from its "[Ordinal/Name Pointer] Table" section.
"$objdump" -p "$dll" |
  sed -n '/\[Ordinal\/Name Pointer\] Table/,/^$/p' |
  sed -n 's/^[[:space:]]*\[[[:space:]]*[0-9]*\][[:space:]]*\([A-Za-z_][A-Za-z0-9_]*\)$/\1/p' | sort >"$tmp/dll"

if ! diff -u "$tmp/map" "$tmp/dll" >"$tmp/diff"; then
  echo "$dll exports differ from $map (- map only, + DLL only):"
  cat "$tmp/diff"
  echo "DLL exports: 0 passed, 1 failed"
  exit 1
fi
echo "$dll exports the $(wc -l <"$tmp/map") functions of the map and nothing else"
echo "DLL exports: 1 passed, 0 failed"
