#!/bin/sh
# suites_required.sh - checks that a copy of the tree missing a test suite's file fails to configure, naming the file.
# Usage: suites_required.sh SOURCE_ROOT [MESON]   (run by `meson test`; MESON defaults to meson)
set -eu

root=$(cd "$1" && pwd)
meson=${2:-meson}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# A copy of the sources only: no build directories, no version control.
# (Cargo's and meson-python's build output under bindings/ stays behind.)
mkdir "$tmp/src"
for item in meson.build meson_options.txt pyproject.toml include src tests examples subprojects bindings docs; do
  [ -e "$root/$item" ] || continue
  (cd "$root" && tar -cf - --exclude=target "$item") | (cd "$tmp/src" && tar -xf -)
done

failed=0

# setup NAME: configures the copy, leaving the output in $tmp/NAME.log and
# returning meson's status.
setup() {
  rm -rf "$tmp/build"
  "$meson" setup --wrap-mode=nodownload "$tmp/build" "$tmp/src" >"$tmp/$1.log" 2>&1
}

# The intact copy configures, so a failure below is the missing file's doing.
if setup intact; then
  echo "ok - the intact copy configures"
else
  echo "not ok - the intact copy does not configure:"
  sed 's/^/#   /' "$tmp/intact.log"
  exit 1
fi

# without FILE: the copy without tests/FILE must fail, naming FILE.
without() {
  mv "$tmp/src/tests/$1" "$tmp/src/tests/$1.away"
  if setup "$1"; then
    echo "not ok - without tests/$1 the setup succeeds"
    failed=1
  elif grep -q "$1" "$tmp/$1.log"; then
    echo "ok - without tests/$1 the setup fails and names it"
  else
    echo "not ok - without tests/$1 the setup fails without naming it:"
    sed 's/^/#   /' "$tmp/$1.log"
    failed=1
  fi
  mv "$tmp/src/tests/$1.away" "$tmp/src/tests/$1"
}

without test_rules.c
without test_threads.c
without cli_test.sh
exit $failed
