"""Matches across machines: ``--shard K/N`` and ``arena.py merge``.

The GNU parallel test needs ``parallel`` (``.ci/run`` installs it); without it the test is
skipped with a message, unless ARENA_REQUIRE_TEST_DEPS=1 (as in CI)."""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import ARENA, PY, REPO, TETRAD, Run, fake, missing_dependency, run_arena  # noqa: E402
from pgncheck import read_pgn  # noqa: E402
from test_tetrad import needs  # noqa: E402
from arena import shards  # noqa: E402

FAST = ("--tc", "2+0.05")
TIMING = ("ms", "left", "seconds", "date", "site")


def tmpdir():
    d = tempfile.mkdtemp(prefix="arena-shard-")
    atexit.register(shutil.rmtree, d, True)
    return d


def merge(*dirs, out=None):
    out = out or tmpdir()
    p = subprocess.run([PY, ARENA, "merge"] + list(dirs) + ["--out", out], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=60, cwd=REPO)
    return Run(p.returncode, p.stdout.decode("utf-8", "replace"), p.stderr.decode("utf-8", "replace"), out)


def untimed(j):
    """A game's record without what depends on the clock, the date or the machine."""
    j = {k: v for k, v in j.items() if k not in TIMING}
    j["moves"] = [{k: v for k, v in m.items() if k not in TIMING} for m in j["moves"]]
    return j


class ShardUnitTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(shards.parse("2/4"), (2, 4))
        for bad in ("0/4", "5/4", "1", "a/b", "1/0"):
            with self.assertRaises(ValueError):
                shards.parse(bad)

    def test_pairs_dealt_round_robin(self):
        self.assertEqual(shards.indices(16, (2, 4)), [2, 3, 10, 11])
        self.assertEqual(shards.indices(5, (3, 3)), [4])
        every = sorted(i for k in range(1, 5) for i in shards.indices(16, (k, 4)))
        self.assertEqual(every, list(range(16)))


class MergeRefusalTest(unittest.TestCase):
    """Shards of different matches are refused, each with a message naming the difference."""

    @classmethod
    def setUpClass(cls):
        cls.engines = [fake("a"), fake("b", "--play random", proto="gtp")]
        cls.s1 = run_arena(cls.engines, "--games", 4, "--seed", 1, "--shard", "1/2", "--random-plies", 2, *FAST)
        cls.s2 = run_arena(cls.engines, "--games", 4, "--seed", 1, "--shard", "2/2", "--random-plies", 2, *FAST)

    def test_same_match_merges(self):
        self.assertEqual((self.s1.code, self.s2.code), (0, 0), (self.s1, self.s2))
        self.assertEqual([g["game"] for g in self.s1.games], [1, 2])
        self.assertEqual([g["game"] for g in self.s2.games], [3, 4])
        m = merge(self.s1.dir, self.s2.dir)
        self.assertEqual(m.code, 0, m)
        self.assertEqual([g["game"] for g in m.games], [1, 2, 3, 4])
        self.assertIn("4 of 4 games finished.", m.out)
        self.assertTrue(m.out.startswith("Merged 2 of 2 shards: toy, a vs b, 4 games, seed 1\n"), m.out)
        self.assertEqual(len(read_pgn(m)), 4)

    def refused(self, other, words):
        m = merge(self.s1.dir, other.dir)
        self.assertEqual(m.code, 1, m)
        self.assertTrue(m.err.startswith("arena merge: "), m.err)
        for w in words:
            self.assertIn(w, m.err)
        self.assertFalse(os.path.exists(os.path.join(m.dir, "games.jsonl")))

    def test_different_seed(self):
        other = run_arena(self.engines, "--games", 4, "--seed", 2, "--shard", "2/2", "--random-plies", 2, *FAST)
        self.refused(other, ["not shards of the same match", "seed 1 vs 2"])

    def test_different_engine(self):
        other = run_arena([self.engines[0], fake("b", proto="gtp")], "--games", 4, "--seed", 1, "--shard", "2/2",
                          "--random-plies", 2, *FAST)
        self.refused(other, ["not shards of the same match", "engines"])

    def test_different_settings(self):
        other = run_arena(self.engines, "--games", 4, "--seed", 1, "--shard", "2/2", "--random-plies", 2,
                          "--tc", "3+0.05")
        self.refused(other, ["tc \"2+0.05\" vs \"3+0.05\""])

    def test_same_shard_twice(self):
        self.refused(self.s1, ["are both shard 1/2"])

    def test_not_an_arena_directory(self):
        m = merge(self.s1.dir, tmpdir())
        self.assertEqual(m.code, 1, m)
        self.assertIn("has no match.json", m.err)

    def test_a_shard_with_no_games(self):
        r = run_arena(self.engines, "--games", 2, "--seed", 1, "--shard", "3/4", *FAST)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.games, [])
        self.assertIn("shard 3/4: 0 games", r.out)
        self.assertIn("0 of 0 games finished.", r.out)

    def test_shard_needs_a_seed(self):
        r = run_arena(self.engines, "--games", 4, "--shard", "1/2", *FAST)
        self.assertEqual(r.code, 2, r)
        self.assertIn("--shard needs --seed", r.err)


