"""Shared helpers for the arena tests: paths, and running the arena on the toy fakes."""

import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(REPO, "scripts")
ARENA = os.path.join(SCRIPTS, "arena.py")
TETRAD = os.environ.get("TETRAD_BIN") or os.path.join(REPO, "target", "release", "tetrad")
PY = sys.executable or "python3"
# The runner and the fakes use the standard library alone: -S (no site packages) holds them to
# that, and spares each of the suite's hundreds of Python start-ups the site set-up.
PY_STDLIB = "%s -S" % PY

if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)
# the protocol client (python/tetrad/engine.py), for tests that speak to tetrad themselves
if os.path.join(REPO, "python") not in sys.path:
    sys.path.insert(0, os.path.join(REPO, "python"))

FAKE_REFEREE = "%s %s" % (PY_STDLIB, os.path.join(HERE, "fake_referee.py"))


def _report_skips():
    """unittest shows a skipped test as a bare ``s`` unless run verbose, and a missing tool then
    goes unnoticed: print the reason as well. Under ARENA_REQUIRE_TEST_DEPS=1 (CI, which installs
    every tool) a skip is a failure, whichever test it comes from."""
    base = unittest.TextTestResult.addSkip
    if getattr(base, "prints_reason", False):
        return

    def add_skip(self, test, reason):
        if os.environ.get("ARENA_REQUIRE_TEST_DEPS") == "1":
            err = AssertionError("skipped (%s); ARENA_REQUIRE_TEST_DEPS=1 makes a skip a failure" % reason)
            self.addFailure(test, (AssertionError, err, None))
            return
        base(self, test, reason)
        if not self.showAll:
            self.stream.write("\nskipped %s: %s\n" % (test.id(), reason))
            self.stream.flush()

    add_skip.prints_reason = True
    unittest.TextTestResult.addSkip = add_skip


_report_skips()


def fake(name, *flags, proto="ugi", extra=""):
    """An --engine spec for the fake engine."""
    cmd = "%s %s --name %s %s" % (PY_STDLIB, os.path.join(HERE, "fake_engine.py"), name, " ".join(flags))
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
    argv = [PY, "-S", ARENA, "--game", game, "--out", outdir, "--quiet"]
    if referee:
        argv += ["--referee", referee]
    for e in engines:
        argv += ["--engine", e]
    argv += [str(a) for a in args]
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout, cwd=REPO)
    return Run(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), outdir)


def checkout(root):
    """What a machine needs of a tetrad checkout to play: the arena, the protocol client it
    speaks through (the Python package's pure-Python modules) and the built binary."""
    os.makedirs(os.path.join(root, "scripts"))
    shutil.copy2(ARENA, os.path.join(root, "scripts"))
    shutil.copytree(os.path.join(SCRIPTS, "arena"), os.path.join(root, "scripts", "arena"),
                    ignore=shutil.ignore_patterns("__pycache__"))
    os.makedirs(os.path.join(root, "python", "tetrad"))
    for name in os.listdir(os.path.join(REPO, "python", "tetrad")):
        if name.endswith(".py"):
            shutil.copy2(os.path.join(REPO, "python", "tetrad", name), os.path.join(root, "python", "tetrad", name))
    os.makedirs(os.path.join(root, "target", "release"))
    shutil.copy2(TETRAD, os.path.join(root, "target", "release", "tetrad"))


def missing_dependency(text):
    """Skip the test for a missing tool, with ``text`` saying what to install; a failure instead
    under ARENA_REQUIRE_TEST_DEPS=1 (as in CI, which installs every tool)."""
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
