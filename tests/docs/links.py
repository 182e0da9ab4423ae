"""links.py - checks the manual's links and guides: every relative link of README.md and docs/*.md reaches a file and, with #anchor, a heading there; docs/README.md links every page and leads each kind of reader; README.md says how to install and link."""
# Usage: links.py SOURCE_ROOT   (run by `meson test`, suite docs)
# Anchors are GitHub's: the heading in lower case, without what is not a
# letter, digit, space, hyphen or underscore, spaces made hyphens; a
# repeated heading gets -1, -2, ...
import glob
import os
import re
import sys

LINK = re.compile(r"\]\(([^)\s]+)\)")


def anchors(path):
    found, seen = set(), {}
    in_code = False
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("```"):
                in_code = not in_code
            m = None if in_code else re.match(r"#{1,6} +(.*?)\s*$", line)
            if not m:
                continue
            slug = re.sub(r"[^\w\- ]", "", m.group(1).lower()).replace(" ", "-")
            n = seen.get(slug, 0)
            seen[slug] = n + 1
            found.add(slug if n == 0 else f"{slug}-{n}")
    return found


def main():
    if len(sys.argv) != 2 or not os.path.isdir(sys.argv[1]):
        sys.exit("usage: links.py SOURCE_ROOT (the directory holding README.md and docs/)")
    root = sys.argv[1]
    pages = [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    problems = []
    for page in pages:
        shown = os.path.relpath(page, root)
        with open(page, encoding="utf-8") as f:
            text = f.read()
        # Links inside code blocks are code, not links.
        text = re.sub(r"```.*?```", "", text, flags=re.S)
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(page), path)) if path else page
            if not os.path.exists(dest):
                problems.append(f"{shown}: link to {target}: no such file")
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                problems.append(f"{shown}: link to {target}: no such heading")
    index = os.path.join(root, "docs", "README.md")
    with open(index, encoding="utf-8") as f:
        linked = set(LINK.findall(f.read()))
    for page in sorted(glob.glob(os.path.join(root, "docs", "*.md")) +
                       glob.glob(os.path.join(root, "docs", "*.1"))):
        name = os.path.basename(page)
        if name != "README.md" and not any(t.split("#")[0] == name for t in linked):
            problems.append(f"docs/README.md does not link {name}")
    # The guide by reader: each kind of reader has its entry, which links
    # pages to read.
    with open(index, encoding="utf-8") as f:
        guide = f.read()
    start = guide.find("## Where to start")
    entries = re.findall(r"^- \*\*(.+?)\*\*(.*?)(?=^- \*\*|^## |\Z)",
                         guide[start:] if start >= 0 else "", re.M | re.S)
    for reader in ("C program", "meson subproject", "Python", "Rust",
                   "learning", "server", "Playing"):
        if not any(reader in title and LINK.search(body) for title, body in entries):
            problems.append(f"docs/README.md's \"Where to start\" has no entry for "
                            f"the reader of \"{reader}\" with pages to read")
    # README's install section: the commands, run by the docs suite.
    with open(pages[0], encoding="utf-8") as f:
        readme = f.read()
    section = readme.partition("## Install and link")[2].partition("\n## ")[0]
    for needed in ("<!-- sample: sh -->", "-Dtests=disabled", "meson install",
                   "PKG_CONFIG_PATH", "pkg-config", "[wrap-git]", "revision ="):
        if needed not in section:
            problems.append(f"README.md's \"Install and link\" lacks {needed}")
    for p in problems:
        print("not ok - " + p)
    if not problems:
        print(f"ok - the links of {len(pages)} pages reach their files and headings")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
