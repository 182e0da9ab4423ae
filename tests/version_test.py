"""version_test.py - checks that every place carrying libttt's version agrees with meson.build and with CHANGELOG.md's newest release.

Usage: python3 version_test.py SOURCE_ROOT [MESON_PROJECT_VERSION]
(run by `meson test`, which passes meson.project_version()).

Places: meson.build's project(version:), include/ttt.h's TTT_VERSION_MAJOR,
MINOR and PATCH, pyproject.toml, the Python package's __version__, the Rust
workspace's version, the ttt crate's requirement on ttt-sys, Cargo.lock's
ttt and ttt-sys, and the Rust demo. CHANGELOG.md must hold one section per
release, newest first ("## [X.Y.Z] - date"), every minor release of the
current major from X.0.0 up, and its newest section is the version.
"""

import os
import re
import sys


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def one(pattern, text, what):
    """The single match of pattern's group 1 in text, or an error naming what."""
    found = re.findall(pattern, text, re.MULTILINE)
    if len(found) != 1:
        raise ValueError(f"{what}: expected one match of {pattern!r}, found {len(found)}")
    return found[0]


def versions(root):
    """Each place's name and the version it carries (or an error text)."""
    places = {
        "meson.build project version": lambda: one(
            r"^project\([^)]*?\bversion:\s*'([^']*)'", read(root, "meson.build"), "meson.build"),
        "include/ttt.h TTT_VERSION_MAJOR.MINOR.PATCH": lambda: ".".join(
            one(rf"^#define TTT_VERSION_{part}\s+(\d+)\s*$", read(root, "include/ttt.h"), "ttt.h")
            for part in ("MAJOR", "MINOR", "PATCH")),
        "pyproject.toml version": lambda: one(
            r"^version\s*=\s*['\"]([^'\"]*)['\"]", read(root, "pyproject.toml"), "pyproject.toml"),
        "bindings/python/ttt/__init__.py __version__": lambda: one(
            r"^__version__\s*=\s*['\"]([^'\"]*)['\"]",
            read(root, "bindings/python/ttt/__init__.py"), "__init__.py"),
        "bindings/rust/Cargo.toml workspace version": lambda: one(
            r"^version\s*=\s*\"([^\"]*)\"", read(root, "bindings/rust/Cargo.toml"), "Cargo.toml"),
        "bindings/rust/ttt/Cargo.toml ttt-sys requirement": lambda: one(
            r"^ttt-sys\s*=\s*\{[^}]*\bversion\s*=\s*\"=?([^\"]*)\"",
            read(root, "bindings/rust/ttt/Cargo.toml"), "ttt/Cargo.toml"),
        "bindings/rust/Cargo.lock ttt": lambda: one(
            r'^name = "ttt"\nversion = "([^"]*)"', read(root, "bindings/rust/Cargo.lock"), "Cargo.lock"),
        "bindings/rust/Cargo.lock ttt-sys": lambda: one(
            r'^name = "ttt-sys"\nversion = "([^"]*)"', read(root, "bindings/rust/Cargo.lock"), "Cargo.lock"),
        "examples/rust/Cargo.toml version": lambda: one(
            r"^version\s*=\s*\"([^\"]*)\"", read(root, "examples/rust/Cargo.toml"), "examples/rust"),
    }
    result = {}
    for name, get in places.items():
        try:
            result[name] = get()
        except (OSError, ValueError) as e:
            result[name] = f"unreadable ({e})"
    return result


def changelog_releases(root):
    """The release versions of CHANGELOG.md's sections, top to bottom."""
    text = read(root, "CHANGELOG.md")
    return re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}\s*$", text, re.MULTILINE)


def key(version):
    return tuple(int(part) for part in version.split("."))


def main(argv):
    root = argv[1]
    failures = []
    found = versions(root)
    if len(argv) > 2:
        found["meson.project_version()"] = argv[2]
    expected = found["meson.build project version"]
    for name, version in found.items():
        if version == expected:
            print(f"ok - {name}: {version}")
        else:
            failures.append(f"{name} is {version}, meson.build says {expected}")

    releases = changelog_releases(root)
    if not releases:
        failures.append("CHANGELOG.md has no release section (## [X.Y.Z] - YYYY-MM-DD)")
    else:
        if releases[0] == expected:
            print(f"ok - CHANGELOG.md's newest release: {releases[0]}")
        else:
            failures.append(f"CHANGELOG.md's newest release is {releases[0]}, meson.build says {expected}")
        if len(set(releases)) != len(releases):
            failures.append(f"CHANGELOG.md repeats a release: {releases}")
        if any(key(a) <= key(b) for a, b in zip(releases, releases[1:])):
            failures.append(f"CHANGELOG.md's releases are not newest first: {releases}")
        if re.fullmatch(r"\d+\.\d+\.\d+", expected):
            major, minor, _ = key(expected)
            missing = [f"{major}.{m}" for m in range(minor + 1)
                       if not any(key(r)[:2] == (major, m) for r in releases)]
            if missing:
                failures.append(f"CHANGELOG.md has no section for {', '.join(missing)}")
            else:
                print(f"ok - CHANGELOG.md has every minor release {major}.0 to {major}.{minor}: {releases}")

    for failure in failures:
        print(f"not ok - {failure}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
