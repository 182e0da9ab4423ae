//! build.rs - links the static libttt.a found in the directory named by LIBTTT_LIB_DIR.
use std::env;
use std::fs;
use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-env-changed=LIBTTT_LIB_DIR");
    let dir = match env::var_os("LIBTTT_LIB_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => panic!(
            "set LIBTTT_LIB_DIR to the directory holding libttt.a \
             (in a meson build directory: examples/)"
        ),
    };
    let lib = dir.join("libttt.a");
    if !lib.is_file() {
        panic!("LIBTTT_LIB_DIR: {} does not exist", lib.display());
    }
    // Relink whenever meson rebuilds the library.
    println!("cargo:rerun-if-changed={}", lib.display());
    println!("cargo:rustc-link-search=native={}", dir.display());
    println!("cargo:rustc-link-lib=static=ttt");
    // Each game's lock uses C11 threads, which live in libpthread on older libcs.
    if env::var("CARGO_CFG_TARGET_FAMILY").as_deref() == Ok("unix") {
        println!("cargo:rustc-link-lib=pthread");
    }
    // For crates that build C against the header: DEP_TTT_INCLUDE.
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR").unwrap());
    let include = manifest.join("../../include");
    println!("cargo:include={}", include.display());
    // Bind the engine (solver, bots, perft) where the header declares it.
    let header = include.join("ttt.h");
    println!("cargo:rerun-if-changed={}", header.display());
    println!("cargo:rustc-check-cfg=cfg(ttt_engine)");
    if matches!(fs::read_to_string(&header), Ok(h) if h.contains("ttt_solve(")) {
        println!("cargo:rustc-cfg=ttt_engine");
    }
}
