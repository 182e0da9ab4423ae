//! header.rs - checks that src/lib.rs declares every function and integer constant of the packaged ttt.h, with the header's values.
use std::fs;
use std::path::Path;

fn read(relative: &str) -> String {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(relative);
    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `TTT_API <type> name(` in the header.
fn header_functions(header: &str) -> Vec<String> {
    header
        .split("TTT_API ")
        .skip(1)
        .filter_map(|decl| {
            let head = &decl[..decl.find('(')?];
            let name = head.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next()?;
            Some(name.to_string())
        })
        .filter(|name| name.starts_with("ttt_"))
        .collect()
}

/// `#define TTT_NAME <integer>` (possibly parenthesised) in the header.
fn header_constants(header: &str) -> Vec<(String, i64)> {
    header
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("#define TTT_")?;
            let mut words = rest.split_whitespace();
            let name = format!("TTT_{}", words.next()?);
            let value = words.next()?.trim_matches(|c| c == '(' || c == ')');
            Some((name, value.parse().ok()?))
        })
        .collect()
}

#[test]
fn every_header_function_is_declared() {
    let header = read("libttt/include/ttt.h");
    let lib = read("src/lib.rs");
    let functions = header_functions(&header);
    assert!(functions.len() >= 39, "found only {functions:?} in ttt.h");
    assert!(functions.iter().any(|f| f == "ttt_play_next"));
    for name in &functions {
        assert!(lib.contains(&format!("pub fn {name}(")), "ttt.h declares {name}, src/lib.rs does not");
    }
}

#[test]
fn every_header_constant_is_declared_with_its_value() {
    let header = read("libttt/include/ttt.h");
    let lib = read("src/lib.rs");
    let constants = header_constants(&header);
    assert!(constants.len() >= 45, "found only {constants:?} in ttt.h");
    for (name, value) in &constants {
        let prefix = format!("pub const {name}: ");
        let line = lib
            .lines()
            .find(|l| l.trim_start().starts_with(&prefix))
            .unwrap_or_else(|| panic!("ttt.h defines {name}, src/lib.rs does not"));
        let declared = line.rsplit('=').next().unwrap().trim().trim_end_matches(';');
        assert_eq!(declared.parse::<i64>().ok(), Some(*value), "{name}: {line}");
    }
}

#[test]
fn struct_sizes_match_the_header_layout() {
    // ttt_event: six int32_t; ttt_solution: size_t, two int32_t, uint64_t,
    // four int32_t (the last one, reserved, names what was the end's padding).
    assert_eq!(std::mem::size_of::<ttt_sys::ttt_event>(), 24);
    let word = std::mem::size_of::<usize>();
    let solution = ((word + 8 + 7) / 8 * 8 + 8 + 16 + 7) / 8 * 8;
    assert_eq!(std::mem::size_of::<ttt_sys::ttt_solution>(), solution);
    assert_eq!(std::mem::size_of::<ttt_sys::ttt_allocator>(), 3 * word);
}

#[test]
fn the_linked_library_is_the_header_version() {
    // SAFETY: no arguments; the string is static.
    let (number, text) = unsafe {
        (ttt_sys::ttt_version(), std::ffi::CStr::from_ptr(ttt_sys::ttt_version_string()))
    };
    assert_eq!(number, ttt_sys::TTT_VERSION_NUMBER);
    let expected = format!(
        "{}.{}.{}",
        ttt_sys::TTT_VERSION_MAJOR,
        ttt_sys::TTT_VERSION_MINOR,
        ttt_sys::TTT_VERSION_PATCH
    );
    assert_eq!(text.to_str().unwrap(), expected);
}
