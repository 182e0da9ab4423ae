#!/usr/bin/env python3
"""check_constants.py - every released TTT_ constant keeps its value: compares ttt.h with the committed list."""
import re
import sys


def header_constants(path):
    text = open(path, encoding="utf-8").read()
    values = {}
    for name, value in re.findall(r"^#define\s+(TTT_[A-Z0-9_]+)\s+\(?(-?\d+)\)?\s*(?:/\*.*)?$",
                                  text, flags=re.M):
        values[name] = int(value)
    return values


def released_constants(path):
    values = {}
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if line:
            name, value = line.split()
            values[name] = int(value)
    return values


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: check_constants.py ttt.h released.txt")
    current = header_constants(sys.argv[1])
    released = released_constants(sys.argv[2])
    failed = 0
    for name, value in sorted(released.items()):
        if name not in current:
            print(f"not ok - {name} was released as {value} and is gone")
            failed += 1
        elif current[name] != value:
            print(f"not ok - {name} was released as {value}, is now {current[name]}")
            failed += 1
    for name in sorted(n for n in set(current) - set(released) if not n.startswith("TTT_VERSION")):
        print(f"# new constant, add it to the list when released: {name} {current[name]}")
    print(f"{len(released)} constants checked: {len(released) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
