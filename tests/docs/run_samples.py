#!/usr/bin/env python3
"""run_samples.py - extracts every code sample and shell command of README.md and docs/*.md and runs it, so the docs cannot rot.

Usage: run_samples.py --source-root DIR [--build-root DIR] [--cc 'CC ARGS']
           [--lib PATH] [--python PY] [--lang LANG,...] [FILE.md ...]
  (FILEs default to README.md and docs/*.md of the source root)

A sample is a fenced code block (its info string names the language) or an
indented one (which needs a marker). An HTML comment on the line before a
block, a blank line allowed between, is its marker:

  <!-- sample: KIND [FLAGS] -->     the block is KIND (overrides the fence)
  <!-- sample: illustrative: WHY -->  not run (installs, builds, benchmarks)
  <!-- sample: output of: CMD -->     the block is what CMD prints
  <!-- sample: synopsis of: CMD -->   every command word and --option of the
                                      block appears in what CMD prints

Kinds, and what running one means:
  c        compiled with the build's compiler against the built library and
           include/, run; flag `fragment`: the block is the body of a main()
           that has `ttt_game *game` (a new 3x3 game) and `int state`
  python   run by --python (an interpreter with the package installed),
           from a scratch directory; flag `continues`: run after the file's
           previous python sample, in the same program
  rust     the main.rs of a scratch crate; its [dependencies] are the
           file's ```toml block that starts with [dependencies], the path
           read from a directory where ../libttt is this source tree
  sh       a script run by bash -e in a scratch directory where build/ is
           the build directory and the source tree's top-level entries
           are at hand; only its exit status counts. There, `cc` is the
           build's compiler (with its sanitizer flags), main.c is README.md's
           C sample and pkg-config finds the built libttt as `libttt`
  console  `$ CMD` lines, each run as an sh sample, followed by the output
           CMD must print
  apt      every package its `apt-get install` lines name is one apt knows
           (apt-cache show: the local lists, no download); no line of it is
           run (they install, and may build and start the server)
  record   every line is a save record `ttt replay` must accept
  json     must parse as JSON
  toml     a Rust sample's [dependencies] (see rust)
  http     a request or answer of docs/server.md: run by the server suite
           (tests/server/test_docs.py), only counted here

Output a sample must print is compared line by line (trailing blanks
ignored): a line `...` stands for any number of lines, and `...` inside a
line for any text (output that varies, such as timings). A c, python or rust
sample's expected output, when the doc states it, follows the block as

  <!-- output:
  the lines it prints
  -->

--lang runs only the kinds named; every block is still classified, and a
block whose kind is unknown and that has no marker fails the run. Exit
status: 0 when every sample run passed, 1 otherwise. Samples that need a
program this build lacks (ttt-server without its packages) or apt's lists are
left out and listed, outside CI; under CI=true that is a failure."""
import argparse
import glob
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

FENCE = re.compile(r"^( {0,3})(```+|~~~+)\s*([^`\s]*)")
MARKER = re.compile(r"^\s*<!-- sample: (.*?) -->\s*$")
OUTPUT_START = re.compile(r"^<!-- output:\s*$")
INFO_KINDS = {"c": "c", "python": "python", "py": "python", "rust": "rust",
              "sh": "sh", "bash": "sh", "shell": "sh", "console": "console",
              "json": "json", "toml": "toml", "http": "http"}
KINDS = {"c", "python", "rust", "sh", "console", "record", "apt", "json", "toml", "http",
         "illustrative", "output", "synopsis"}
TIMEOUT = 900  # seconds a single command or program may take (a busy machine: README.md builds and installs libttt)

C_FRAGMENT = """#include <stdio.h>
#include "ttt.h"

int main(void)
{
    ttt_game *game;
    int state = TTT_IN_PROGRESS;
    if (ttt_game_new(3, 0, &game) != TTT_OK)
        return 1;
#line %d "%s"
%s
    (void)state;
    ttt_game_free(game);
    return 0;
}
"""


class Sample:
    def __init__(self, path, line, kind, flags, text):
        self.path, self.line, self.kind, self.flags, self.text = path, line, kind, flags, text
        self.expected = None  # output the doc states, if any
        self.closed_at = None # the line of its closing fence (its last line if indented)
        self.arg = None       # illustrative: why; output/synopsis of: the command

    def where(self):
        return f"{self.path}:{self.line}"


