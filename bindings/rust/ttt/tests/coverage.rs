//! coverage.rs - checks that the safe crate calls every function of ttt.h, but for the allocator and caller-memory constructors left to ttt-sys.
use std::fs;
use std::path::Path;

/// Exposed through `ttt::sys` only: a Rust Game's memory comes from malloc.
const RAW_ONLY: &[&str] = &[
    "ttt_game_new_with",
    "ttt_game_footprint",
    "ttt_game_init",
    "ttt_game_new_rect_with",
    "ttt_game_footprint_rect",
    "ttt_game_init_rect",
    "ttt_batch_footprint",
    "ttt_batch_init",
];

#[test]
fn the_safe_crate_calls_every_header_function() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let header = fs::read_to_string(root.join("../ttt-sys/libttt/include/ttt.h")).unwrap();
    let mut safe = String::new();
    for entry in fs::read_dir(root.join("src")).unwrap() {
        safe += &fs::read_to_string(entry.unwrap().path()).unwrap();
    }
    let mut checked = 0;
    for decl in header.split("TTT_API ").skip(1) {
        let head = &decl[..decl.find('(').unwrap()];
        let name = head.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap();
        // The TTT_API macro's own definitions are not declarations.
        if !name.starts_with("ttt_") || RAW_ONLY.contains(&name) {
            continue;
        }
        assert!(safe.contains(&format!("sys::{name}(")), "the safe crate never calls {name}");
        checked += 1;
    }
    assert!(checked >= 40, "only {checked} functions found in ttt.h");
    // The 1.3 calls are among them.
    for name in ["ttt_game_new_rect", "ttt_width", "ttt_height", "ttt_drop"] {
        assert!(header.contains(&format!(" {name}(")), "ttt.h lacks {name}");
    }
}
