"""Tournaments of more than two engines: the rating fit against hand-computed cases, the
schedule, and whole tournaments of the toy fakes (round robin, gauntlet, shards merged)."""

import json
import math
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import ARENA, PY, TETRAD, fake, run_arena  # noqa: E402
from pgncheck import assert_pgn_matches  # noqa: E402
from test_tetrad import identity, needs  # noqa: E402
from arena import ratings, tournament  # noqa: E402

ELO_PER_LOG_ODDS = 400.0 / math.log(10.0)


class RatingFitTest(unittest.TestCase):
    def test_hand_computed_three_engines(self):
        """A scores 3 of 4 against B, B 3 of 4 against C, A 9 of 10 against C. Odds of 3 to 1
        twice make odds of 9 to 1, so these results fit the model exactly: the maximum-likelihood
        ratings reproduce every pairing, A - B = B - C = 400 log10(3) = 190.85.

        Errors: the Fisher information (anchor A removed) is, per pairing, games x p (1 - p):
        AB 4 x 3/16 = 0.75, BC 0.75, AC 10 x 9/100 = 0.9, so
            I = [[0.75 + 0.75, -0.75], [-0.75, 0.9 + 0.75]] = [[1.5, -0.75], [-0.75, 1.65]],
        det 1.9125; the variances (log-odds) are 1.65 / 1.9125 = 0.862745 for B and
        1.5 / 1.9125 = 0.784314 for C. 95 %: 1.96 x sqrt(var) x 400 / ln 10."""
        fit = ratings.fit(["A", "B", "C"], {(0, 1): (3, 4), (1, 2): (3, 4), (0, 2): (9, 10)})
        self.assertEqual(fit.prior, 0)
        self.assertEqual(fit.elo[0], 0.0)
        self.assertAlmostEqual(fit.elo[1], -190.8485, places=3)
        self.assertAlmostEqual(fit.elo[2], -381.6970, places=3)
        self.assertEqual(fit.error[0], 0.0)
        self.assertAlmostEqual(fit.error[1], 1.959964 * math.sqrt(1.65 / 1.9125) * ELO_PER_LOG_ODDS, places=3)
        self.assertAlmostEqual(fit.error[2], 1.959964 * math.sqrt(1.5 / 1.9125) * ELO_PER_LOG_ODDS, places=3)
        self.assertAlmostEqual(fit.error[1], 316.25, places=1)
        self.assertAlmostEqual(fit.error[2], 301.53, places=1)
        self.assertEqual(fit.points, [12.0, 4.0, 2.0])
        self.assertEqual(fit.games, [14, 8, 14])
        self.assertEqual(fit.ranked(), [0, 1, 2])

    def test_anchor_and_draws(self):
        """Draws count half: B and C draw everything, and both score 1 of 2 against A; anchored on
        B, all three are equal. A result given in either order is the same result."""
        fit = ratings.fit(["A", "B", "C"], {(1, 0): (1, 2), (0, 2): (1, 2), (1, 2): (2, 4)}, anchor=1)
        for e in fit.elo:
            self.assertAlmostEqual(e, 0.0, places=6)
        self.assertEqual(fit.error[1], 0.0)
        self.assertGreater(fit.error[0], 0.0)

    def test_a_perfect_score_gets_a_virtual_draw_per_pairing(self):
        """A beat B in all 4 games: no finite maximum. With one virtual draw added (4.5 of 5),
        the fit is exact again: 400 log10(4.5 / 0.5) = 381.70."""
        fit = ratings.fit(["A", "B"], {(0, 1): (4, 4)})
        self.assertEqual(fit.prior, 1)
        self.assertAlmostEqual(fit.elo[1], -400 * math.log10(9.0), places=3)

    def test_not_connected_to_the_anchor(self):
        fit = ratings.fit(["A", "B", "C", "D"], {(0, 1): (1, 2), (2, 3): (1, 2)})
        self.assertAlmostEqual(fit.elo[1], 0.0, places=6)
        self.assertTrue(math.isnan(fit.elo[2]) and math.isnan(fit.elo[3]))


class ScheduleTest(unittest.TestCase):
    def test_pairings(self):
        self.assertEqual(tournament.pairings("round-robin", 4), [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)])
        self.assertEqual(tournament.pairings("gauntlet", 4), [(0, 1), (0, 2), (0, 3)])
        self.assertEqual(tournament.pairings(None, 2), [(0, 1)])

    def test_rounds_and_numbers_within_a_pairing(self):
        pairs = tournament.pairings("gauntlet", 3)
        got = [tournament.schedule(pairs, 2, i) for i in range(8)]
        self.assertEqual(got, [(0, 1, 0), (0, 1, 1), (0, 2, 0), (0, 2, 1), (0, 1, 2), (0, 1, 3), (0, 2, 2), (0, 2, 3)])
        # a two-engine match: the game's number is its number in the match
        self.assertEqual([tournament.schedule([(0, 1)], 10, i) for i in range(3)], [(0, 1, 0), (0, 1, 1), (0, 1, 2)])


FAST = ("--tc", "2+0.05")


