"""design_map.py - checks that docs/design.md's map of src/ names every file in src/, and no file src/ does not have."""
# Usage: design_map.py SOURCE_ROOT   (run by `meson test`, suite docs)
import os
import re
import sys


def main():
    root = sys.argv[1]
    src = os.path.join(root, "src")
    files = sorted(f for f in os.listdir(src)
                   if os.path.isfile(os.path.join(src, f)))
    with open(os.path.join(root, "docs", "design.md"), encoding="utf-8") as doc:
        text = doc.read()
    # The map is the table whose header is "| File | Job |"; a row's first
    # cell names its files in backquotes.
    rows = re.findall(r"^\| *(`[^|]*`) *\|", text[text.index("| File | Job |"):],
                      re.M)
    mapped = set()
    for cell in rows:
        mapped.update(re.findall(r"`([^`]+)`", cell))
    failed = False
    for name in files:
        if name not in mapped:
            print(f"not ok - src/{name} is not in docs/design.md's map of src/")
            failed = True
    for name in sorted(mapped - set(files)):
        print(f"not ok - docs/design.md's map names src/{name}, which does not exist")
        failed = True
    if not failed:
        print(f"ok - docs/design.md maps all {len(files)} files of src/")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
