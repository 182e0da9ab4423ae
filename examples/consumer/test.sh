#!/bin/sh
# test.sh - builds examples/consumer against this tree as its subproject and checks the result.
# Usage: test.sh SOURCE_ROOT [MESON]   (run by `meson test`; MESON defaults to meson)
set -eu

root=$(cd "$1" && pwd)
meson=${2:-meson}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# A copy of the consumer whose subprojects/libttt is a link to this tree.
cp "$root/examples/consumer/meson.build" "$root/examples/consumer/main.c" "$tmp/"
mkdir "$tmp/subprojects"
ln -s "$root" "$tmp/subprojects/libttt"

# Always the subproject, even where a libttt is installed.
"$meson" setup --force-fallback-for=libttt --wrap-mode=nodownload \
  "$tmp/build" "$tmp" >"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log"; exit 1; }
"$meson" compile -C "$tmp/build" >"$tmp/compile.log" 2>&1 || { cat "$tmp/compile.log"; exit 1; }

out=$("$tmp/build/consumer")
echo "$out"
expected='X X X
O O .
. . .
libttt 1.5.0, state 1, record ttt/1 n=3 k=3 rules=classic moves=a1,a2,b1,b2,c1'
[ "$out" = "$expected" ] || { echo "unexpected output; wanted:"; echo "$expected"; exit 1; }

# As a subproject libttt builds only the library: no tests, benchmarks or examples.
targets=$("$meson" introspect --targets "$tmp/build" | tr '{,' '\n\n' |
  sed -n 's/^ *"name": *"\([^"]*\)".*/\1/p' | sort | tr '\n' ' ')
echo "targets: $targets"
[ "$targets" = "consumer ttt " ] || { echo "unexpected targets"; exit 1; }

# libttt's own flags stay on its targets: nothing reaches the consumer's compile.
if grep '"file": *"[^"]*main\.c"' -B2 "$tmp/build/compile_commands.json" | grep -q TTT_THREADS; then
  echo "libttt arguments leaked into the consumer's compile command"
  exit 1
fi
# The parent's `meson install` ships nothing of a static libttt: no header,
# archive or pkg-config file claiming a system libttt (its program is not
# installed either, so the install is empty).
"$meson" install -C "$tmp/build" --destdir "$tmp/dest" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }
installed=$(cd "$tmp" && find dest -type f 2>/dev/null | sort)
[ -z "$installed" ] || { echo "the parent's install ships libttt files:"; echo "$installed"; exit 1; }
echo "ok"
