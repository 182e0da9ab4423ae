#!/usr/bin/env bash
# outside.sh - builds and tests new crates outside the repository that depend on ttt (and on ttt-sys alone) by path, as a user's application would.
#
# usage: bindings/rust/outside.sh [work-dir]   (default: a fresh temporary directory)
# No environment variable is needed: the C library is compiled from source.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=${1:-$(mktemp -d)}
mkdir -p "$work"
# The crates must not find this repository's workspace or any setting.
unset LIBTTT_LIB_DIR TTT_SYS_USE_PKG_CONFIG CARGO_TARGET_DIR

echo "-- an application depending on ttt by path ($work/app)"
rm -rf "$work/app"
cargo new --offline --quiet --vcs none --name app "$work/app"
cat >> "$work/app/Cargo.toml" <<TOML
ttt = { path = "$here/ttt" }
TOML
cat > "$work/app/src/main.rs" <<'RUST'
//! main.rs - plays one game through the ttt crate.
fn main() -> Result<(), ttt::Error> {
    let game = ttt::Game::new(3, 0)?;
    for (row, col) in [(1, 1), (0, 0), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2)] {
        game.play(row, col)?;
    }
    println!("{game}\n{:?} {}", game.state(), game.save()?.trim_end());
    Ok(())
}
RUST
# The safe crate's own integration tests, run against it as a dependency:
# the whole API, the engine included, must be there outside the tree.
mkdir -p "$work/app/tests"
cp "$here"/ttt/tests/game.rs "$here"/ttt/tests/engine.rs "$here"/ttt/tests/threads.rs "$work/app/tests/"
(cd "$work/app" && cargo run --offline --quiet | tee "$work/app.out")
grep -qx 'Draw ttt/1 n=3 k=3 rules=classic moves=b2,a1,c1,a3,a2,c2,b1,b3,c3' "$work/app.out"
(cd "$work/app" && cargo test --offline --quiet)
for t in game engine threads; do
  n=$(cd "$work/app" && cargo test --offline --quiet --test "$t" -- --list 2>/dev/null | grep -c ': test$' || true)
  [ "$n" -gt 0 ] || { echo "outside crate: tests/$t.rs ran no tests" >&2; exit 1; }
done

echo "-- an application depending on ttt-sys alone ($work/app-sys)"
rm -rf "$work/app-sys"
cargo new --offline --quiet --vcs none --name app-sys "$work/app-sys"
cat >> "$work/app-sys/Cargo.toml" <<TOML
ttt-sys = { path = "$here/ttt-sys" }
TOML
cat > "$work/app-sys/src/main.rs" <<'RUST'
//! main.rs - plays X's win in one row through the raw declarations.
use ttt_sys as sys;
fn main() {
    let mut game = std::ptr::null_mut();
    // SAFETY: valid out-pointers; the game is freed once and not used after.
    unsafe {
        assert_eq!(sys::ttt_game_new(3, 0, &mut game), sys::TTT_OK);
        let mut state = -1;
        for (row, col) in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)] {
            assert_eq!(sys::ttt_play_next(game, row, col, &mut state), sys::TTT_OK);
        }
        println!("state {state}, ply {}", sys::ttt_ply(game));
        assert_eq!(state, sys::TTT_X_WON);
        sys::ttt_game_free(game);
    }
}
RUST
# A dependant that compiles C against the header ttt-sys hands on through
# `links = "ttt"` and cargo:include (DEP_TTT_INCLUDE).
cat > "$work/app-sys/build.rs" <<'RUST'
//! build.rs - compiles a C file against the ttt.h that ttt-sys names.
use std::{env, fs, path::Path, process::Command};
fn main() {
    let include = env::var("DEP_TTT_INCLUDE").expect("ttt-sys sets cargo:include");
    let out = env::var("OUT_DIR").unwrap();
    let probe = Path::new(&out).join("probe.c");
    fs::write(&probe, "#include \"ttt.h\"\nint probe(void);\nint probe(void) { return TTT_VERSION_NUMBER >= 10200 ? 0 : 1; }\n").unwrap();
    let cc = env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let status = Command::new(cc)
        .args(["-std=c11", "-Wall", "-Werror", "-fsyntax-only", "-I", &include])
        .arg(&probe)
        .status()
        .unwrap();
    assert!(status.success(), "C against {include}/ttt.h");
}
RUST
sys_out=$(cd "$work/app-sys" && cargo run --offline --quiet)
echo "$sys_out"
[ "$sys_out" = "state 1, ply 5" ]
echo "outside crates: ok"
