"""Elo, error margin, LOS and SPRT arithmetic against published values."""

import math
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import arena_harness  # noqa: E402,F401  (puts scripts/ on the path)
from arena import stats  # noqa: E402
from arena.report import elo_line, score_line, sprt_line  # noqa: E402

# (wins, losses, draws) -> the line cutechess-cli printed for them (taken from published
# match logs of several chess engines).
CUTECHESS = [
    ((5383, 5132, 4808), "Elo difference: 5.7 +/- 4.6, LOS: 99.3 %, DrawRatio: 31.4 %"),
    ((345, 185, 470), "Elo difference: 56.1 +/- 15.7, LOS: 100.0 %, DrawRatio: 47.0 %"),
    ((544, 347, 318), "Elo difference: 57.1 +/- 16.9, LOS: 100.0 %, DrawRatio: 26.3 %"),
    ((187, 117, 185), "Elo difference: 50.1 +/- 24.4, LOS: 100.0 %, DrawRatio: 37.8 %"),
    ((49, 0, 4), "Elo difference: 562.6 +/- 309.7, LOS: 100.0 %, DrawRatio: 7.5 %"),
    ((684, 650, 666), "Elo difference: 5.9 +/- 12.4, LOS: 82.4 %, DrawRatio: 33.3 %"),
    ((274, 40, 186), "Elo difference: 176.3 +/- 25.0, LOS: 100.0 %, DrawRatio: 37.2 %"),
    ((57, 12, 31), "Elo difference: 168.4 +/- 60.5, LOS: 100.0 %, DrawRatio: 31.0 %"),
]


class EloTest(unittest.TestCase):
    def test_lines_match_cutechess(self):
        for (w, l, d), expected in CUTECHESS:
            with self.subTest(wld=(w, l, d)):
                self.assertEqual(elo_line(w, l, d), expected)

    def test_score_line_format(self):
        self.assertEqual(score_line("A", "B", 5383, 5132, 4808), "Score of A vs B: 5383 - 5132 - 4808  [0.508] 15323")

    def test_elo_of_known_scores(self):
        self.assertAlmostEqual(stats.elo_from_score(0.5), 0.0)
        self.assertAlmostEqual(stats.elo_from_score(0.75), 400 * math.log10(3))  # 190.85
        self.assertAlmostEqual(stats.elo_from_score(10 / 11), 400.0)  # 10:1 odds is 400 Elo
        self.assertAlmostEqual(stats.elo_from_score(0.25), -stats.elo_from_score(0.75))
        self.assertEqual(stats.elo_from_score(1.0), math.inf)
        self.assertEqual(stats.elo_from_score(0.0), -math.inf)

    def test_elo_is_antisymmetric(self):
        e1, m1 = stats.elo(30, 10, 5)
        e2, m2 = stats.elo(10, 30, 5)
        self.assertAlmostEqual(e1, -e2)
        self.assertAlmostEqual(m1, m2)

    def test_perfect_score_is_infinite_with_undefined_margin(self):
        e, m = stats.elo(10, 0, 0)
        self.assertEqual(e, math.inf)
        self.assertTrue(math.isnan(m))
        self.assertEqual(elo_line(10, 0, 0), "Elo difference: inf +/- nan, LOS: 99.9 %, DrawRatio: 0.0 %")

    def test_all_draws(self):
        self.assertEqual(elo_line(0, 0, 4), "Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %")

    def test_los_values(self):
        self.assertAlmostEqual(stats.los(10, 10), 0.5)
        # erf(10 / sqrt(20)) = erf(2.2360...) = 0.998435...
        self.assertAlmostEqual(stats.los(10, 0), 0.5 * (1 + 0.9984345977419975), places=9)
        self.assertAlmostEqual(stats.los(0, 10), 1 - stats.los(10, 0))
        # one win, no loss: Phi(1) = 0.841345
        self.assertAlmostEqual(stats.los(1, 0), 0.8413447460685429, places=9)
        self.assertGreater(stats.los(18, 2), 0.99)

    def test_margin_shrinks_with_games(self):
        _, m1 = stats.elo(60, 40, 0)
        _, m2 = stats.elo(600, 400, 0)
        self.assertAlmostEqual(m1 / m2, math.sqrt(10), delta=0.05)


class PentanomialTest(unittest.TestCase):
    def test_counts_by_points_in_the_pair(self):
        self.assertEqual(stats.pentanomial([(1, 1), (1, -1), (-1, 1), (0, 1), (-1, -1), (0, 0), (-1, 0)]),
                         [1, 1, 3, 1, 1])

    def test_values_worked_by_hand(self):
        # 100 pairs: 10 lost both, 80 split, 10 won both: mean 0.5, no difference.
        e, m, p = stats.pentanomial_stats([10, 0, 80, 0, 10])
        self.assertAlmostEqual(e, 0.0)
        self.assertAlmostEqual(p, 0.5)
        # Pair scores 0 (10 times), 0.5 (70), 1 (20): mean 0.55, variance 0.0725.
        e, m, p = stats.pentanomial_stats([10, 0, 70, 0, 20])
        sd = math.sqrt(0.0725 / 100)
        self.assertAlmostEqual(e, stats.elo_from_score(0.55))
        self.assertAlmostEqual(p, 0.5 * (1 + math.erf(0.05 / sd / math.sqrt(2))))
        self.assertAlmostEqual(m, (stats.elo_from_score(0.55 + stats.Z95 * sd) - stats.elo_from_score(0.55 - stats.Z95 * sd)) / 2)

    def test_colour_decided_pairs_give_a_tighter_interval_than_games(self):
        # The same 200 games, 40 won and 20 lost by the first engine beyond the splits: as
        # independent games (trinomial) and as pairs where the colour decides most games.
        _, per_game = stats.elo(110, 90, 0)
        _, per_pair = stats.pentanomial_stats([5, 0, 80, 0, 15])[:2]
        self.assertAlmostEqual(stats.pentanomial_stats([5, 0, 80, 0, 15])[0], stats.elo(110, 90, 0)[0])
        self.assertLess(per_pair, per_game * 0.8)

    def test_no_pairs_and_no_spread(self):
        self.assertTrue(all(math.isnan(x) for x in stats.pentanomial_stats([0, 0, 0, 0, 0])))
        e, m, p = stats.pentanomial_stats([0, 0, 0, 0, 4])
        self.assertEqual((e, p), (math.inf, 1.0))
        self.assertTrue(math.isnan(m))


