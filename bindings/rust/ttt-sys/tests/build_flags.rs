//! build_flags.rs - checks that build.rs compiles the bundled C library with NDEBUG exactly when Rust's debug assertions are off (release), so an internal C check never aborts a user's release build.
#![cfg(not(feature = "system"))]

/// The flags build.rs passed to the C compiler, one a line.
const FLAGS: &str = include_str!(concat!(env!("OUT_DIR"), "/cflags.txt"));

#[test]
fn c_checks_follow_debug_assertions() {
    let ndebug = FLAGS.lines().any(|flag| flag == "-DNDEBUG");
    assert_eq!(
        ndebug,
        !cfg!(debug_assertions),
        "-DNDEBUG must be passed exactly when debug assertions are off; flags:\n{FLAGS}"
    );
}