def parse(path, shown):
    """The samples of one markdown file; problems (unknown kinds) go to errors."""
    lines = open(path, encoding="utf-8").read().split("\n")
    samples, errors = [], []
    marker = None  # (line number, spec) waiting for its block
    i, prev_blank = 0, True
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line)
        if m:
            if marker:
                errors.append(f"{shown}:{marker[0]}: a sample marker with no code block after it")
            marker = (i + 1, m.group(1).strip())
            i += 1
            prev_blank = True  # a block may follow at once
            continue
        if OUTPUT_START.match(line):
            end = i + 1
            while end < len(lines) and lines[end].strip() != "-->":
                end += 1
            if not samples or samples[-1].expected is not None or samples[-1].closed_at < i - 2:
                errors.append(f"{shown}:{i + 1}: an output comment that follows no code block")
            else:
                samples[-1].expected = "\n".join(lines[i + 1:end])
            i = end + 1
            prev_blank = True
            continue
        fence = FENCE.match(line)
        start = i + 1
        if fence:
            indent, ticks, info = len(fence.group(1)), fence.group(2), fence.group(3).lower()
            body, i = [], i + 1
            while i < len(lines) and not re.match(r"^ {0,3}" + re.escape(ticks[0]) + "{%d,}\\s*$" % len(ticks), lines[i]):
                body.append(lines[i][indent:] if lines[i][:indent].strip() == "" else lines[i])
                i += 1
            closed = i
            i += 1
        elif prev_blank and line.startswith("    ") and line.strip():
            info, body = "", []
            while i < len(lines) and (lines[i].startswith("    ") or not lines[i].strip()):
                body.append(lines[i][4:])
                i += 1
            while body and not body[-1].strip():
                body.pop()
            closed = i - 1
        else:
            if marker and line.strip():
                errors.append(f"{shown}:{marker[0]}: a sample marker with no code block after it")
                marker = None
            prev_blank = not line.strip()
            i += 1
            continue
        sample = Sample(shown, start, None, [], "\n".join(body) + "\n")
        sample.closed_at = closed
        spec = marker[1] if marker else ""
        marker = None
        if spec:
            head, _, arg = spec.partition(":")
            words = head.split() or [""]
            if words in (["output", "of"], ["synopsis", "of"], ["illustrative"]):
                sample.kind, sample.arg = words[0], arg.strip()
            else:
                sample.kind, sample.flags = words[0], words[1:]
            if sample.kind not in KINDS or sample.kind in ("illustrative", "output", "synopsis") \
                    and not sample.arg:
                errors.append(f"{shown}:{start}: marker '{spec}' is not one this runner knows")
                sample.kind = None
        else:
            sample.kind = INFO_KINDS.get(info)
            if sample.kind is None:
                what = f"info string '{info}'" if info else "an indented block" if not fence else "no info string"
                errors.append(f"{shown}:{start}: a code block ({what}) of no language this runner "
                              "knows and with no <!-- sample: ... --> marker")
        samples.append(sample)
        prev_blank = False
    if marker:
        errors.append(f"{shown}:{marker[0]}: a sample marker with no code block after it")
    return samples, errors


def matches(expected, actual):
    """Whether actual output lines fit the documented ones (`...` wildcards)."""
    exp = [l.rstrip() for l in expected.rstrip("\n").split("\n")] if expected.strip() else []
    act = [l.rstrip() for l in actual.rstrip("\n").split("\n")] if actual.strip() else []

    def line_fits(e, a):
        if "..." not in e:
            return e == a
        return re.fullmatch(".*".join(re.escape(part) for part in e.split("...")), a) is not None

    def fit(ei, ai):
        if ei == len(exp):
            return ai == len(act)
        if exp[ei] == "...":
            return any(fit(ei + 1, k) for k in range(ai, len(act) + 1))
        return ai < len(act) and line_fits(exp[ei], act[ai]) and fit(ei + 1, ai + 1)
    return fit(0, 0)


