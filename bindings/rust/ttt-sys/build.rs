//! build.rs - compiles libttt's C sources into a static library (or, with the `system` feature, finds an installed libttt through pkg-config).
//!
//! Only the standard library is used: the C compiler, `ar` and `pkg-config`
//! are driven with `std::process::Command`. No environment variable is
//! needed; these are honoured when set:
//!
//! - `CC_<target>`, `TARGET_CC`, `CC`: the C compiler (default `cc`);
//!   `AR_<target>`, `TARGET_AR`, `AR`: the archiver (default `ar`);
//!   `CFLAGS_<target>`, `TARGET_CFLAGS`, `CFLAGS`: extra flags, appended.
//! - The C library gets `-DNDEBUG` (its internal checks compiled out)
//!   whenever Rust's debug assertions are off, as in `--release`.
//! - `TTT_SYS_WERROR=1`: warnings are errors, as in the meson build (CI sets
//!   it; a user's newer compiler must not break their build over a warning).
//! - `TTT_SYS_USE_PKG_CONFIG=1` (or the `system` feature): link the installed
//!   libttt >= 1.5.0 that `pkg-config` (or `$PKG_CONFIG`) finds.

use std::env;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// The C sources and the public header, inside this package: in the
/// repository `libttt/src` and `libttt/include` are links to the top-level
/// `src/` and `include/`, and `cargo package` stores the files themselves.
const C_SOURCE_DIR: &str = "libttt/src";
const C_INCLUDE_DIR: &str = "libttt/include";

/// The oldest installed library the declarations in src/lib.rs fit
/// (`ttt_batch_step_final` and `ttt_game_load_expected` arrived in 1.5.0).
const MIN_SYSTEM_VERSION: &str = "1.5.0";

/// What meson's `c_std=c11` and `warning_level=3` pass.
const STD_AND_WARNINGS: &[&str] = &["-std=c11", "-Wall", "-Winvalid-pch", "-Wextra", "-Wpedantic"];

/// The defines the meson build passes (`-DTTT_THREADS=1` is its `threads`
/// option, on by default: every game gets its own lock, which the safe
/// crate's `Send`/`Sync` rely on). Edit here when meson.build changes.
const DEFINES: &[&str] = &["TTT_THREADS=1", "_FILE_OFFSET_BITS=64"];

/// meson's `buildtype=debugoptimized` (-g is added when cargo asks for
/// debug info) and `gnu_symbol_visibility: 'hidden'`.
const CODEGEN: &[&str] = &["-O2", "-fvisibility=hidden"];

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=TTT_SYS_USE_PKG_CONFIG");
    let use_system = env::var_os("CARGO_FEATURE_SYSTEM").is_some()
        || env::var("TTT_SYS_USE_PKG_CONFIG").map_or(false, |v| v == "1");
    if use_system {
        link_system();
    } else {
        build_bundled();
    }
}

fn env_path(name: &str) -> PathBuf {
    PathBuf::from(env::var_os(name).unwrap_or_else(|| panic!("cargo did not set {name}")))
}

/// The first of `<var>_<target>`, `<var>_<target with underscores>`,
/// `TARGET_<var>` and `<var>` that is set, as the cc crate looks them up.
fn tool_var(var: &str) -> Option<String> {
    let target = env::var("TARGET").unwrap_or_default();
    let names = [
        format!("{var}_{target}"),
        format!("{var}_{}", target.replace('-', "_")),
        format!("TARGET_{var}"),
        var.to_string(),
    ];
    names.iter().find_map(|name| {
        println!("cargo:rerun-if-env-changed={name}");
        env::var(name).ok().filter(|v| !v.trim().is_empty())
    })
}

/// A command line from a variable such as `CC="ccache gcc -m32"`.
fn command_from(line: &str) -> Command {
    let mut words = line.split_whitespace();
    let mut command = Command::new(words.next().expect("a non-empty tool variable"));
    command.args(words);
    command
}

