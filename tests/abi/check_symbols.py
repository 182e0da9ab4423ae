#!/usr/bin/env python3
"""check_symbols.py - the header's functions, the linker map and a shared library's exports must agree."""
import re
import subprocess
import sys


def header_functions(path):
    text = open(path, encoding="utf-8").read()
    # Every exported declaration reads "TTT_API <type> name(".
    return set(re.findall(r"TTT_API\s+[^;(]*?\b(ttt_\w+)\s*\(", text))


def map_symbols(path):
    text = open(path, encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return set(re.findall(r"^\s*(ttt_\w+)\s*;", text, flags=re.M))


def exported_symbols(library):
    out = subprocess.run(["nm", "-D", "--defined-only", library],
                         check=True, capture_output=True, text=True).stdout
    names = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[1] in "TtDdBbRrVvWwi":
            names.add(parts[2].split("@")[0])
    return names


def report(what, missing):
    for name in sorted(missing):
        print(f"not ok - {what}: {name}")
    return len(missing)


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: check_symbols.py ttt.h libttt.map [libttt.so]")
    header = header_functions(sys.argv[1])
    mapped = map_symbols(sys.argv[2])
    failures = 0
    failures += report("declared in ttt.h but not in the map", header - mapped)
    failures += report("in the map but not declared in ttt.h", mapped - header)
    if len(sys.argv) == 4:
        exported = {s for s in exported_symbols(sys.argv[3]) if not s.startswith("LIBTTT_")}
        failures += report("exported but not in the map", exported - mapped)
        failures += report("in the map but not exported", mapped - exported)
    print(f"{len(header)} functions checked: {0 if failures else 1} passed, {1 if failures else 0} failed")
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
