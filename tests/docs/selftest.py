#!/usr/bin/env python3
"""selftest.py - shows that run_samples.py fails on a broken sample of each kind it runs, and passes the same samples fixed.

Usage: selftest.py SOURCE_ROOT [--build BUILD_ROOT CC LIB] [--python PYTHON]
  (--build: the C and shell kinds, against that build, compiled by CC
   against LIB; --python: the python kind, PYTHON having the ttt package)"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

GOOD_C = """```c
#include <stdio.h>
#include "ttt.h"

int main(void)
{
    ttt_game *game;
    if (ttt_game_new(3, 0, &game) != TTT_OK)
        return 1;
    printf("ply %d\\n", ttt_ply(game));
    ttt_game_free(game);
    return 0;
}
```
<!-- output:
ply 0
-->
"""

# Each case: a name, a markdown file, and the words its failure must print.
BROKEN = [
    ("C that does not compile", GOOD_C.replace("ttt_ply(game)", "ttt_no_such_function(game)"),
     "does not compile"),
    ("C whose output is not the documented one", GOOD_C.replace("ply 0\n-->", "ply 1\n-->"),
     "printed other than the doc shows"),
    ("a C fragment that does not compile", "<!-- sample: c fragment -->\n\n    ttt_play_next(game, 1);\n",
     "does not compile"),
    ("a console block with the wrong output",
     "```console\n$ build/examples/ttt solve 3 3 a1 b1 a2 b2\nvalue=win plies=1 best=a3 nodes=7\n```\n",
     "printed other than the doc shows"),
    ("a console block's `...` that hides a wrong line",
     "```console\n$ build/examples/ttt perft 3 3 9\nx_won=131184 ...\n...\nlen 9 127873\n```\n",
     "printed other than the doc shows"),
    ("a failing shell command", "```sh\nbuild/examples/ttt perft 3 3\n```\n", "exited 2"),
    ("output of a command, wrong", "<!-- sample: output of: build/examples/ttt perft 3 3 5 -->\n\n"
     "    x_won=1440 o_won=0 draw=0 open=13680\n    len 5 15121\n", "printed other than the doc shows"),
    ("a synopsis naming an option the program lacks",
     "<!-- sample: synopsis of: build/examples/ttt --help -->\n\n    ttt play [--no-such-option]\n",
     "does not mention --no-such-option"),
    ("a record the program refuses", "<!-- sample: record -->\n\n    ttt/1 n=3 k=3 rules=classic moves=b2,b2\n",
     "refused"),
    ("malformed JSON", "```json\n{\"status\": \"ok\",}\n```\n", "not JSON"),
    ("a block of no known language", "```meson\nproject('x', 'c')\n```\n", "of no language this runner knows"),
    ("an indented block without a marker", "Text.\n\n    build/examples/ttt perft 3 3 9\n",
     "of no language this runner knows"),
    ("an unknown marker", "<!-- sample: cobol -->\n\n    DISPLAY 'HI'.\n", "is not one this runner knows"),
    ("a marker with no block", "<!-- sample: sh -->\n\nJust text.\n", "with no code block after it"),
]

# Debian only (apt-cache reads the package lists).
BROKEN_APT = [
    ("an apt-get line naming a package apt does not know",
     "<!-- sample: apt -->\n\n    apt-get install -y gcc \\\n      no-such-package-ttt\n",
     "apt knows no package no-such-package-ttt"),
]

GOOD = GOOD_C + """
<!-- sample: c fragment -->

    ttt_play_next(game, 1, 1, &state);

```console
$ build/examples/ttt perft 3 3 9
x_won=131184 ...
...
len 9 127872
```

<!-- sample: output of: build/examples/ttt perft 3 3 5 -->

    x_won=1440 o_won=0 draw=0 open=13680
    len 5 15120

<!-- sample: illustrative: a benchmark -->

    build-release/tests/bench/ttt-bench
"""

BROKEN_PYTHON = [
    ("Python that raises", "```python\nimport ttt\nttt.Game(2)\n```\n", "exited 1"),
    ("Python whose output is not the documented one",
     "```python\nimport ttt\nprint(ttt.Game(3).ply)\n```\n<!-- output:\n1\n-->\n", "printed other"),
    ("Python continuing no sample", "<!-- sample: python continues -->\n```python\nprint(1)\n```\n",
     "no python sample comes before it"),
]
GOOD_PYTHON = "```python\nimport ttt\ngame = ttt.Game(3)\n```\n\n" \
              "<!-- sample: python continues -->\n```python\nprint(game.ply)\n```\n<!-- output:\n0\n-->\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source_root")
    parser.add_argument("--build", nargs=3, metavar=("BUILD_ROOT", "CC", "LIB"))
    parser.add_argument("--python")
    args = parser.parse_args()
    runner = [sys.executable, os.path.join(args.source_root, "tests", "docs", "run_samples.py"),
              "--source-root", args.source_root]
    cases, good = [], []
    if args.build:
        build, cc, lib = args.build
        extra = ["--build-root", build, "--cc", cc, "--lib", lib]
        cases += [(name, text, words, extra) for name, text, words in BROKEN]
        if shutil.which("apt-cache"):
            cases += [(name, text, words, extra) for name, text, words in BROKEN_APT]
        good.append(("the same kinds, right", GOOD, extra))
    if args.python:
        cases += [(name, text, words, ["--python", args.python]) for name, text, words in BROKEN_PYTHON]
        good.append(("python samples, right", GOOD_PYTHON, ["--python", args.python]))
    if not cases:
        parser.error("nothing to test: give --build or --python")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        def run(name, text, extra):
            path = os.path.join(tmp, "sample.md")
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            return subprocess.run(runner + extra + [path], capture_output=True, text=True, timeout=300)
        for name, text, words, extra in cases:
            result = run(name, text, extra)
            if result.returncode != 1 or words not in result.stdout:
                failed += 1
                print(f"FAIL: {name}: exit {result.returncode}, expected 1 and {words!r}:\n"
                      + result.stdout + result.stderr)
            else:
                print(f"ok: {name} fails the run")
        for name, text, extra in good:
            result = run(name, text, extra)
            if result.returncode != 0:
                failed += 1
                print(f"FAIL: {name}: exit {result.returncode}:\n" + result.stdout + result.stderr)
            else:
                print(f"ok: {name} pass: " + result.stdout.strip().split("\n")[-1])
    if failed:
        print(f"selftest: {failed} case(s) wrong")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