class SprtTest(unittest.TestCase):
    def test_bounds(self):
        s = stats.Sprt(0, 5, 0.05, 0.05)
        self.assertAlmostEqual(s.lower, -2.9444389791664403)
        self.assertAlmostEqual(s.upper, 2.9444389791664403)
        s = stats.Sprt(0, 5, 0.05, 0.10)
        self.assertAlmostEqual(s.lower, math.log(0.10 / 0.95))
        self.assertAlmostEqual(s.upper, math.log(0.90 / 0.05))

    def test_published_gsprt_value(self):
        # Published GSPRT example: W 4307, L 4063, D 8620, elo0 0, elo1 3 -> LLR 2.99, H1.
        s = stats.Sprt(0, 3, 0.05, 0.05)
        self.assertAlmostEqual(s.llr(4307, 4063, 8620), 2.99, delta=0.005)
        self.assertEqual(s.decide(4307, 4063, 8620), "H1")
        self.assertEqual(sprt_line(s, 4307, 4063, 8620, "H1"),
                         "SPRT: llr 2.99 (101.6%), lbound -2.94, ubound 2.94 - H1 was accepted")

    def test_agrees_with_the_bayeselo_likelihood_ratio(self):
        """The cutechess-cli SPRT (BayesElo model, bounds scaled to logistic Elo) is an
        independent way to the same number for a large sample: check ours against it."""

        def bayes_llr(w, l, d, elo0, elo1):
            n = w + l + d
            pw, pl = w / n, l / n
            draw_elo = 200 * math.log10((1 - pl) / pl * (1 - pw) / pw)
            x = 10 ** (-draw_elo / 400)
            scale = 4 * x / (1 + x) ** 2

            def probs(e):
                a = 1 / (1 + 10 ** ((draw_elo - e) / 400))
                b = 1 / (1 + 10 ** ((draw_elo + e) / 400))
                return a, b, 1 - a - b

            p0, p1 = probs(elo0 / scale), probs(elo1 / scale)
            return w * math.log(p1[0] / p0[0]) + l * math.log(p1[1] / p0[1]) + d * math.log(p1[2] / p0[2])

        s = stats.Sprt(-2, 4, 0.05, 0.05)
        for wld in ((4307, 4063, 8620), (5383, 5132, 4808), (1000, 900, 2000)):
            with self.subTest(wld=wld):
                self.assertAlmostEqual(s.llr(*wld), bayes_llr(*wld, -2, 4), delta=0.02)

    def test_decisions(self):
        s = stats.Sprt(0, 50, 0.05, 0.05)
        self.assertIsNone(s.decide(0, 0, 0))
        self.assertIsNone(s.decide(3, 2, 1))
        self.assertEqual(s.decide(300, 100, 100), "H1")
        self.assertEqual(s.decide(100, 300, 100), "H0")
        self.assertEqual(s.llr(0, 0, 0), 0.0)

    def test_a_run_of_identical_results_gives_the_binomial_ratio(self):
        s = stats.Sprt(0, 100, 0.05, 0.05)
        for n in (1, 4, 30):
            with self.subTest(n=n):
                self.assertAlmostEqual(s.llr(n, 0, 0), n * math.log(s.s1 / s.s0), places=4)
                self.assertAlmostEqual(s.llr(0, n, 0), n * math.log((1 - s.s1) / (1 - s.s0)), places=4)
        self.assertIsNone(s.decide(4, 0, 0))  # 4 wins in 4 games happen 1 time in 16 at equal strength
        self.assertEqual(s.decide(40, 0, 0), "H1")

    def test_likelihood_maximiser_has_the_wanted_mean(self):
        # With the maximising distribution the log-likelihood is highest at the sample mean.
        counts = (30, 50, 20)  # losses, draws, wins: mean score 0.45
        best = stats.Sprt.log_likelihood(counts, 0.45)
        self.assertAlmostEqual(best, sum(n * math.log(n / 100) for n in counts), places=6)
        for other in (0.3, 0.44, 0.46, 0.6):
            self.assertLess(stats.Sprt.log_likelihood(counts, other), best)

    def test_parse(self):
        s = stats.Sprt.parse("0,5,0.05,0.1")
        self.assertEqual((s.elo0, s.elo1, s.alpha, s.beta), (0, 5, 0.05, 0.1))
        s = stats.Sprt.parse("elo0=-1,elo1=4,alpha=0.05,beta=0.05")
        self.assertEqual((s.elo0, s.elo1), (-1, 4))
        for bad in ("5,0,0.05,0.05", "0,5,1.5,0.05", "0,5", "x,y,z,w"):
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError):
                    stats.Sprt.parse(bad)


if __name__ == "__main__":
    unittest.main()
