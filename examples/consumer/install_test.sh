#!/bin/sh
# install_test.sh - checks that `meson install` installs a ttt program that runs (on a static and on a shared libttt) from libttt's own build, and none from a project vendoring libttt.
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

# A shared libttt (-Ddefault_library=shared; `both` links ttt the same
# way): the ttt installed under a DESTDIR runs as it is, with no
# LD_LIBRARY_PATH, finding the libttt.so.1 installed with it. Only what
# `meson install --tags runtime` needs is built (unoptimised, to be quick).
"$meson" setup -Ddefault_library=shared -Dtests=disabled -Dserver=disabled \
  --buildtype=debug "$tmp/shared-build" "$root" >"$tmp/shared-setup.log" 2>&1 ||
  { cat "$tmp/shared-setup.log"; exit 1; }
# The setup's summary says what it enabled, and what it left out.
for line in 'library *: shared' 'unit tests (cmocka) *: NO' 'ttt-server [^:]*: NO'; do
  grep -q "$line" "$tmp/shared-setup.log" ||
    { echo "meson setup's summary lacks \"$line\":"; cat "$tmp/shared-setup.log"; exit 1; }
done
"$meson" compile -C "$tmp/shared-build" examples/ttt:executable >"$tmp/shared-build.log" 2>&1 ||
  { cat "$tmp/shared-build.log"; exit 1; }
"$meson" install -C "$tmp/shared-build" --no-rebuild --tags runtime \
  --destdir "$tmp/shared" >"$tmp/shared-install.log" 2>&1 ||
  { cat "$tmp/shared-install.log"; exit 1; }
ttt=$(find "$tmp/shared" -path '*/bin/ttt' -type f)
[ -n "$ttt" ] || { echo "shared: no bin/ttt installed"; find "$tmp/shared"; exit 1; }
find "$tmp/shared" -name 'libttt.so.1' | grep -q . ||
  { echo "shared: no libttt.so.1 installed"; find "$tmp/shared"; exit 1; }
if ! out=$(env -u LD_LIBRARY_PATH "$ttt" --version 2>&1); then
  echo "the ttt installed with a shared libttt does not run:"
  echo "$out"
  exit 1
fi
echo "installed with a shared libttt: ${ttt#"$tmp/shared"} runs ($out)"

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