fn run(mut command: Command, what: &str) -> Output {
    let output = command
        .output()
        .unwrap_or_else(|e| panic!("{what}: cannot run {command:?}: {e}"));
    if !output.status.success() {
        panic!(
            "{what} failed ({}): {command:?}\n{}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    output
}

/// Every `*.c` in the source directory and its subdirectories, sorted: the
/// list follows the sources as they are split or renamed, with nothing to
/// keep in sync.
fn c_sources(dir: &Path) -> Vec<PathBuf> {
    let mut sources = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| {
            panic!(
                "ttt-sys: the C sources are missing ({}: {e}); in a git checkout, \
                 libttt/src and libttt/include are symbolic links to the repository's \
                 src/ and include/ (on Windows: git config core.symlinks true)",
                dir.display()
            )
        });
        for entry in entries {
            let path = entry.expect("a readable source directory").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().map_or(false, |ext| ext == "c") {
                sources.push(path);
            }
        }
    }
    sources.sort();
    if sources.is_empty() {
        panic!("ttt-sys: no C sources in {}", dir.display());
    }
    sources
}

fn build_bundled() {
    let manifest = env_path("CARGO_MANIFEST_DIR");
    let out = env_path("OUT_DIR");
    let source_dir = manifest.join(C_SOURCE_DIR);
    let include_dir = manifest.join(C_INCLUDE_DIR);
    // Directories: cargo rebuilds when any file in them changes or appears.
    println!("cargo:rerun-if-changed={}", source_dir.display());
    println!("cargo:rerun-if-changed={}", include_dir.display());
    println!("cargo:rerun-if-env-changed=TTT_SYS_WERROR");

    let target = env::var("TARGET").unwrap_or_default();
    if env::var("CARGO_CFG_TARGET_ENV").as_deref() == Ok("msvc") {
        panic!(
            "ttt-sys compiles libttt with GNU-style compiler flags and cannot drive MSVC \
             ({target}); use a gnu target, or build libttt with meson and enable the \
             `system` feature"
        );
    }
    let unix = env::var("CARGO_CFG_TARGET_FAMILY").as_deref() == Ok("unix");

    let compiler = tool_var("CC").unwrap_or_else(|| "cc".to_string());
    let mut flags: Vec<String> = STD_AND_WARNINGS.iter().map(|s| s.to_string()).collect();
    flags.extend(DEFINES.iter().map(|d| format!("-D{d}")));
    flags.extend(CODEGEN.iter().map(|s| s.to_string()));
    if env::var("DEBUG").as_deref() == Ok("true") {
        flags.push("-g".into());
    }
    // The C library's internal checks (TTT_ASSERT) follow Rust's debug
    // assertions: compiled out in release, so a check meant for the
    // library's own tests never aborts a user's program.
    if env::var_os("CARGO_CFG_DEBUG_ASSERTIONS").is_none() {
        flags.push("-DNDEBUG".into());
    }
    if env::var("TTT_SYS_WERROR").as_deref() == Ok("1") {
        flags.push("-Werror".into());
    }
    if unix {
        // Position-independent so the library can go into a shared object
        // (meson's b_staticpic), and -pthread for the lock's thrd_yield.
        flags.push("-fPIC".into());
        flags.push("-pthread".into());
    }
    flags.push(format!("-I{}", include_dir.display()));
    flags.push(format!("-I{}", source_dir.display()));
    if let Some(extra) = tool_var("CFLAGS") {
        flags.extend(extra.split_whitespace().map(str::to_string));
    }

    // The flags, for tests/build_flags.rs to read.
    fs::write(out.join("cflags.txt"), flags.join("\n")).expect("write cflags.txt");

    // A fresh object directory, so a source removed upstream leaves no
    // object behind.
    let obj_dir = out.join("obj");
    let _ = fs::remove_dir_all(&obj_dir);
    fs::create_dir_all(&obj_dir).expect("create the object directory");

    let jobs: usize = env::var("NUM_JOBS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1)
        .max(1);
    let sources = c_sources(&source_dir);
    let mut objects = Vec::new();
    let mut running: Vec<(PathBuf, Child)> = Vec::new();
    for source in &sources {
        // Named by the path under the source directory, so a.c and sub/a.c
        // do not collide.
        let relative = source.strip_prefix(&source_dir).expect("a path under the sources");
        let stem = relative.with_extension("").to_string_lossy().replace(['/', '\\'], "_");
        let object = obj_dir.join(format!("{stem}.o"));
        let mut command = command_from(&compiler);
        command
            .args(&flags)
            .arg("-c")
            .arg(source)
            .arg("-o")
            .arg(&object)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let child = command
            .spawn()
            .unwrap_or_else(|e| panic!("ttt-sys: cannot run the C compiler `{compiler}`: {e}"));
        running.push((source.clone(), child));
        objects.push(object);
        if running.len() >= jobs {
            let (source, child) = running.remove(0);
            finish_compile(&source, child);
        }
    }
    for (source, child) in running {
        finish_compile(&source, child);
    }

    let lib_dir = out.join("lib");
    fs::create_dir_all(&lib_dir).expect("create the library directory");
    let archive = lib_dir.join("libttt.a");
    let _ = fs::remove_file(&archive);
    let mut ar = command_from(&tool_var("AR").unwrap_or_else(|| "ar".to_string()));
    ar.arg("crs").arg(&archive).args(&objects);
    run(ar, "ttt-sys: archiving libttt.a");

    println!("cargo:rustc-link-search=native={}", lib_dir.display());
    println!("cargo:rustc-link-lib=static=ttt");
    if unix && env::var("CARGO_CFG_TARGET_OS").as_deref() != Ok("macos") {
        // C11 threads (thrd_yield) live in libpthread on older C libraries.
        println!("cargo:rustc-link-lib=pthread");
    }

    // For crates that compile C against ttt.h: DEP_TTT_INCLUDE.
    let public_include = out.join("include");
    fs::create_dir_all(&public_include).expect("create the include directory");
    fs::copy(include_dir.join("ttt.h"), public_include.join("ttt.h"))
        .expect("copy ttt.h for dependants");
    println!("cargo:include={}", public_include.display());
    println!("cargo:root={}", out.display());
}

/// Waits for one compiler run; its warnings go to cargo (which shows them),
/// a failure stops the build with the compiler's messages.
fn finish_compile(source: &Path, child: Child) {
    let output = child.wait_with_output().expect("wait for the C compiler");
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        panic!(
            "ttt-sys: compiling {} failed ({}):\n{stderr}",
            source.display(),
            output.status
        );
    }
    for line in stderr.lines().filter(|l| !l.trim().is_empty()) {
        println!("cargo:warning={line}");
    }
}