class ParallelShardsTest(unittest.TestCase):
    """A 16-game depth-limited tetrad match in 4 shards through GNU parallel (2 jobs at a
    time), merged, gives the same games and results as the match played in one run."""

    def test_parallel_shards_equal_one_run(self):
        needs("poddavki")
        parallel = shutil.which("parallel")
        if not parallel:
            missing_dependency("the sharding test needs GNU parallel (apt-get install parallel)")
        common = ["--game", "poddavki", "--engine", "cmd=%s,name=d2,proto=gtp,depth=2" % TETRAD,
                  "--engine", "cmd=%s,name=d1,proto=ugi,depth=1" % TETRAD, "--games", "16", "--tc", "inf",
                  "--random-plies", "4", "--max-plies", "120", "--seed", "21", "--quiet"]
        whole = run_arena([], *common[2:], game="poddavki", referee=None)
        self.assertEqual(whole.code, 0, whole)
        base = tmpdir()
        cmd = [parallel, "--will-cite", "-j", "2", "--halt", "now,fail=1", PY, ARENA] + common + [
            "--shard", "{}/4", "--out", os.path.join(base, "shard{}"), ":::", "1", "2", "3", "4"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300, cwd=REPO)
        self.assertEqual(p.returncode, 0, p.stderr.decode("utf-8", "replace"))
        dirs = [os.path.join(base, "shard%d" % k) for k in (1, 2, 3, 4)]
        m = merge(*dirs)
        self.assertEqual(m.code, 0, m)

        assert_same_as_one_run(self, m, whole, 16)


def assert_same_as_one_run(test, m, whole, games):
    """The merged run ``m`` holds the games of ``whole`` (one unsharded run of the same match),
    move for move, with the same results and report figures."""
    test.assertEqual(len(whole.games), games)
    test.assertEqual([untimed(j) for j in m.games], [untimed(j) for j in whole.games])
    for key in ("wins", "losses", "draws", "score", "elo", "elo_error", "los", "pairs", "reasons", "games_finished"):
        test.assertEqual(m.summary[key], whole.summary[key], key)
    for line in ("Score of", "...      ", "Elo difference", "Pairs"):
        test.assertEqual([x for x in m.out.splitlines() if x.startswith(line)],
                         [x for x in whole.out.splitlines() if x.startswith(line)])
    a, b = sorted(read_pgn(m), key=lambda g: int(g.tags["Round"])), sorted(read_pgn(whole), key=lambda g: int(g.tags["Round"]))
    tags = lambda g: {k: v for k, v in g.tags.items() if k not in ("Site", "Date")}  # noqa: E731
    test.assertEqual([(tags(g), g.moves, g.result) for g in a], [(tags(g), g.moves, g.result) for g in b])
    with open(os.path.join(m.dir, "report.html"), encoding="utf-8") as f:
        page = f.read()
    test.assertEqual(page.count('<tr class="game"'), games)
    with open(os.path.join(m.dir, "match.json"), encoding="utf-8") as f:
        test.assertIsNone(json.load(f)["shard"])


if __name__ == "__main__":
    unittest.main()
