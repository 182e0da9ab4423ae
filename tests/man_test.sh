#!/bin/sh
# man_test.sh - checks a program's manual page against its --help output and mandoc's linter, and that both are installed together.
# Usage: man_test.sh PROGRAM PAGE [INSTALLED_JSON [DOC]]   (run by `meson test`)
#   PROGRAM         the built program; `PROGRAM --help` prints its help
#   PAGE            its manual page source (mdoc or man), named NAME.SECTION
#   INSTALLED_JSON  meson-info/intro-installed.json of the build: then the
#                   page must be installed into man<SECTION> exactly when the
#                   program is installed
#   DOC             a markdown page (docs/cli.md) whose "## Synopsis"
#                   section must name every command and long option of the
#                   help, as the page's SYNOPSIS does
# Every option (-x, --xyz) in the help must appear in the rendered page and
# every command (the word after the program's name at the start of a usage
# line) in its SYNOPSIS; every long option the page names must appear in the
# help; `mandoc -T lint` must print nothing. Exits 77 (skipped) without
# mandoc, or 1 then under CI=true.
set -eu

prog=$1
page=$2
installed=${3:-}
doc=${4:-}
name=$(basename "$prog")
# Absolute, as meson records the program it installs.
prog_path=$(cd "$(dirname "$prog")" && pwd)/$name

# Without mandoc: SKIP with the reason, but a failure under CI=true, where
# every check must run.
if ! command -v mandoc >/dev/null 2>&1; then
  echo "SKIP: mandoc is not installed (Debian: apt-get install mandoc), so $page is not checked"
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 77
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
failed=0
pass() { echo "ok - $*"; }
fail() { echo "not ok - $*"; failed=1; }

# The linter, at its most demanding level. "referenced manual not found"
# and "outdated mandoc.db" (an earlier install of ours in a man tree whose
# index was not rebuilt) depend on the pages this machine has installed,
# not on this page.
mandoc -T lint -W style "$page" >"$tmp/lint" 2>&1 || true
grep -v -e 'referenced manual not found' -e 'outdated mandoc.db' "$tmp/lint" >"$tmp/lint.kept" || true
if [ -s "$tmp/lint.kept" ]; then
  fail "mandoc -T lint $page:"
  sed 's/^/#   /' "$tmp/lint.kept"
else
  pass "mandoc -T lint $page prints nothing"
fi

# The page as a reader sees it, without overstrike (bold is c BS c), on
# lines long enough that no option is split.
bs=$(printf '\b')
mandoc -T ascii -O width=200 "$page" | sed "s/.$bs//g" >"$tmp/page.txt"
[ -s "$tmp/page.txt" ] || { fail "mandoc renders $page as nothing"; exit 1; }

if ! "$prog" --help >"$tmp/help.txt" 2>&1; then
  fail "$name --help fails:"
  sed 's/^/#   /' "$tmp/help.txt"
  exit 1
fi

# Tokens are letters, digits and hyphens; a token counts where it stands
# whole, so --x is not found inside --x-name.
word() { grep -Eq "(^|[^A-Za-z0-9-])$1(\$|[^A-Za-z0-9-])" "$2"; }

grep -oE '(^|[][ (|,])--?[A-Za-z][A-Za-z0-9-]*' "$tmp/help.txt" |
  sed 's/^[^-]*//' | sort -u >"$tmp/options"
sed -nE "s/^(usage:)?[[:space:]]*${name}[[:space:]]+([a-z][a-z0-9-]*).*/\\2/p" \
  "$tmp/help.txt" | sort -u >"$tmp/commands"

if [ ! -s "$tmp/options" ] && [ ! -s "$tmp/commands" ]; then
  fail "$name --help names no option and no command"
fi
missing=0
while read -r option; do
  word "$option" "$tmp/page.txt" ||
    { fail "option $option of $name --help is not in $page"; missing=1; }
done <"$tmp/options"
# A command must be in the SYNOPSIS, not just mentioned somewhere.
sed -n '/^SYNOPSIS/,/^[A-Z]/p' "$tmp/page.txt" >"$tmp/synopsis.txt"
while read -r command; do
  word "$command" "$tmp/synopsis.txt" ||
    { fail "command $command of $name --help is not in the SYNOPSIS of $page"; missing=1; }
done <"$tmp/commands"
if [ $missing = 0 ]; then
  pass "the options of $name --help are in $page: $(tr '\n' ' ' <"$tmp/options")"
  pass "the commands of $name --help are in the SYNOPSIS of $page: $(tr '\n' ' ' <"$tmp/commands")"
fi

# The markdown page's synopsis: every command and long option of the help.
if [ -n "$doc" ]; then
  sed -n '/^## Synopsis/,/^## [^S]/p' "$doc" >"$tmp/doc-synopsis.txt"
  doc_missing=0
  while read -r option; do
    case $option in --*) ;; *) continue ;; esac
    word "$option" "$tmp/doc-synopsis.txt" ||
      { fail "option $option of $name --help is not in the synopsis of $doc"; doc_missing=1; }
  done <"$tmp/options"
  while read -r command; do
    word "$command" "$tmp/doc-synopsis.txt" ||
      { fail "command $command of $name --help is not in the synopsis of $doc"; doc_missing=1; }
  done <"$tmp/commands"
  [ $doc_missing = 1 ] ||
    pass "the commands and long options of $name --help are in the synopsis of $doc"
fi

# The other way: a long option only the page names is one the program
# does not know, or one its help forgot.
grep -oE '(^|[][ (|,`])--[A-Za-z][A-Za-z0-9-]*' "$tmp/page.txt" |
  sed 's/^[^-]*//' | sort -u >"$tmp/page-options"
unknown=0
while read -r option; do
  word "$option" "$tmp/help.txt" ||
    { fail "option $option of $page is not in $name --help"; unknown=1; }
done <"$tmp/page-options"
[ $unknown = 1 ] ||
  pass "the long options of $page are in $name --help: $(tr '\n' ' ' <"$tmp/page-options")"

# Installed together: meson's record maps each installed file to where it
# goes, one "source": "destination" pair per entry.
if [ -n "$installed" ]; then
  section=${page##*.}
  page_name=$(basename "$page")
  sed 's/^{//; s/}$//; s/", "/"\
"/g' "$installed" >"$tmp/installed"
  page_source=$(sed -n "s|^\"\\([^\"]*\\)\": \"[^\"]*/man$section/$page_name\"\$|\\1|p" "$tmp/installed")
  if grep -q "^\"$prog_path\": " "$tmp/installed"; then
    if [ -z "$page_source" ]; then
      fail "$name is installed, $page_name is not installed into man$section"
    elif ! cmp -s "$page_source" "$page"; then
      fail "the $page_name installed into man$section is $page_source, not $page"
    else
      pass "$page_name is installed into man$section with $name"
    fi
  elif [ -n "$page_source" ]; then
    fail "$page_name is installed into man$section without $name"
  else
    pass "neither $name nor $page_name is installed (install_cli disabled)"
  fi
fi

exit $failed
