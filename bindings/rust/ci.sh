#!/usr/bin/env bash
# ci.sh - the Rust stage of CI: workspace tests and doctests, docs, clippy, the packaged ttt-sys, crates outside the tree, the system feature, the demo and a quick benchmark.
#
# usage: bindings/rust/ci.sh   (needs cargo; meson and pkg-config for the system-feature step)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
cd "$here"
command -v cargo >/dev/null || { echo "ci.sh: cargo is not installed" >&2; exit 1; }
cargo --version
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Warnings in the C sources are errors here, as in the meson build.
export TTT_SYS_WERROR=1

echo "-- workspace: unit, integration and doc tests"
cargo test --offline --workspace
# A test file that stops compiling in, or loses its tests, must fail here
# rather than pass with nothing run.
for crate in ttt ttt-sys; do
  for file in "$crate"/tests/*.rs; do
    name=$(basename "$file" .rs)
    n=$(cargo test --offline --quiet -p "$crate" --test "$name" -- --list 2>/dev/null | grep -c ': test$' || true)
    [ "$n" -gt 0 ] || { echo "ci.sh: $crate/tests/$name.rs ran no tests" >&2; exit 1; }
  done
done

echo "-- ttt-sys alone"
cargo test --offline -p ttt-sys

echo "-- ttt-sys in release: the C library built with NDEBUG"
cargo test --offline --release -p ttt-sys --test build_flags

echo "-- a changed C file rebuilds the library"
cargo build --offline -p ttt-sys
first_source=$(cd "$root" && find src -name '*.c' | sort | head -n 1)
touch "$root/$first_source"
# The log is read whole: grep -q would end the pipe early under pipefail.
rebuild_log=$(cargo build --offline -p ttt-sys -v 2>&1)
grep -q 'Running .*ttt-sys-[0-9a-f]*/build-script-build' <<<"$rebuild_log" ||
  { echo "ci.sh: touching $first_source did not rerun ttt-sys's build script" >&2; exit 1; }

echo "-- docs (warnings are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --offline --no-deps --workspace

if cargo clippy --version >/dev/null 2>&1; then
  echo "-- clippy"
  cargo clippy --offline --workspace --all-targets -- -D warnings
else
  echo "-- clippy: not installed, skipped"
fi

echo "-- the packaged ttt-sys holds every C source and the header, and builds on its own"
listed=$(cargo package --offline --no-verify --allow-dirty -p ttt-sys --list)
for rel in $(cd "$root" && find src include -type f -name '*.[ch]'); do
  grep -qx "libttt/$rel" <<<"$listed" || { echo "ci.sh: the ttt-sys package lacks $rel" >&2; exit 1; }
done
cargo package --offline --no-verify --allow-dirty -p ttt-sys
tar -xzf target/package/ttt-sys-*.crate -C "$work"
(cd "$work"/ttt-sys-*/ && CARGO_TARGET_DIR="$work/packaged-target" cargo test --offline)

echo "-- crates outside the repository"
"$here/outside.sh" "$work/outside"

echo "-- the system feature: libttt installed by meson, found by pkg-config"
if command -v meson >/dev/null && command -v pkg-config >/dev/null; then
  meson setup "$work/meson" "$root" --prefix="$work/prefix" --libdir=lib -Dtests=disabled >/dev/null
  meson install -C "$work/meson" --quiet
  PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig" CARGO_TARGET_DIR="$work/system-target" \
    cargo test --offline -p ttt --features system
  # The bundled sources were not compiled: no object directory in that build.
  if ls "$work"/system-target/debug/build/ttt-sys-*/out/obj >/dev/null 2>&1; then
    echo "ci.sh: the system feature compiled the bundled sources" >&2; exit 1
  fi
else
  echo "ci.sh: meson and pkg-config are needed for the system feature step" >&2; exit 1
fi

echo "-- examples/rust demo"
(cd "$root/examples/rust" && CARGO_TARGET_DIR="$here/target" cargo test --offline)

echo "-- benchmark, quick (prints the figures; the goal is checked by reading them)"
cargo run --offline --release -p ttt --example bench -- --quick
