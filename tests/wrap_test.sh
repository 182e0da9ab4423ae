#!/bin/sh
# wrap_test.sh - checks that a default meson setup takes its dependencies from the system and reads no wrap of subprojects/, and that an asked-for fallback does reach the wrap.
# Usage: wrap_test.sh SOURCE_ROOT [MESON]   (run by `meson test`; MESON defaults to meson)
# On a copy of the sources: `meson setup` as it is and with
# --wrap-mode=nodownload must both succeed with no fallback looked for, no
# subproject configured, nothing added to subprojects/ and every dependency
# a wrap provides, where looked up, taken from the system. Then the control:
# --force-fallback-for=cmocka with a stand-in for the unpacked cmocka must
# configure cmocka as a subproject, so the checks above can see a fallback.
set -eu

root=$(cd "$1" && pwd)
meson=${2:-meson}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0
pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; failed=1; }

# A copy of the sources only: no build directories, no version control.
mkdir "$tmp/src"
for item in meson.build meson_options.txt pyproject.toml include src tests examples subprojects bindings docs; do
  [ -e "$root/$item" ] || continue
  (cd "$root" && tar -cf - --exclude=target "$item") | (cd "$tmp/src" && tar -xf -)
done
for wrap in "$tmp/src/subprojects"/*.wrap; do
  [ -f "$wrap" ] || { fail "subprojects/ holds no wrap file"; exit 1; }
done
ls -A "$tmp/src/subprojects" >"$tmp/subprojects.before"

# The dependency names the wraps provide: the keys of [provide] and its
# dependency_names list.
provided() {
  for wrap in "$tmp/src/subprojects"/*.wrap; do
    sed -n '/^\[provide\]/,/^\[/p' "$wrap" | sed -n 's/^\([A-Za-z0-9_.+-]*\)[[:space:]]*=[[:space:]]*\(.*\)$/\1 \2/p' |
      while read -r name value; do
        if [ "$name" = dependency_names ]; then
          echo "$value" | tr ',' '\n' | tr -d ' '
        else
          echo "$name"
        fi
      done
  done | sort -u
}
provided >"$tmp/provided"
[ -s "$tmp/provided" ] || { fail "the wraps provide no dependency"; exit 1; }

# setup NAME ARGS...: configures the copy into $tmp/NAME, meson's output in
# $tmp/NAME.out; returns meson's status.
setup() {
  name=$1
  shift
  "$meson" setup "$@" "$tmp/$name" "$tmp/src" >"$tmp/$name.out" 2>&1
}

# no_wrap_read NAME: the checks on a setup that must not have used a wrap.
no_wrap_read() {
  log="$tmp/$1/meson-logs/meson-log.txt"
  if grep -n -e 'Looking for a fallback subproject' -e 'Downloading' -e 'Executing subproject' "$log" >"$tmp/$1.fallback"; then
    fail "$1: the setup looked for a fallback subproject:"
    sed 's/^/#   /' "$tmp/$1.fallback"
  else
    pass "$1: no fallback looked for, nothing downloaded, no subproject run"
  fi
  "$meson" introspect --projectinfo "$tmp/$1" >"$tmp/$1.projectinfo"
  if grep -q '"subprojects": \[\]' "$tmp/$1.projectinfo"; then
    pass "$1: no subproject configured"
  else
    fail "$1: subprojects configured: $(cat "$tmp/$1.projectinfo")"
  fi
  ls -A "$tmp/src/subprojects" >"$tmp/subprojects.after"
  if cmp -s "$tmp/subprojects.before" "$tmp/subprojects.after"; then
    pass "$1: subprojects/ still holds only: $(tr '\n' ' ' <"$tmp/subprojects.before")"
  else
    fail "$1: subprojects/ changed:"
    diff "$tmp/subprojects.before" "$tmp/subprojects.after" | sed 's/^/#   /'
  fi
  while read -r dep; do
    lines=$(grep -E "^Run-time dependency $dep found: " "$log" || true)
    if [ -z "$lines" ]; then
      pass "$1: $dep is not looked up by this tree"
    elif echo "$lines" | grep -q 'found: YES'; then
      pass "$1: $dep from the system: $(echo "$lines" | grep 'found: YES' | head -n 1)"
    else
      # Not installed here: still no wrap may be read (checked above).
      pass "$1: $dep is not installed on this machine, and no wrap was read for it"
    fi
  done <"$tmp/provided"
}

if setup default; then
  no_wrap_read default
else
  fail "default: meson setup fails:"
  sed 's/^/#   /' "$tmp/default.out"
fi

if setup nodownload --wrap-mode=nodownload; then
  no_wrap_read nodownload
else
  fail "nodownload: meson setup --wrap-mode=nodownload fails:"
  sed 's/^/#   /' "$tmp/nodownload.out"
fi

# The control: asked for, the fallback reaches subprojects/cmocka.wrap. The
# stand-in in the wrap's directory (meson uses an unpacked directory as it
# is, with no download) provides cmocka_dep from the system's library.
if grep -q '^cmocka$' "$tmp/provided" && grep -q '^Run-time dependency cmocka found: YES' "$tmp/default/meson-logs/meson-log.txt"; then
  dir=$(sed -n 's/^directory[[:space:]]*=[[:space:]]*//p' "$tmp/src/subprojects/cmocka.wrap")
  mkdir "$tmp/src/subprojects/$dir"
  cat >"$tmp/src/subprojects/$dir/meson.build" <<'EOF'
project('cmocka', 'c')
cmocka_dep = declare_dependency(
  dependencies: meson.get_compiler('c').find_library('cmocka'))
EOF
  if setup forced --wrap-mode=nodownload --force-fallback-for=cmocka &&
     grep -q 'Looking for a fallback subproject for the dependency cmocka' "$tmp/forced/meson-logs/meson-log.txt" &&
     "$meson" introspect --projectinfo "$tmp/forced" | grep -q '"name": "cmocka"'; then
    pass "control: --force-fallback-for=cmocka configures cmocka from subprojects/cmocka.wrap's directory"
  else
    fail "control: --force-fallback-for=cmocka does not reach subprojects/cmocka.wrap:"
    sed 's/^/#   /' "$tmp/forced.out"
  fi
else
  pass "control skipped: no system cmocka to stand in for the wrap's"
fi

exit $failed