fn link_system() {
    for name in ["PKG_CONFIG", "PKG_CONFIG_PATH", "PKG_CONFIG_LIBDIR", "PKG_CONFIG_SYSROOT_DIR"] {
        println!("cargo:rerun-if-env-changed={name}");
    }
    let pkg_config = env::var("PKG_CONFIG").unwrap_or_else(|_| "pkg-config".to_string());
    let query = |args: &[&str]| {
        let mut command = command_from(&pkg_config);
        command.args(args).arg("libttt");
        command
    };
    let status = query(&[&format!("--atleast-version={MIN_SYSTEM_VERSION}")])
        .status()
        .unwrap_or_else(|e| panic!("ttt-sys (system): cannot run `{pkg_config}`: {e}"));
    if !status.success() {
        panic!(
            "ttt-sys (system): pkg-config finds no libttt >= {MIN_SYSTEM_VERSION} \
             (install it, or point PKG_CONFIG_PATH at its libttt.pc; without the \
             `system` feature and TTT_SYS_USE_PKG_CONFIG the bundled sources are built)"
        );
    }
    // --static adds Libs.private (-pthread), needed when libttt.a is what
    // is installed and harmless next to a shared libttt.
    let libs = run(query(&["--libs", "--static"]), "pkg-config --libs libttt");
    for flag in String::from_utf8_lossy(&libs.stdout).split_whitespace() {
        if let Some(dir) = flag.strip_prefix("-L") {
            println!("cargo:rustc-link-search=native={dir}");
        } else if let Some(lib) = flag.strip_prefix("-l") {
            println!("cargo:rustc-link-lib={lib}");
        } else if flag == "-pthread" {
            println!("cargo:rustc-link-lib=pthread");
        } else {
            println!("cargo:warning=ttt-sys: ignoring pkg-config link flag {flag}");
        }
    }
    let include = run(
        query(&["--variable=includedir"]),
        "pkg-config --variable=includedir libttt",
    );
    let include = String::from_utf8_lossy(&include.stdout).trim().to_string();
    println!("cargo:include={include}");
}
