"""Real matches of tetrad against itself, refereed by tetrad. Skipped when
target/release/tetrad has not been built, and per game when tetrad does not play it."""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import TETRAD, run_arena  # noqa: E402

GAMES = ("poddavki", "phutball", "diamond", "pods-standard", "pods-advanced")


def _ask_tetrad(commands):
    """tetrad's GTP answers to ``commands`` as {id: (ok, text)}, or None if it cannot run."""
    script = "".join("%d %s\n" % (i, c) for i, c in enumerate(commands, 1)) + "%d quit\n" % (len(commands) + 1)
    try:
        p = subprocess.run([TETRAD], input=script.encode(), stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    answers = {}
    for block in p.stdout.decode("utf-8", "replace").split("\n\n"):
        block = block.strip()
        if block[:1] in ("=", "?"):
            head, _, rest = block[1:].partition(" ")
            if head.isdigit():
                answers[int(head)] = (block[0] == "=", rest.strip())
    return answers


_PLAYS = {}


def needs(game):
    """Skip unless tetrad is built; fail unless it can start the game and list its moves."""
    if not os.path.exists(TETRAD):
        raise unittest.SkipTest("target/release/tetrad is not built (cargo build --release)")
    if game not in _PLAYS:
        a = _ask_tetrad(["set_game " + game, "legal_moves"]) or {}
        ok1, ok2 = a.get(1, (False, "")), a.get(2, (False, ""))
        _PLAYS[game] = ok1[0] and ok2[0] and bool(ok2[1].split())
    if not _PLAYS[game]:
        # Every game of the contract is built in: a game that cannot start is a failure.
        raise AssertionError("tetrad cannot start %s" % game)


# ARENA_GAMES=20 turns the self-play tests into the full acceptance run.
SELF_PLAY_GAMES = int(os.environ.get("ARENA_GAMES", "2"))


class TetradSelfPlayTest(unittest.TestCase):
    """tetrad (UGI) against tetrad (GTP) at 1+0.01: every game ends by the rules or by
    adjudication, with no illegal move, crash or time forfeit."""

    def play(self, game):
        needs(game)
        n = SELF_PLAY_GAMES
        engines = ["cmd=%s,name=ugi,proto=ugi" % TETRAD, "cmd=%s,name=gtp,proto=gtp" % TETRAD]
        r = run_arena(engines, "--games", n, "--tc", "1+0.01", "--concurrency", 2, "--max-plies", 200,
                      "--random-plies", 2, "--seed", 1, game=game, referee=None, timeout=60 + 10 * n)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.score()[6], n, r)
        self.assertEqual(len(r.games), n)
        for g in r.games:
            self.assertNotIn("fault", g, g)
            self.assertNotEqual(g["result"], "*", g)
            self.assertGreater(g["plies"], 0)
        for reason in r.reasons():  # only results by the rules or by adjudication
            self.assertTrue(reason.startswith("Draw") or " wins" in reason, reason)
        return r


for _game in GAMES:
    def _test(self, game=_game):
        self.play(game)
    setattr(TetradSelfPlayTest, "test_" + _game.replace("-", "_"), _test)


class TetradStrengthTest(unittest.TestCase):
    def test_depth_4_beats_depth_1(self):
        game = os.environ.get("ARENA_STRENGTH_GAME", "poddavki")
        needs(game)
        engines = ["cmd=%s,name=depth4,proto=gtp,depth=4" % TETRAD, "cmd=%s,name=depth1,proto=gtp,depth=1" % TETRAD]
        r = run_arena(engines, "--games", 20, "--tc", "10+0.1", "--concurrency", 2, "--max-plies", 300,
                      "--random-plies", 4, "--seed", 1, game=game, referee=None, timeout=110)
        self.assertEqual(r.code, 0, r)
        a, b, w, l, d, s, n = r.score()
        self.assertEqual(n, 20)
        self.assertGreater(w, l, r.out)
        los = float(r.out.split("LOS: ")[1].split(" %")[0])
        self.assertGreater(los, 99.0, r.out)


if __name__ == "__main__":
    unittest.main()
