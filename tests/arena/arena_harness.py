"""Shared helpers for the arena tests: paths, and running the arena on the toy fakes."""

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(REPO, "scripts")
ARENA = os.path.join(SCRIPTS, "arena.py")
TETRAD = os.environ.get("TETRAD_BIN") or os.path.join(REPO, "target", "release", "tetrad")
PY = sys.executable or "python3"

if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)

FAKE_REFEREE = "%s %s" % (PY, os.path.join(HERE, "fake_referee.py"))


def fake(name, *flags, proto="ugi", extra=""):
    """An --engine spec for the fake engine."""
    cmd = "%s %s --name %s %s" % (PY, os.path.join(HERE, "fake_engine.py"), name, " ".join(flags))
    spec = "cmd=%s,name=%s,proto=%s" % (cmd.strip(), name, proto)
    return spec + ("," + extra if extra else "")


class Run:
    def __init__(self, code, out, err, outdir):
        self.code = code
        self.out = out
        self.err = err
        self.dir = outdir
        path = os.path.join(outdir, "games.jsonl")
        self.games = []
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                self.games = [json.loads(line) for line in f if line.strip()]
        self.games.sort(key=lambda g: g["game"])
        spath = os.path.join(outdir, "summary.json")
        self.summary = None
        if os.path.exists(spath):
            with open(spath, encoding="utf-8") as f:
                self.summary = json.load(f)

    def score(self):
        """(a, b, w, l, d, score, n) from the 'Score of' line."""
        m = re.search(r"^Score of (\S+) vs (\S+): (\d+) - (\d+) - (\d+)  \[(\d\.\d{3})\] (\d+)$", self.out, re.M)
        if m is None:
            raise AssertionError("no score line in:\n" + self.out + self.err)
        g = m.groups()
        return g[0], g[1], int(g[2]), int(g[3]), int(g[4]), float(g[5]), int(g[6])

    def reasons(self):
        """{reason: count} from the 'Result reasons:' block."""
        block = self.out.split("Result reasons:\n", 1)[1]
        out = {}
        for line in block.splitlines():
            m = re.match(r"^(.*): (\d+)$", line)
            if m:
                out[m.group(1)] = int(m.group(2))
        return out

    def __repr__(self):
        return "exit %s\n--- stdout\n%s\n--- stderr\n%s" % (self.code, self.out, self.err)


def run_arena(engines, *args, game="toy", referee=FAKE_REFEREE, timeout=120, outdir=None):
    if outdir is None:
        outdir = tempfile.mkdtemp(prefix="arena-test-")
        atexit.register(shutil.rmtree, outdir, True)
    argv = [PY, ARENA, "--game", game, "--out", outdir, "--quiet"]
    if referee:
        argv += ["--referee", referee]
    for e in engines:
        argv += ["--engine", e]
    argv += [str(a) for a in args]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=REPO)
    return Run(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), outdir)


def missing_dependency(text):
    """Skip the test for a missing tool, with ``text`` saying what to install; a failure instead
    under ARENA_REQUIRE_TEST_DEPS=1 (as in CI, which installs every tool)."""
    import unittest
    if os.environ.get("ARENA_REQUIRE_TEST_DEPS") == "1":
        raise AssertionError(text + "; ARENA_REQUIRE_TEST_DEPS=1 makes that a failure")
    raise unittest.SkipTest(text)


def doc_blocks(doc, name):
    """The fenced blocks of ``doc`` (a path under the repository) that follow a line
    ``<!-- recipe: NAME [FILE] -->``, as (FILE or None, text): the recipes the tests run as
    they stand, so that the documents cannot drift from what works."""
    with open(os.path.join(REPO, doc), encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = []
    for i, line in enumerate(lines):
        m = re.match(r"^<!-- recipe: (\S+)(?: (\S+))? -->$", line.strip())
        if not m or m.group(1) != name:
            continue
        start = i + 1
        if start >= len(lines) or not lines[start].startswith("```"):
            raise AssertionError("%s:%d: a recipe marker must be followed by a fenced block" % (doc, i + 1))
        end = next(j for j in range(start + 1, len(lines)) if lines[j].startswith("```"))
        out.append((m.group(2), "\n".join(lines[start + 1:end]) + "\n"))
    if not out:
        raise AssertionError("%s has no <!-- recipe: %s --> block" % (doc, name))
    return out
