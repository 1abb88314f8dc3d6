"""Real matches of tetrad against itself, refereed by tetrad. Skipped when
target/release/tetrad has not been built, and per game when tetrad does not play it."""

import os
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import TETRAD, run_arena  # noqa: E402

GAMES = ("poddavki", "phutball", "diamond", "pods-standard", "pods-advanced")


def tetrad_games():
    """The games tetrad's GTP list_games names, or None if tetrad is missing or fails."""
    if not os.path.exists(TETRAD):
        return None
    try:
        p = subprocess.run([TETRAD], input=b"1 list_games\n2 quit\n", stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=20)
    except (OSError, subprocess.SubprocessError):
        return None
    text = p.stdout.decode("utf-8", "replace")
    if "=1" not in text:
        return None
    body = text.split("=1", 1)[1].split("\n\n", 1)[0]
    return set(body.split())


AVAILABLE = tetrad_games()


def needs(game):
    if AVAILABLE is None:
        raise unittest.SkipTest("target/release/tetrad is not built (cargo build --release)")
    if game not in AVAILABLE:
        raise unittest.SkipTest("tetrad does not play %s yet" % game)


class TetradSelfPlayTest(unittest.TestCase):
    """tetrad (UGI) against tetrad (GTP) at 1+0.01: every game ends by the rules or by
    adjudication, with no illegal move, crash or time forfeit."""

    def play(self, game):
        needs(game)
        engines = ["cmd=%s,name=ugi,proto=ugi" % TETRAD, "cmd=%s,name=gtp,proto=gtp" % TETRAD]
        r = run_arena(engines, "--games", 2, "--tc", "1+0.01", "--concurrency", 2, "--max-plies", 200,
                      "--random-plies", 2, "--seed", 1, game=game, referee=None, timeout=100)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.score()[6], 2, r)
        self.assertEqual(len(r.games), 2)
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