class Runner:
    def __init__(self, args):
        self.args = args
        self.root = os.path.abspath(args.source_root)
        self.build = os.path.abspath(args.build_root) if args.build_root else None
        self.scratch = tempfile.mkdtemp(prefix="ttt-doc-samples-")
        self.failures = []
        self.python_so_far = {}  # path -> (the python program so far, what it printed)
        self.toml = {}           # path -> its [dependencies] toml block
        self.shell_dir = None
        self.unavailable = []    # samples whose program this system or build lacks
        self.main_c = None       # README.md's C sample, main.c of the shell samples

    def fail(self, sample, why, output=""):
        self.failures.append(f"{sample.where()}: {sample.kind}: {why}" +
                             (("\n    " + output.rstrip().replace("\n", "\n    ")) if output.strip() else ""))

    def run(self, cmd, cwd, env=None):
        """Runs cmd with empty standard input: no sample may wait for a terminal."""
        try:
            return subprocess.run(cmd, cwd=cwd, input="", env=env, capture_output=True,
                                  text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return subprocess.CompletedProcess(cmd, -1, "", f"timed out after {TIMEOUT} s")

    def check(self, sample, result, what):
        if result.returncode != 0:
            self.fail(sample, f"{what} exited {result.returncode}", result.stdout + result.stderr)
            return False
        if sample.expected is not None and not matches(sample.expected, result.stdout):
            self.fail(sample, f"{what} printed other than the doc shows", "printed:\n" + result.stdout)
            return False
        return True

    def sandbox(self):
        """The shell samples' directory: build/ and the source tree's entries at hand."""
        if self.shell_dir is None:
            self.shell_dir = os.path.join(self.scratch, "sh")
            os.mkdir(self.shell_dir)
            for name in os.listdir(self.root):
                if name != "build" and not name.startswith("."):
                    os.symlink(os.path.join(self.root, name), os.path.join(self.shell_dir, name))
            os.symlink(self.build, os.path.join(self.shell_dir, "build"))
            if self.main_c is not None:
                with open(os.path.join(self.shell_dir, "main.c"), "w", encoding="utf-8") as f:
                    f.write(self.main_c)
            tools = os.path.join(self.scratch, "tools")
            os.mkdir(tools)
            if self.args.cc:
                # Full paths: this `cc` comes first on PATH, and must not call itself.
                words = [w if w.startswith("-") else shutil.which(w) or w for w in shlex.split(self.args.cc)]
                with open(os.path.join(tools, "cc"), "w", encoding="utf-8") as f:
                    f.write('#!/bin/sh\nexec %s "$@" %s\n' % (shlex.join(words), self.args.cflags or ""))
                os.chmod(os.path.join(tools, "cc"), 0o755)
            # The build's uninstalled pkg-config file, under the installed name.
            uninstalled = os.path.join(self.build, "meson-uninstalled", "libttt-uninstalled.pc")
            if os.path.exists(uninstalled):
                shutil.copy(uninstalled, os.path.join(tools, "libttt.pc"))
        return self.shell_dir

    def shell_env(self):
        env = dict(os.environ)
        tools = os.path.join(self.scratch, "tools")
        env["PATH"] = os.pathsep.join([tools, os.path.join(self.build, "examples"),
                                       os.path.join(self.build, "examples", "server"), env["PATH"]])
        env["PKG_CONFIG_PATH"] = tools
        return env

    def shell(self, command):
        return self.run(["bash", "-e", "-o", "pipefail", "-c", command], self.sandbox(),
                        env=self.shell_env())

    def run_sh(self, sample):
        self.check(sample, self.shell(sample.text), "the script")

    def run_console(self, sample):
        commands = []
        for line in sample.text.rstrip("\n").split("\n"):
            if line.startswith("$ "):
                commands.append([line[2:], []])
            elif commands:
                commands[-1][1].append(line)
            else:
                self.fail(sample, f"output before any `$ command` line: {line!r}")
                return
        if not commands:
            self.fail(sample, "no `$ command` line")
        for command, output in commands:
            result = self.shell(command)
            if result.returncode != 0:
                self.fail(sample, f"`{command}` exited {result.returncode}", result.stdout + result.stderr)
            elif not matches("\n".join(output), result.stdout):
                self.fail(sample, f"`{command}` printed other than the doc shows",
                          "printed:\n" + result.stdout)

    def built(self, sample):
        """Whether the build has the program a command names; if not, noted."""
        program = shlex.split(sample.arg)[0]
        if not program.startswith("build/") or os.path.exists(os.path.join(self.build, program[6:])):
            return True
        self.unavailable.append(f"{sample.where()}: {program} is not built")
        return False

    def run_output(self, sample):
        if not self.built(sample):
            return
        result = self.shell(sample.arg)
        if result.returncode != 0:
            self.fail(sample, f"`{sample.arg}` exited {result.returncode}", result.stdout + result.stderr)
        elif not matches(sample.text, result.stdout):
            self.fail(sample, f"`{sample.arg}` printed other than the doc shows", "printed:\n" + result.stdout)

    def run_synopsis(self, sample):
        if not self.built(sample):
            return
        result = self.shell(sample.arg)
        if result.returncode != 0:
            self.fail(sample, f"`{sample.arg}` exited {result.returncode}", result.stdout + result.stderr)
            return
        program = os.path.basename(shlex.split(sample.arg)[0])
        words = set(re.findall(r"(?<![\w-])--[a-z][\w-]*", sample.text))
        words |= {f"{program} {w}" for w in
                  re.findall(r"^\s*" + re.escape(program) + r" ([a-z]\w*)", sample.text, re.M)}
        missing = sorted(w for w in words if w not in result.stdout)
        if missing:
            self.fail(sample, f"`{sample.arg}` does not mention " + ", ".join(missing))

    def run_record(self, sample):
        for n, line in enumerate(l for l in sample.text.split("\n") if l.strip()):
            path = os.path.join(self.scratch, f"record-{n}.ttt")
            with open(path, "w", encoding="utf-8") as f:
                f.write(line + "\n")
            result = self.run([os.path.join(self.build, "examples", "ttt"), "replay", path], self.scratch)
            if result.returncode != 0:
                self.fail(sample, f"`ttt replay` refused {line!r}", result.stdout + result.stderr)

    def run_apt(self, samples):
        """One apt-cache call for every sample: without a package cache on disk
        (Debian's container images keep none), each call reads all the lists."""
        if shutil.which("apt-cache") is None:
            self.unavailable += [f"{s.where()}: apt-cache is not installed (not a Debian system)"
                                 for s in samples]
            return
        names = {}
        for s in samples:
            text = s.text.replace("\\\n", " ")
            names[s] = [w for line in re.findall(r"apt-get install (.*)", text)
                        for w in line.split() if not w.startswith("-")]
            if not names[s]:
                self.fail(s, "no `apt-get install` line")
        every = sorted({n for ns in names.values() for n in ns})
        result = self.run(["apt-cache", "show", "--no-all-versions"] + every, self.scratch)
        found = set(re.findall(r"^Package: (\S+)", result.stdout, re.M))
        for s, ns in names.items():
            unknown = [n for n in ns if n not in found]
            if not found:  # no lists at all (a fresh image): nothing to check against
                self.unavailable.append(f"{s.where()}: apt knows no package (run apt-get update)")
            elif unknown:
                self.fail(s, "apt knows no package " + ", ".join(unknown))

    def run_json(self, sample):
        try:
            json.loads(sample.text)
        except ValueError as e:
            self.fail(sample, f"not JSON: {e}")

    def run_c(self, sample, n):
        src = os.path.join(self.scratch, f"sample{n}.c")
        exe = os.path.join(self.scratch, f"sample{n}")
        text = sample.text
        if "fragment" in sample.flags:
            text = C_FRAGMENT % (sample.line, sample.path, text)
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        lib = os.path.abspath(self.args.lib)
        cmd = shlex.split(self.args.cc) + ["-std=c11", "-Wall", "-Wextra", "-Wpedantic", "-Werror",
                                           "-I", os.path.join(self.root, "include"), src, lib,
                                           "-o", exe] + shlex.split(self.args.cflags or "")
        if lib.endswith(".a"):
            cmd.append("-pthread")  # the per-game lock's threads library
        else:
            cmd.append("-Wl,-rpath," + os.path.dirname(lib))
        result = self.run(cmd, self.scratch)
        if result.returncode != 0:
            self.fail(sample, "does not compile: " + shlex.join(cmd), result.stdout + result.stderr)
            return
        self.check(sample, self.run([exe], self.scratch), "the program")

    def run_python(self, sample):
        """Runs the sample (after the ones it continues); compares what it adds to the output."""
        text, printed_before = sample.text, ""
        if "continues" in sample.flags:
            if sample.path not in self.python_so_far:
                self.fail(sample, "marked `continues` but no python sample comes before it")
                return
            text = self.python_so_far[sample.path][0] + text
            printed_before = self.python_so_far[sample.path][1]
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LIBTTT_PATH")}
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        result = self.run([self.args.python, "-c", text], self.scratch, env=env)
        self.python_so_far[sample.path] = (text, result.stdout)
        if result.stdout.startswith(printed_before):
            result.stdout = result.stdout[len(printed_before):]
        self.check(sample, result, "the program")

    def run_rust(self, samples):
        """Every rust sample a binary of one scratch crate per doc; one cargo build each."""
        base = os.path.join(self.scratch, "rust")
        os.makedirs(base, exist_ok=True)
        os.symlink(self.root, os.path.join(base, "libttt"))
        env = {k: v for k, v in os.environ.items()
               if k not in ("LIBTTT_LIB_DIR", "TTT_SYS_USE_PKG_CONFIG", "RUSTFLAGS")}
        env.setdefault("CARGO_TARGET_DIR", os.path.join(base, "target"))
        by_doc = {}
        for n, s in enumerate(samples):
            by_doc.setdefault(s.path, []).append((n, s))
        for doc, items in by_doc.items():
            crate = os.path.join(base, "app%d" % len(os.listdir(base)))
            os.makedirs(os.path.join(crate, "src", "bin"))
            deps = self.toml.get(doc, '[dependencies]\nttt = { path = "../libttt/bindings/rust/ttt" }\n')
            with open(os.path.join(crate, "Cargo.toml"), "w", encoding="utf-8") as f:
                f.write('[package]\nname = "doc-samples"\nversion = "0.0.0"\nedition = "2021"\n'
                        'publish = false\n\n[workspace]\n\n' + deps)
            for n, s in items:
                with open(os.path.join(crate, "src", "bin", f"sample{n}.rs"), "w", encoding="utf-8") as f:
                    f.write(s.text)
            result = self.run(["cargo", "build", "--offline", "--quiet", "--bins"], crate, env=env)
            if result.returncode != 0:
                for _, s in items:
                    self.fail(s, "the scratch crate does not build", result.stdout + result.stderr)
                continue
            for n, s in items:
                exe = os.path.join(env["CARGO_TARGET_DIR"], "debug", f"sample{n}")
                self.check(s, self.run([exe], crate), "the program")


def missing_tool(kinds, samples, args):
    """The first tool a requested kind needs that is not there, and its Debian package."""
    needs = []
    if "c" in kinds:
        needs.append(([w for w in shlex.split(args.cc) if not w.startswith("-")][-1], "gcc"))
    if kinds & {"sh", "console", "output", "synopsis"}:
        needs.append(("bash", "bash"))
    if "python" in kinds:
        needs.append((args.python, "python3"))
        if any("import numpy" in s.text for s in samples if s.kind == "python") and \
                shutil.which(args.python) and subprocess.run(
                    [args.python, "-c", "import numpy"], capture_output=True).returncode != 0:
            return "numpy for " + args.python, "python3-numpy"
    if "sh" in kinds and any("pkg-config" in s.text for s in samples if s.kind == "sh"):
        needs.append(("pkg-config", "pkg-config"))
    if "rust" in kinds:
        needs.append(("cargo", "cargo"))
    for tool, package in needs:
        if shutil.which(tool) is None:
            return tool, package
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--source-root", required=True)
    parser.add_argument("--build-root")
    parser.add_argument("--cc", help="the C compiler command, e.g. 'ccache gcc'")
    parser.add_argument("--cflags", help="extra compile and link flags, e.g. the build's sanitizers")
    parser.add_argument("--lib", help="the built libttt (.a or .so)")
    parser.add_argument("--python", help="a python with the ttt package installed")
    parser.add_argument("--lang", help="the kinds to run, comma-separated (default: all)")
    parser.add_argument("files", nargs="*")
    args = parser.parse_args()

    root = os.path.abspath(args.source_root)
    files = args.files or [os.path.join(root, "README.md")] + sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    runnable = {"c", "python", "rust", "sh", "console", "output", "synopsis", "record", "json", "apt"}
    wanted = set(args.lang.split(",")) if args.lang else runnable
    if wanted - runnable:
        parser.error("--lang: unknown kinds " + ", ".join(sorted(wanted - runnable)))
    needs = {"c": ["cc", "lib", "build_root"], "python": ["python"],
             "sh": ["build_root"], "console": ["build_root"], "output": ["build_root"],
             "synopsis": ["build_root"], "record": ["build_root"]}

    samples, errors = [], []
    for path in files:
        shown = os.path.relpath(os.path.abspath(path), root)
        if shown.startswith(".."):
            shown = path
        found, problems = parse(path, shown)
        samples += found
        errors += problems
    if errors:
        print("\n".join(errors))
        print(f"run_samples: FAIL: {len(errors)} block(s) of no known kind (mark them: see run_samples.py)")
        return 1

    kinds_present = {s.kind for s in samples} & wanted
    for kind in sorted(kinds_present):
        for option in needs.get(kind, []):
            if getattr(args, option) is None:
                parser.error(f"running {kind} samples needs --{option.replace('_', '-')}")
    tool = missing_tool(kinds_present, samples, args)
    if tool:
        print(f"run_samples: SKIP: {tool[0]} is not installed (Debian: apt-get install {tool[1]})")
        return 1 if os.environ.get("CI") == "true" else 77

    runner = Runner(args)
    counts = {}
    try:
        for s in samples:
            if s.kind == "toml" and s.text.lstrip().startswith("[dependencies]"):
                runner.toml[s.path] = s.text
            if s.kind == "c" and s.path == "README.md" and runner.main_c is None:
                runner.main_c = s.text
        rust, apt = [], []
        for n, s in enumerate(samples):
            if s.kind not in wanted:
                continue
            before = len(runner.failures)
            if s.kind in ("rust", "apt"):
                (rust if s.kind == "rust" else apt).append(s)
                continue
            getattr(runner, "run_" + s.kind)(*((s, n) if s.kind == "c" else (s,)))
            counts[s.kind] = counts.get(s.kind, 0) + 1
            print(f"{'ok  ' if len(runner.failures) == before else 'FAIL'} {s.where()} {s.kind}", flush=True)
        if apt:
            before = len(runner.failures)
            runner.run_apt(apt)
            counts["apt"] = len(apt)
            print(f"{'ok  ' if len(runner.failures) == before else 'FAIL'} {len(apt)} apt sample(s): "
                  + ", ".join(s.where() for s in apt), flush=True)
        if rust:
            before = len(runner.failures)
            runner.run_rust(rust)
            counts["rust"] = len(rust)
            counts["toml"] = sum(1 for s in samples if s.kind == "toml" and s.path in runner.toml
                                 and s.path in {r.path for r in rust})
            print(f"{'ok  ' if len(runner.failures) == before else 'FAIL'} {len(rust)} rust sample(s): "
                  + ", ".join(s.where() for s in rust), flush=True)
    finally:
        shutil.rmtree(runner.scratch, ignore_errors=True)

    tally = {}
    for s in samples:
        tally[s.kind] = tally.get(s.kind, 0) + 1
    ran = sum(counts.values())
    others = [f"{k} {v}" + (" (tests/server/test_docs.py)" if k == "http" else "")
              for k, v in sorted(tally.items()) if k not in counts and k != "illustrative"]
    print("run_samples: ran " + (", ".join(f"{k} {counts[k]}" for k in sorted(counts)) or "nothing")
          + f" ({ran} of {len(samples)} blocks in {len(files)} files); illustrative (marked, not run): "
          + str(tally.get("illustrative", 0))
          + ("; left to other runs: " + ", ".join(others) if others else ""))
    if runner.failures:
        print("\n".join(runner.failures))
        print(f"run_samples: FAIL: {len(runner.failures)} sample(s) failed")
        return 1
    if runner.unavailable:
        # ttt-server is built only where its packages are (-Dserver=auto), and
        # its own suite is then absent too: outside CI the samples of what
        # this build lacks are left out, said here, and the rest still count.
        print("\n".join(runner.unavailable))
        print("run_samples: the samples above were not run: they need programs this system or "
              "build lacks (the server: apt-get install libmicrohttpd-dev libsqlite3-dev "
              "libjansson-dev, then meson setup --reconfigure)")
        if os.environ.get("CI") == "true":
            print("run_samples: FAIL: CI runs every sample")
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
