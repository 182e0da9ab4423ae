# abi_lib.sh - shell functions shared by the ABI scripts: build the shared library with debug info, dump its ABI.
# Sourced, not run.
# shellcheck shell=sh

# build_shared_library SOURCE_DIR BUILD_DIR: prints the path of libttt.so.
# Debug info is what lets libabigail see parameter types and struct layouts.
build_shared_library() {
  rm -rf "$2"
  mkdir -p "$(dirname "$2")"
  # `tests` became a feature option in 1.2; released trees have a boolean.
  if grep -q "'tests', *type: *'feature'" "$1/meson_options.txt"; then no_tests=disabled; else no_tests=false; fi
  meson setup "$2" "$1" -Ddefault_library=shared -Dbuildtype=debug -Dtests=$no_tests \
    -Dc_args=-g >"$2.setup.log" 2>&1 || { cat "$2.setup.log" >&2; rm -f "$2.setup.log"; return 1; }
  mv "$2.setup.log" "$2/setup.log"
  # Only the shared library: the ABI is its, whatever the programs do.
  target=$(ninja -C "$2" -t targets all |
    sed -n 's/^\(libttt\.so\.[0-9.]*[0-9]\): .*LINKER.*/\1/p' | head -n 1)
  [ -n "$target" ] || { echo "no libttt.so target in $2" >&2; return 1; }
  ninja -C "$2" "$target" >"$2/ninja.log" 2>&1 || { cat "$2/ninja.log" >&2; return 1; }
  echo "$2/$target"
}

# dump_abi LIBRARY OUT: every exported function with its versioned symbol,
# parameter and return types, and the full layout of every type they reach
# (ttt_event through ttt_listener, ttt_solution, ttt_allocator). No header
# filter: the exports are the public API, so every type they reach is
# public. No source locations or build paths: the file names no machine.
dump_abi() {
  abidw --no-corpus-path --no-show-locs --no-comp-dir-path --out-file "$2" "$1"
}
