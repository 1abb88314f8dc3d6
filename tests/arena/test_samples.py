"""The README's arena sample, replayed: its command is run as it stands (in a copy of the
checkout, with ``--out`` in a temporary directory) and its output compared with the text, times
masked. The engines search to fixed depths, so the games, and every count, are reproducible.

After a deliberate change of the report, ``python3 tests/arena/test_samples.py --update``
rewrites the README's output block from a real run; review the diff.
"""

import os
import re
import shlex
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import PY, REPO, checkout, doc_blocks  # noqa: E402
from test_shards import tmpdir  # noqa: E402
from test_tetrad import needs  # noqa: E402

DOC = "README.md"
# What the machine and its load decide: the times per move.
MASKS = ((re.compile(r"\b\d+(?:\.\d+)? ms\b"), "_ ms"),)


def mask(text):
    for pattern, repl in MASKS:
        text = pattern.sub(repl, text)
    return text


def command(block):
    """The arena command of the sample: its ``python3 scripts/arena.py`` line, continued."""
    line = next(x for x in block.replace("\\\n", " ").splitlines() if x.startswith("python3 scripts/arena.py"))
    return shlex.split(line)


def replay(block):
    """(exit code, stdout, stderr) of the sample's command, run in a copy of the checkout."""
    argv = command(block)
    root = tmpdir()
    checkout(root)
    out = argv.index("--out")
    argv[out + 1] = os.path.join(root, argv[out + 1])
    p = subprocess.run([PY] + argv[1:], cwd=root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    return p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace")


def update(text):
    """Write ``text`` as the README's ``<!-- recipe: arena output -->`` block."""
    path = os.path.join(REPO, DOC)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    at = lines.index("<!-- recipe: arena output -->")
    end = next(j for j in range(at + 2, len(lines)) if lines[j].startswith("```"))
    lines[at + 2:end] = text.rstrip("\n").split("\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


class ReadmeSampleTest(unittest.TestCase):
    maxDiff = None

    def test_readme_arena_sample_is_what_the_arena_prints(self):
        needs("poddavki")
        blocks = dict(doc_blocks(DOC, "arena"))
        code, out, err = replay(blocks[None])
        self.assertEqual(code, 0, out + err)
        if os.environ.get("ARENA_UPDATE_SAMPLES") == "1":
            update(out)
            return
        self.assertEqual(mask(blocks["output"]), mask(out),
                         "%s's arena sample is stale; after a deliberate change run "
                         "`python3 tests/arena/test_samples.py --update` and review the diff" % DOC)

    def test_masks_leave_counts(self):
        line = "depth4: 343 moves, 1.0 ms per move on average, 29.7 ms at most"
        self.assertEqual(mask(line), "depth4: 343 moves, _ ms per move on average, _ ms at most")


if __name__ == "__main__":
    if "--update" in sys.argv:
        sys.argv.remove("--update")
        os.environ["ARENA_UPDATE_SAMPLES"] = "1"
    unittest.main()
