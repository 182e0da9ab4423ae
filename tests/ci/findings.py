#!/usr/bin/env python3
"""findings.py - fails on analyzer findings that are not listed, with a reason, in a suppressions file.

Usage: findings.py ROOT SUPPRESSIONS [BASE_DIR ...]
Reads compiler-style diagnostics ("file:line:col: warning: message [check]")
on standard input. A finding is suppressed by an entry
    check | file | the flagged source line, trimmed
in the suppressions file, preceded by comment lines giving the reason. The
source text, not the line number, identifies the site, so entries survive
edits elsewhere in the file; an entry whose line changes stops matching and
has to be looked at again, which is the point.
"""
import os
import re
import sys

DIAG = re.compile(r"^(?P<file>[^:\s]+):(?P<line>\d+):(?P<col>\d+): "
                  r"(?:warning|error): (?P<msg>.*?) \[(?P<check>[^\]]+)\]$")


def load_suppressions(path):
    entries, reason = set(), []
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                reason.append(line)
                continue
            parts = [p.strip() for p in line.split("|", 2)]
            if len(parts) != 3 or not reason:
                sys.exit(f"{path}: entry without a reason or malformed: {line}")
            entries.add(tuple(parts))
            reason = []
    return entries


def main():
    root, supp_path = sys.argv[1], sys.argv[2]
    # Tools print paths relative to where they compiled: the build directory.
    bases = [os.getcwd()] + sys.argv[3:]
    suppressed = load_suppressions(supp_path)
    seen, kept, muted = set(), [], 0
    for raw in sys.stdin:
        m = DIAG.match(raw.strip())
        if not m:
            continue
        found = [os.path.join(b, m["file"]) for b in bases
                 if os.path.exists(os.path.join(b, m["file"]))]
        path = os.path.relpath(os.path.realpath(found[0] if found else m["file"]), root)
        key_line = (path, int(m["line"]), m["check"])
        if key_line in seen:
            continue  # a header's finding repeats once per source file
        seen.add(key_line)
        with open(os.path.join(root, path), encoding="utf-8") as f:
            source = f.read().splitlines()[int(m["line"]) - 1].strip()
        for check in m["check"].split(","):
            if (check, path, source) in suppressed:
                muted += 1
                break
        else:
            kept.append(f"{path}:{m['line']}: {m['msg']} [{m['check']}]\n    {source}")
    for k in kept:
        print(k)
    print(f"{len(kept)} findings, {muted} suppressed with a reason")
    return 1 if kept else 0


if __name__ == "__main__":
    sys.exit(main())
