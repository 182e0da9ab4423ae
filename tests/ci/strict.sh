#!/usr/bin/env bash
# tests/ci/strict.sh - libttt under a strict parent's warnings: src/*.c with -Wshadow -Wcast-qual -Wconversion -Werror, ttt.h with -Wpadded, and libttt as the subproject of a warning_level=everything --werror project.
# Usage: tests/ci/strict.sh [WORK_DIR]   (default build-strict; needs gcc and clang,
# adds i686-linux-gnu-gcc and the C++ compilers where installed)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
work=${1:-build-strict}
rm -rf "$work"
mkdir -p "$work"
work=$(cd "$work" && pwd)
echo '*' >"$work/.gitignore"   # scratch files, as in a meson build directory

compilers=(gcc clang)
for cc in "${compilers[@]}"; do
  command -v "$cc" >/dev/null || { echo "strict: $cc is not installed"; exit 1; }
done
# A 32-bit target, where size_t is narrower than uint64_t.
if command -v i686-linux-gnu-gcc >/dev/null; then
  compilers+=(i686-linux-gnu-gcc)
fi

# What a parent project may add to its c_args; -O2 so that gcc's
# flow-based warnings run too.
strict=(-std=c11 -O2 -Wall -Wextra -Wpedantic -Wshadow -Wcast-qual -Wconversion -Werror)
# The builds libttt itself makes: with and without the per-game lock, and the
# plain search the tests check the shortcuts against.
configs=("-DTTT_THREADS=1" "-DTTT_THREADS=0" "-DTTT_THREADS=1 -DTTT_NO_SHORTCUTS")

failed=0
checked=0
for cc in "${compilers[@]}"; do
  for config in "${configs[@]}"; do
    for source in src/*.c; do
      # shellcheck disable=SC2086 # config is a list of flags
      if ! "$cc" "${strict[@]}" $config -Iinclude -c -o /dev/null "$source"; then
        echo "strict: $source fails with $cc $config"
        failed=$((failed + 1))
      fi
      checked=$((checked + 1))
    done
  done
done
echo "strict: $checked compiles of src/*.c (${compilers[*]}; ${#configs[@]} configurations), $failed failed"

# The public header: every struct it declares is laid out (clang checks
# -Wpadded only for structs whose size is used), in C and in C++.
structs=$(sed -n 's/^typedef struct \([a-z_0-9]*\) {.*/\1/p' include/ttt.h)
[ -n "$structs" ] || { echo "strict: no struct found in include/ttt.h"; exit 1; }
{
  echo '/* A strict parent includes the public header. */'
  echo '#include "ttt.h"'
  echo 'extern const unsigned long ttt_struct_sizes[];'
  echo 'const unsigned long ttt_struct_sizes[] = {'
  for name in $structs; do echo "    sizeof($name),"; done
  echo '};'
} >"$work/header.c"
cp "$work/header.c" "$work/header.cpp"
header_compilers=("${compilers[@]}")
for cxx in g++ clang++; do
  command -v "$cxx" >/dev/null && header_compilers+=("$cxx")
done
for cc in "${header_compilers[@]}"; do
  case $cc in
    *++) source=$work/header.cpp std=-std=c++11 ;;
    *) source=$work/header.c std=-std=c11 ;;
  esac
  if ! "$cc" "$std" -Wall -Wextra -Wpedantic -Wpadded -Wshadow -Wcast-qual \
       -Wconversion -Werror -Iinclude -c -o /dev/null "$source"; then
    echo "strict: include/ttt.h fails -Wpadded with $cc"
    failed=$((failed + 1))
  fi
done
echo "strict: include/ttt.h with -Wpadded (${header_compilers[*]}): structs ${structs//$'\n'/ }"

# The case itself: a project that vendors libttt in subprojects/ and builds
# with gcc's warning_level=everything (-Wpadded among it), --werror and the
# flags above in c_args, which meson passes on to the subproject.
parent=$work/parent
mkdir -p "$parent/subprojects"
ln -s "$root" "$parent/subprojects/libttt"
cat >"$parent/meson.build" <<'EOF'
project('strict-parent', 'c', default_options: ['c_std=c11'])
# clang's -Weverything is a list of its own: its parent asks for -Wpadded
# alone, on its own code (project arguments stay out of subprojects).
if meson.get_compiler('c').get_id() == 'clang'
  add_project_arguments('-Wpadded', language: 'c')
endif
executable('parent', 'main.c', dependencies: dependency('libttt'))
EOF
cat >"$parent/main.c" <<'EOF'
/* main.c - a strict parent's program: one game, one solve. */
#include <stdio.h>
#include <ttt.h>

int main(void)
{
    ttt_game *game = NULL;
    ttt_solution solution = {sizeof solution, 0, 0, 0, 0, 0, 0, 0};
    int status = ttt_game_new(3, 0, &game);
    if (status == TTT_OK)
        status = ttt_solve(game, 0, 0, TTT_SOLVE_VALUE_ONLY, &solution, NULL, 0, NULL);
    ttt_game_free(game);
    printf("%s, value %d\n", ttt_strerror(status), solution.value);
    return status == TTT_OK && solution.value == TTT_VALUE_DRAW ? 0 : 1;
}
EOF
for cc in gcc clang; do
  level=everything
  [ "$cc" = clang ] && level=3
  if CC=$cc meson setup --force-fallback-for=libttt --wrap-mode=nodownload --werror \
       -Dwarning_level=$level -Dc_args="-Wshadow -Wcast-qual -Wconversion" \
       "$parent/build-$cc" "$parent" >"$parent/setup-$cc.log" 2>&1 &&
     ninja -C "$parent/build-$cc" >"$parent/build-$cc.log" 2>&1 &&
     "$parent/build-$cc/parent"; then
    echo "strict: libttt as a subproject of a warning_level=$level --werror project ($cc): ok"
  else
    cat "$parent/setup-$cc.log" "$parent/build-$cc.log" 2>/dev/null | tail -n 40
    echo "strict: libttt as a subproject of a warning_level=$level --werror project ($cc): FAILED"
    failed=$((failed + 1))
  fi
done

[ "$failed" -eq 0 ]
