"""time_limits.py - checks that every test of the build has a time limit that fits a busy machine (none left at meson's 30 s)."""
# Usage: time_limits.py BUILD_ROOT   (run by `meson test`)
# A limit is there to catch a hang, not to judge speed: on 2 cores at load
# 15 a test takes 10 to 20 times its time alone. tests/meson.build says how
# each limit is chosen; this holds the floor: 120 s for every test, 300 s
# for every unit suite (TAP). 0 (no limit) passes.
import json
import os
import sys

FLOOR = {"tap": 300}
DEFAULT_FLOOR = 120


def main():
    path = os.path.join(sys.argv[1], "meson-info", "intro-tests.json")
    with open(path, encoding="utf-8") as f:
        tests = json.load(f)
    short = []
    for test in tests:
        floor = FLOOR.get(test["protocol"], DEFAULT_FLOOR)
        limit = test["timeout"]
        if 0 < limit < floor:
            short.append(f"{test['name']}: {limit} s, under {floor} s")
    for line in short:
        print("not ok - time limit of " + line)
    if not short:
        print(f"ok - all {len(tests)} tests have limits of at least "
              f"{DEFAULT_FLOOR} s (unit suites {FLOOR['tap']} s)")
    return 1 if short else 0


if __name__ == "__main__":
    sys.exit(main())
