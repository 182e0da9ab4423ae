#!/bin/sh
# selftest.sh - proves check_abi.sh catches ABI breaks: deliberately broken copies of the tree must fail it, a pure addition must pass.
# usage: tests/abi/selftest.sh [WORK_DIR]   (WORK_DIR defaults to a fresh temporary directory)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
work=${1:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT INT TERM
fi
mkdir -p "$work"

# copy_tree DIR: the tracked files of this tree, as they are in the work tree.
copy_tree() {
  rm -rf "$1"
  mkdir -p "$1"
  (cd "$top" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$1"
}

# edit FILE PYTHON_EXPR: rewrites FILE's text s with the expression; an edit
# that changes nothing means the tree moved on and the variant is stale.
edit() {
  python3 - "$1" "$2" <<'PY'
import re, sys
path, expr = sys.argv[1], sys.argv[2]
s = open(path, encoding="utf-8").read()
t = eval(expr, {"re": re, "s": s})
if t == s:
    sys.exit("selftest: the edit did not apply to " + path)
open(path, "w", encoding="utf-8").write(t)
PY
}

passed=0
failed=0
# variant NAME EXPECT(fail|pass): runs check_abi.sh on $work/NAME.
variant() {
  # A failure counts only when abidiff reported the break: a variant that
  # no longer builds proves nothing about the check.
  if "$here/check_abi.sh" "$work/$1-build" "$work/$1" >"$work/$1.log" 2>&1; then
    got=pass
  elif grep -q "FAILED (abidiff status" "$work/$1.log"; then
    got=fail
  else
    got=error
  fi
  if [ "$got" = "$2" ]; then
    echo "ok - $1: the ABI check says $got"
    passed=$((passed + 1))
  else
    cat "$work/$1.log"
    echo "not ok - $1: the ABI check says $got, wanted $2"
    failed=$((failed + 1))
  fi
}

# 1. A field inserted in the middle of a public struct moves the later ones.
copy_tree "$work/event-field"
edit "$work/event-field/include/ttt.h" \
  "re.sub(r'(typedef struct ttt_event \{\n[^}]*?\n)(\s*int32_t row;)', r'\1    int32_t flags;\n\2', s, count=1)"
variant event-field fail

# 1b. The same in ttt_solution, which ttt_solve fills in.
copy_tree "$work/solution-field"
edit "$work/solution-field/include/ttt.h" \
  "re.sub(r'(typedef struct ttt_solution \{\n[^}]*?int32_t value;[^\n]*\n)', r'\1    int32_t flags;\n', s, count=1)"
variant solution-field fail

# 1c. ttt_solution carries its size and grows only at its end: a field
# appended there is an addition.
copy_tree "$work/solution-append"
edit "$work/solution-append/include/ttt.h" \
  "re.sub(r'(typedef struct ttt_solution \{\n[^}]*?)(\} ttt_solution;)', r'\1    int32_t extra;\n\2', s, count=1)"
variant solution-append pass

# 1d. So do ttt_batch_config and ttt_batch_outputs (since 1.4): each grows
# at its end and passes, and a field inserted before their last one fails.
for struct in ttt_batch_config ttt_batch_outputs; do
  copy_tree "$work/$struct-append"
  edit "$work/$struct-append/include/ttt.h" \
    "re.sub(r'(typedef struct $struct \{\n[^}]*?)(\} $struct;)', r'\1    int32_t extra;\n\2', s, count=1)"
  variant "$struct-append" pass
done
copy_tree "$work/batch-config-field"
edit "$work/batch-config-field/include/ttt.h" \
  "re.sub(r'(typedef struct ttt_batch_config \{\n\s*size_t size;\n)', r'\1    int32_t extra;\n', s, count=1)"
variant batch-config-field fail

# 2. A parameter's type changes (int -> long) in header and definition alike.
copy_tree "$work/param-type"
edit "$work/param-type/include/ttt.h" "s.replace('ttt_strerror(int status)', 'ttt_strerror(long status)')"
# The source file that defines ttt_strerror, wherever it lives now.
def=$(cd "$work/param-type" && grep -l 'ttt_strerror(int status)' src/*.c | head -n 1)
[ -n "$def" ] || { echo "selftest: no definition of ttt_strerror(int status) in src/"; exit 1; }
edit "$work/param-type/$def" "s.replace('ttt_strerror(int status)', 'ttt_strerror(long status)')"
variant param-type fail

# 3. A 1.1 symbol dropped from the linker map is no longer exported. Its
# node goes too and 1.2 inherits from 1.0, so the map stays valid (a map
# the linker rejects would drop every version, a different break).
copy_tree "$work/map-removal"
edit "$work/map-removal/src/libttt.map" \
  "re.sub(r'LIBTTT_1\.1 \{\s*global:\s*ttt_random_playouts;\s*\} LIBTTT_1\.0;\s*', '', s).replace('} LIBTTT_1.1;', '} LIBTTT_1.0;')"
variant map-removal fail

# 4. A new function in a new version node is a compatible addition.
copy_tree "$work/addition"
edit "$work/addition/include/ttt.h" \
  "s.replace('#ifdef __cplusplus\n}', 'TTT_API int ttt_abi_probe(int value);\n\n#ifdef __cplusplus\n}', 1)"
cat >>"$work/addition/$def" <<'C'

int ttt_abi_probe(int value)
{
    return value;
}
C
printf '\nLIBTTT_9.9 {\n  global:\n    ttt_abi_probe;\n} LIBTTT_1.2;\n' >>"$work/addition/src/libttt.map"
variant addition pass

echo "ABI self-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
