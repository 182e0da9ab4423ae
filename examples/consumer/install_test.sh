#!/bin/sh
# install_test.sh - checks that `meson install` installs the ttt program from libttt's own build, and none from a project vendoring libttt.
# Usage: install_test.sh SOURCE_ROOT BUILD_ROOT [MESON]   (run by `meson test`)
set -eu

root=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
meson=${3:-meson}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# libttt's own build (already built by `meson test`): bindir holds ttt.
"$meson" install -C "$build" --no-rebuild --destdir "$tmp/own" >"$tmp/own.log" 2>&1 ||
  { cat "$tmp/own.log"; exit 1; }
ttt=$(find "$tmp/own" -path '*/bin/ttt' -type f)
[ -n "$ttt" ] || { echo "no bin/ttt installed"; find "$tmp/own" -type f; exit 1; }
"$ttt" --version >/dev/null || { echo "the installed ttt does not run"; exit 1; }
echo "installed: ${ttt#"$tmp/own"}"

# The consumer, with this tree as its subproject: no ttt anywhere.
cp "$root/examples/consumer/meson.build" "$root/examples/consumer/main.c" "$tmp/"
mkdir "$tmp/subprojects"
ln -s "$root" "$tmp/subprojects/libttt"
"$meson" setup --force-fallback-for=libttt --wrap-mode=nodownload \
  "$tmp/build" "$tmp" >"$tmp/setup.log" 2>&1 || { cat "$tmp/setup.log"; exit 1; }
"$meson" install -C "$tmp/build" --destdir "$tmp/vendored" >"$tmp/install.log" 2>&1 ||
  { cat "$tmp/install.log"; exit 1; }
if find "$tmp/vendored" -name 'ttt' | grep -q .; then
  echo "a project vendoring libttt installed a ttt program:"
  find "$tmp/vendored" -name 'ttt'
  exit 1
fi
echo "vendored: no ttt installed"
echo "ok"