def players():
    # restart=on: a fresh process per game, so a fake's random choices depend on the game alone
    return [fake("opt", extra="restart=on"), fake("one", "--play one", extra="restart=on"),
            fake("wait", "--play wait", extra="restart=on")]


def crosstable_of(games):
    """{(x, y): [x's points, games]} counted from games.jsonl."""
    out = {}
    for g in games:
        p1 = {"1-0": 1.0, "0-1": 0.0}.get(g["result"], 0.5)
        for x, y, pts in ((g["p1"], g["p2"], p1), (g["p2"], g["p1"], 1.0 - p1)):
            c = out.setdefault((x, y), [0.0, 0])
            c[0] += pts
            c[1] += 1
    return out


class RoundRobinOfFakesTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.r = run_arena(players(), "--games", 2, "--rounds", 2, "--random-plies", 2, "--seed", 4,
                          "--concurrency", 2, *FAST)

    def test_every_pairing_plays_the_same_openings_with_colours_reversed(self):
        r = self.r
        self.assertEqual(r.code, 0, r)
        self.assertTrue(r.out.startswith("Tournament: toy, round-robin of opt, one, wait, 3 pairings x 2 games x 2 rounds = 12 games"), r.out)
        self.assertEqual([g["game"] for g in r.games], list(range(1, 13)))
        by_pairing = {}
        for g in r.games:
            key = tuple(sorted((g["p1"], g["p2"])))
            by_pairing.setdefault(key, []).append(g)
        self.assertEqual(sorted(by_pairing), [("one", "opt"), ("one", "wait"), ("opt", "wait")])
        openings = None
        for key, games in by_pairing.items():
            self.assertEqual([g["round"] for g in games], [1, 1, 2, 2])
            self.assertEqual([g["pair"] for g in games], [1, 1, 2, 2])
            seq = [(g["start"], tuple(g["opening"])) for g in games]
            self.assertEqual(seq[0], seq[1])
            self.assertEqual(seq[2], seq[3])
            self.assertEqual((games[0]["p1"], games[1]["p1"]), (games[1]["p2"], games[0]["p2"]))  # colours reversed
            openings = openings or seq
            self.assertEqual(seq, openings, key)

    def test_crosstable_and_ratings_in_the_report_and_summary(self):
        r = self.r
        cross = crosstable_of(r.games)
        s = r.summary
        self.assertEqual(s["tournament"], "round-robin")
        self.assertEqual(s["games_per_pairing"], 4)
        for (x, y), (pts, n) in cross.items():
            self.assertEqual((s["crosstable"][x][y]["points"], s["crosstable"][x][y]["games"]), (pts, n))
        elo = {e["name"]: e["elo"] for e in s["ratings"]["engines"]}
        self.assertEqual(s["ratings"]["anchor"], "opt")
        self.assertEqual(elo["opt"], 0.0)
        # the same fit as the results of games.jsonl give
        names = ["opt", "one", "wait"]
        results = {(names.index(x), names.index(y)): tuple(c) for (x, y), c in cross.items() if names.index(x) < names.index(y)}
        fit = ratings.fit(names, results)
        self.assertEqual(s["ratings"]["prior_draws"], fit.prior)
        for k, name in enumerate(names):
            self.assertAlmostEqual(elo[name], fit.elo[k], places=6)
        self.assertEqual([e["name"] for e in s["ratings"]["engines"]], [names[k] for k in fit.ranked()])
        self.assertIn("Ratings (maximum likelihood over all games, anchored on opt = 0", r.out)
        self.assertIn("Crosstable (the row engine's points against the column engine / games):", r.out)
        for x, y in (("opt", "one"), ("one", "wait"), ("opt", "wait")):
            line = [ln for ln in r.out.splitlines() if ln.startswith("Score of %s vs %s: " % (x, y))]
            self.assertEqual(len(line), 1, r.out)
        with open(os.path.join(r.dir, "report.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn('id="ratings"', page)
        self.assertIn('id="crosstable"', page)
        self.assertEqual(page.count('<tr class="game"'), 12)

    def test_gauntlet_and_anchor(self):
        r = run_arena(players(), "--tournament", "gauntlet", "--games", 2, "--anchor", "wait", "--seed", 4, *FAST)
        self.assertEqual(r.code, 0, r)
        pairs = sorted({(g["p1"], g["p2"]) if g["p1"] == "opt" else (g["p2"], g["p1"]) for g in r.games})
        self.assertEqual(pairs, [("opt", "one"), ("opt", "wait")])
        self.assertEqual(len(r.games), 4)
        self.assertEqual(r.summary["ratings"]["anchor"], "wait")
        self.assertEqual({e["name"]: e["elo"] for e in r.summary["ratings"]["engines"]}["wait"], 0.0)

    def test_refused_options(self):
        for args, message in ((("--sprt", "0,5,0.05,0.05"), "--sprt tests two engines"),
                              (("--anchor", "nobody"), "--anchor nobody is none of the engines")):
            r = run_arena(players(), "--games", 2, *args)
            self.assertNotEqual(r.code, 0, r)
            self.assertIn(message, r.err)
        r = run_arena(players()[:2], "--games", 2, "--rounds", 2)
        self.assertEqual(r.code, 2, r)
        self.assertIn("--rounds and --anchor are for tournaments", r.err)


class TournamentShardsTest(unittest.TestCase):
    def test_merged_shards_equal_one_run(self):
        import subprocess
        import tempfile
        args = ("--games", 2, "--random-plies", 2, "--seed", 9, *FAST)
        whole = run_arena(players(), *args)
        self.assertEqual(whole.code, 0, whole)
        dirs = []
        for k in (1, 2, 3):
            part = run_arena(players(), *args, "--shard", "%d/3" % k)
            self.assertEqual(part.code, 0, part)
            dirs.append(part.dir)
        out = tempfile.mkdtemp(prefix="arena-test-")
        p = subprocess.run([PY, ARENA, "merge"] + dirs + ["--out", out], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        with open(os.path.join(out, "summary.json"), encoding="utf-8") as f:
            merged = json.load(f)
        for key in ("crosstable", "ratings", "pairings", "games_finished"):
            self.assertEqual(merged[key], whole.summary[key], key)
        text = p.stdout.decode()
        self.assertTrue(text.startswith("Merged 3 of 3 shards: toy, round-robin of opt, one, wait, 6 games"), text)
        self.assertEqual(text.split("\n", 1)[1].split("Time per move")[0], whole.out.split("\n", 1)[1].split("Time per move")[0])


class TetradTournamentTest(unittest.TestCase):
    """tetrad at depths 1 to 4 (UGI and GTP mixed): a round robin and a gauntlet rate the
    engines in order of depth. Depth-limited engines play the same games on any machine."""

    def tournament(self, game, kind, depths):
        needs(game)
        # The learned evaluations of Poddavki and Diamond at depth 3 win every game against
        # depths 1 and 2, which leaves those two tied in a gauntlet; the hand-written ones
        # separate all four.
        option = ",option.eval=classic" if game in ("poddavki", "diamond") else ""
        engines = ["cmd=%s,name=d%d,proto=%s,depth=%d%s" % (TETRAD, d, "ugi" if d % 2 == 0 else "gtp", d, option)
                   for d in depths]
        r = run_arena(engines, "--tournament", kind, "--games", 8, "--tc", "inf", "--random-plies", 6,
                      "--max-plies", 200, "--seed", 1, "--concurrency", 2, "--report-boards", 0,
                      game=game, referee=None, timeout=180)
        self.assertEqual(r.code, 0, r)
        pairings = len(depths) * (len(depths) - 1) // 2 if kind == "round-robin" else len(depths) - 1
        self.assertEqual(len(r.games), 8 * pairings)
        self.assertTrue(all(g["result"] != "*" and "fault" not in g for g in r.games), r.out)
        ranked = [e["name"] for e in r.summary["ratings"]["engines"]]
        self.assertEqual(ranked, ["d4", "d3", "d2", "d1"], r.out)
        elo = [e["elo"] for e in r.summary["ratings"]["engines"]]
        self.assertTrue(all(a > b for a, b in zip(elo, elo[1:])), r.out)
        # the terminal's rating list and crosstable, best first
        block = r.out.split("\nRank ", 1)[1].splitlines()[1:5]
        self.assertEqual([line.split()[1] for line in block], ranked, r.out)
        cross = r.out.split("Crosstable", 1)[1].splitlines()
        self.assertEqual(cross[1].split(), ranked, r.out)
        self.assertEqual([line.split()[0] for line in cross[2:6]], ranked, r.out)
        ident = identity(r)
        parsed = assert_pgn_matches(self, r, ident["start"], ident["sides"])
        # one result convention: the report's table says what the PGN says, White first
        with open(os.path.join(r.dir, "report.html"), encoding="utf-8") as f:
            page = f.read()
        rows = re.findall(r'<tr class="game" data-index="\d+" data-game="(\d+)"><td>\d+</td><td>([^<]*)</td><td>([^<]*)</td>'
                          r'<td>[^<]*</td><td>([^<]*)</td>', page)
        self.assertEqual(len(rows), len(r.games))
        for n, white, black, result in rows:
            p = parsed[int(n)]
            self.assertEqual((white, black, result), (p.tags["White"], p.tags["Black"], p.tags["Result"]))
        self.assertIn("Results are written as in games.pgn: from White's side", page)
        return r

    def test_round_robin_poddavki(self):
        self.tournament("poddavki", "round-robin", (1, 2, 3, 4))

    def test_round_robin_diamond(self):
        self.tournament("diamond", "round-robin", (1, 2, 3, 4))

    def test_gauntlet_poddavki(self):
        r = self.tournament("poddavki", "gauntlet", (3, 1, 2, 4))
        self.assertEqual(r.summary["pairings"], [["d3", "d1"], ["d3", "d2"], ["d3", "d4"]])

    def test_gauntlet_diamond(self):
        self.tournament("diamond", "gauntlet", (3, 1, 2, 4))


if __name__ == "__main__":
    unittest.main()
