"""The runner against fake engines and a fake referee playing the toy game (toy.py):
every way an engine can fail, and the bookkeeping of a clean match."""

import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import toy  # noqa: E402
from arena_harness import FAKE_REFEREE, fake, run_arena  # noqa: E402

FAST = ("--tc", "2+0.05")


def replay(testcase, g):
    """Replay a game record with the toy rules: every move legal, the recorded result right."""
    p = toy.parse(g["start"])
    for m in g["opening"]:
        p = toy.play(p, toy.canonical(p, m))
    for entry in g["moves"]:
        testcase.assertEqual(toy.SIDES[p.side], entry["side"])
        testcase.assertIn(entry["move"], toy.legal(p), "game %d" % g["game"])
        p = toy.play(p, entry["move"])
    testcase.assertEqual(toy.fmt(p), g["final"])
    return p


class CleanMatchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.run_ = run_arena([fake("a", proto="ugi"), fake("b", "--play random", proto="gtp")],
                             "--games", 6, "--concurrency", 2, "--random-plies", 3, "--seed", 7, *FAST)

    def test_exit_and_score_line(self):
        r = self.run_
        self.assertEqual(r.code, 0, r)
        a, b, w, l, d, s, n = r.score()
        self.assertEqual((a, b, n), ("a", "b", 6))
        self.assertEqual(w + l + d, 6)
        self.assertAlmostEqual(s, (w + d / 2) / 6, places=3)
        self.assertRegex(r.out, r"(?m)^Elo difference: \S+ \+/- \S+, LOS: \d+\.\d %, DrawRatio: \d+\.\d %$")
        self.assertIn("6 of 6 games finished.", r.out)
        self.assertRegex(r.out, r"(?m)^Rank Name +Elo +\+/- +Games +Wins +Losses +Draws +Score +Draw +LOS$")

    def test_every_game_recorded_once_with_legal_moves(self):
        r = self.run_
        self.assertEqual([g["game"] for g in r.games], [1, 2, 3, 4, 5, 6])
        for g in r.games:
            self.assertNotIn("fault", g)
            p = replay(self, g)
            result = toy.result(p)
            self.assertEqual(result[0], "win")
            winner_side = toy.SIDES[result[1]]
            self.assertEqual(g["winner"], g["engines"][winner_side])
            self.assertEqual(g["result"], "1-0" if result[1] == 0 else "0-1")
            self.assertEqual(g["reason"], "%s wins (last-stone)" % g["winner"])
            for entry in g["moves"]:
                self.assertGreaterEqual(entry["ms"], 0)
                self.assertIn("left", entry)

    def test_openings_are_paired_with_colours_reversed(self):
        games = self.run_.games
        for first, second in zip(games[0::2], games[1::2]):
            self.assertEqual(first["pair"], second["pair"])
            self.assertEqual((first["start"], first["opening"]), (second["start"], second["opening"]))
            self.assertEqual(len(first["opening"]), 3)
            self.assertEqual((first["p1"], first["p2"]), ("a", "b"))
            self.assertEqual((second["p1"], second["p2"]), ("b", "a"))
        self.assertGreater(len({tuple(g["opening"]) for g in games}), 1)

    def test_counts_agree_with_records(self):
        r = self.run_
        wins = sum(1 for g in r.games if g["winner"] == "a")
        losses = sum(1 for g in r.games if g["winner"] == "b")
        self.assertEqual(r.score()[2:4], (wins, losses))
        self.assertEqual((r.summary["wins"], r.summary["losses"]), (wins, losses))
        self.assertEqual(sum(r.reasons().values()), 6)
        # Pairs by a's points in them, from the records: the report's line and the summary.
        points = {}
        for g in r.games:
            points[g["pair"]] = points.get(g["pair"], 0) + {"a": 2, "b": 0}.get(g["winner"], 1)
        counts = [sorted(points.values()).count(p) for p in (0, 1, 2, 3, 4)]
        self.assertEqual(r.summary["pairs"]["counts"], counts)
        self.assertEqual(sum(counts), 3)
        line = [x for x in r.out.splitlines() if x.startswith("Pairs (0 to 2 points): ")]
        self.assertEqual(len(line), 1, r.out)
        self.assertTrue(line[0].startswith("Pairs (0 to 2 points): %s, Elo difference: " % " ".join(map(str, counts))), line)

    def test_clock_accounting(self):
        # left = previous left - used + increment; the increment is 50 ms, start 2000 ms.
        for g in self.run_.games:
            left = {}
            for e in g["moves"]:
                before = left.get(e["side"], 2000.0)
                expected = max(0.0, before - e["ms"]) + 50
                self.assertAlmostEqual(e["left"], expected, delta=1.5)
                left[e["side"]] = e["left"]


class FaultTest(unittest.TestCase):
    """Each misbehaviour loses the game for the engine that commits it, with its reason."""

    def check_all_lost(self, r, reason, games, fault):
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.reasons(), {reason: games}, r)
        a, b, w, l, d, s, n = r.score()
        self.assertEqual((w, l, d, n), (games, 0, 0, games))
        for g in r.games:
            self.assertEqual(g["winner"], "a")
            self.assertEqual(g["fault"], fault)
            self.assertEqual(g["reason"], reason)
        return r

    def test_illegal_move(self):
        for proto in ("ugi", "gtp"):
            with self.subTest(proto=proto):
                r = run_arena([fake("a"), fake("b", "--fault illegal", proto=proto)], "--games", 2, *FAST)
                self.check_all_lost(r, "b makes an illegal move", 2, "illegal")
                for g in r.games:
                    self.assertEqual(g["illegal_move"], "4")
                    self.assertIn("illegal move", g["detail"])

    def test_illegal_move_later_in_the_game(self):
        r = run_arena([fake("a"), fake("b", "--fault illegal --fault-at 3", proto="gtp")], "--games", 2, *FAST)
        self.check_all_lost(r, "b makes an illegal move", 2, "illegal")
        for g in r.games:
            self.assertEqual(sum(1 for e in g["moves"] if g["engines"][e["side"]] == "b"), 2)

    def test_malformed_move(self):
        for proto in ("ugi", "gtp"):
            with self.subTest(proto=proto):
                r = run_arena([fake("a"), fake("b", "--fault malformed", proto=proto)], "--games", 2, *FAST)
                self.check_all_lost(r, "b sends a malformed move", 2, "malformed")

    def test_no_move(self):
        for proto in ("ugi", "gtp"):
            with self.subTest(proto=proto):
                r = run_arena([fake("a"), fake("b", "--fault nomove", proto=proto)], "--games", 2, *FAST)
                self.check_all_lost(r, "b returns no move", 2, "nomove")

    def test_resign(self):
        r = run_arena([fake("a"), fake("b", "--fault resign", proto="gtp")], "--games", 2, *FAST)
        self.check_all_lost(r, "b resigns", 2, "resign")

    def test_crash_every_game(self):
        with tempfile.TemporaryDirectory() as tmp:
            pids = os.path.join(tmp, "pids")
            for proto in ("ugi", "gtp"):
                with self.subTest(proto=proto):
                    r = run_arena([fake("a"), fake("b", "--fault crash --fault-at 2 --stderr --pidfile " + pids, proto=proto)],
                                  "--games", 3, *FAST)
                    self.check_all_lost(r, "b crashes", 3, "crash")
                    for g in r.games:
                        self.assertIn("exit status 3", g["detail"])
                    with open(os.path.join(r.dir, "stderr", "game-00002-b.log")) as f:
                        log = f.read()
                    self.assertIn("crashing on purpose", log)
            # one probe and one process per game, for each protocol: restarted after each crash
            with open(pids) as f:
                self.assertEqual(len(f.read().split()), 2 * (1 + 3))

    def test_restart_after_crash(self):
        with tempfile.TemporaryDirectory() as tmp:
            once = os.path.join(tmp, "once")
            r = run_arena([fake("a"), fake("b", "--fault crash --once " + once)], "--games", 4, *FAST)
            self.assertEqual(r.code, 0, r)
            reasons = r.reasons()
            self.assertEqual(reasons.pop("b crashes"), 1, r)
            self.assertEqual(sum(reasons.values()), 3)
            self.assertTrue(all(k.endswith("wins (last-stone)") for k in reasons), reasons)

    def test_hang(self):
        for proto in ("ugi", "gtp"):
            with self.subTest(proto=proto):
                t0 = time.monotonic()
                r = run_arena([fake("a"), fake("b", "--fault hang", proto=proto)], "--games", 2, "--concurrency", 2,
                              "--tc", "1+0.01", "--stall", "0.3")
                self.check_all_lost(r, "b stops responding", 2, "hang")
                self.assertLess(time.monotonic() - t0, 15)

    def test_restart_after_hang(self):
        with tempfile.TemporaryDirectory() as tmp:
            once = os.path.join(tmp, "once")
            r = run_arena([fake("a"), fake("b", "--fault hang --once " + once, proto="gtp")], "--games", 3,
                          "--tc", "1+0.01", "--stall", "0.3")
            self.assertEqual(r.code, 0, r)
            reasons = r.reasons()
            self.assertEqual(reasons.pop("b stops responding"), 1, r)
            self.assertEqual(sum(reasons.values()), 2)

    def test_time_forfeit(self):
        for proto in ("ugi", "gtp"):
            with self.subTest(proto=proto):
                r = run_arena([fake("a"), fake("b", "--fault slow --fault-at 2", proto=proto)], "--games", 2,
                              "--concurrency", 2, "--tc", "1+0.01", "--margin", 50)
                self.check_all_lost(r, "b loses on time", 2, "time")
                for g in r.games:
                    self.assertRegex(g["detail"], r"used \d+ ms with \d+ ms on its clock")

    def test_gtp_engine_rejecting_a_legal_move(self):
        r = run_arena([fake("a"), fake("b", "--fault reject", proto="gtp")], "--games", 2, *FAST)
        self.assertEqual(r.code, 0, r)
        # b loses as soon as it is told a's move (game 1: a moves first; game 2: b moves first
        # and plays, then rejects a's answer)
        self.check_all_lost(r, "b rejects a legal move", 2, "reject")

    def test_engine_that_never_starts(self):
        r = run_arena([fake("a"), fake("b", "--fault badstart")], "--games", 2, "--timeout", 3, *FAST)
        self.assertEqual(r.code, 1, r)
        self.assertIn("no answer to the handshake", r.err)

    def test_engine_without_the_game(self):
        for proto in ("ugi", "gtp"):
            with self.subTest(proto=proto):
                r = run_arena([fake("a"), fake("b", "--variants chess", proto=proto)], "--games", 2, *FAST)
                self.assertEqual(r.code, 1, r)
                self.assertIn("does not play toy", r.err)

    def test_unknown_option(self):
        r = run_arena([fake("a", extra="option.Seed=3"), fake("b", extra="option.Hsh=64")], "--games", 2, *FAST)
        self.assertEqual(r.code, 1, r)
        self.assertIn("engine refuses its settings: info string error: unknown option in name Hsh value 64", r.err)

    def test_missing_engine_binary(self):
        r = run_arena([fake("a"), "cmd=/nonexistent/engine,name=b"], "--games", 2, *FAST)
        self.assertEqual(r.code, 1, r)
        self.assertIn("cannot start", r.err)


class RulesAndAdjudicationTest(unittest.TestCase):
    def test_draw_by_the_rules(self):
        r = run_arena([fake("a", "--play wait"), fake("b", "--play wait", proto="gtp")], "--games", 2, *FAST)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.reasons(), {"Draw (waiting)": 2})
        self.assertEqual(r.score()[2:5], (0, 0, 2))
        for g in r.games:
            self.assertEqual(g["result"], "1/2-1/2")
            self.assertIsNone(g["winner"])

    def test_max_plies(self):
        r = run_arena([fake("a", "--play one"), fake("b", "--play one")], "--games", 2, "--max-plies", 5, *FAST)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.reasons(), {"Draw by adjudication (5 plies)": 2})
        for g in r.games:
            self.assertEqual(g["plies"], 5)
            self.assertEqual(g["final"], "16 s 0")

    def test_lenient_move_is_canonicalised(self):
        r = run_arena([fake("a", "--fault lenient --fault-at 1"), fake("b", proto="gtp")], "--games", 2, *FAST)
        self.assertEqual(r.code, 0, r)
        self.assertNotIn("fault", "".join(r.reasons()))
        for g in r.games:
            replay(self, g)  # the recorded moves are canonical
            sent = [e for e in g["moves"] if "sent" in e]
            self.assertEqual(len(sent), 1)
            self.assertEqual(sent[0]["sent"].lower().lstrip("t"), sent[0]["move"])


    def test_a_referee_declining_to_list_the_moves_leaves_the_game_going(self):
        # From the third ply on the referee declines `legal_moves`; the lenient move at b's
        # second turn (ply 4) is then recorded as it was sent.
        r = run_arena([fake("a"), fake("b", "--fault lenient --fault-at 2", proto="gtp")], "--games", 2, *FAST,
                      referee=FAKE_REFEREE + " --list-until 2")
        self.assertEqual(r.code, 0, r)
        self.assertNotIn("Aborted", "".join(r.reasons()))
        for g in r.games:
            self.assertNotEqual(g["result"], "*")
            sent = [e for e in g["moves"] if "sent" in e]
            self.assertEqual(sent, [])
            odd = [e["move"] for e in g["moves"] if not e["move"] in ("1", "2", "3", "w")]
            self.assertEqual(len(odd), 1, g["moves"])
            self.assertTrue(odd[0] == "W" or odd[0].startswith("t"), odd)


class MatchControlTest(unittest.TestCase):
    def test_stronger_engine_is_ahead(self):
        r = run_arena([fake("strong"), fake("weak", "--play random")], "--games", 20, "--concurrency", 2, *FAST)
        self.assertEqual(r.code, 0, r)
        a, b, w, l, d, s, n = r.score()
        self.assertEqual(n, 20)
        self.assertGreater(w, l)
        los = float(r.out.split("LOS: ")[1].split(" %")[0])
        self.assertGreater(los, 99.0)

    def test_sprt_stops_the_match(self):
        r = run_arena([fake("strong"), fake("weak", "--play random")], "--games", 400, "--concurrency", 2,
                      "--sprt", "0,100,0.05,0.05", *FAST)
        self.assertEqual(r.code, 0, r)
        self.assertRegex(r.out, r"(?m)^SPRT: llr \S+ \(\S+%\), lbound -2\.94, ubound 2\.94 - H1 was accepted$")
        n = r.score()[6]
        self.assertLess(n, 400)
        self.assertEqual(len(r.games), n)
        self.assertEqual(r.summary["sprt"]["decision"], "H1")

    def test_concurrency_plays_each_game_once(self):
        r = run_arena([fake("a", "--think 5"), fake("b", "--think 5", proto="gtp")], "--games", 9, "--concurrency", 3, *FAST)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(sorted(g["game"] for g in r.games), list(range(1, 10)))
        self.assertEqual(r.score()[6], 9)

    def test_openings_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "openings.txt")
            with open(path, "w") as f:
                f.write("# toy openings\n\n15 n 0\n10 s 0 moves 2 1\nstartpos\n")
            r = run_arena([fake("a"), fake("b")], "--games", 6, "--openings", path, *FAST)
            self.assertEqual(r.code, 0, r)
            starts = [(g["start"], tuple(g["opening"])) for g in r.games]
            self.assertEqual(starts, [("15 n 0", ())] * 2 + [("10 s 0", ("2", "1"))] * 2 + [("21 n 0", ())] * 2)
            for g in r.games:
                replay(self, g)

    def test_bad_openings_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "openings.txt")
            with open(path, "w") as f:
                f.write("15 n 0\nnot a position\n")
            r = run_arena([fake("a"), fake("b")], "--games", 2, "--openings", path, *FAST)
            self.assertEqual(r.code, 1, r)
            self.assertIn("openings line 2", r.err)
            with open(path, "w") as f:
                f.write("0 n 0\n")
            r = run_arena([fake("a"), fake("b")], "--games", 2, "--openings", path, *FAST)
            self.assertEqual(r.code, 1, r)
            self.assertIn("already over", r.err)

    def test_same_seed_same_openings(self):
        runs = [run_arena([fake("a"), fake("b")], "--games", 6, "--random-plies", 4, "--seed", s, *FAST) for s in (5, 5, 6)]
        openings = [[tuple(g["opening"]) for g in r.games] for r in runs]
        self.assertEqual(openings[0], openings[1])
        self.assertNotEqual(openings[0], openings[2])
        self.assertIn("seed 5", runs[0].out)

    def test_gtp_engine_wanting_whole_seconds(self):
        r = run_arena([fake("a"), fake("b", "--int-time", proto="gtp")], "--games", 2, *FAST)
        self.assertEqual(r.code, 0, r)
        self.assertNotIn("fault", str(r.games))

    def test_referee_failure_aborts_games_and_then_the_match(self):
        r = run_arena([fake("a"), fake("b")], "--games", 10, "--timeout", 2, *FAST,
                      referee=FAKE_REFEREE + " --crash-after 30")
        self.assertEqual(r.code, 1, r)
        self.assertIn("Match stopped: the referee failed 3 times in a row", r.out)
        aborted = [g for g in r.games if g["result"] == "*"]
        self.assertEqual(len(aborted), 3)
        self.assertTrue(all(g["reason"] == "Aborted (referee failure)" for g in aborted))
        self.assertIn("3 games aborted", r.out)

    def test_bad_command_lines(self):
        cases = [
            ([fake("a")], []),
            ([fake("a"), "name=b"], []),
            ([fake("a"), fake("b")], ["--tc", "fast"]),
            ([fake("a"), fake("b")], ["--sprt", "5,0,0.05,0.05"]),
            ([fake("a"), fake("b", extra="proto=xboard")], []),
            ([fake("a"), fake("b", extra="depth=-1")], []),
        ]
        for engines, rest in cases:
            with self.subTest(engines=engines, rest=rest):
                r = run_arena(engines, *rest)
                self.assertEqual(r.code, 2, r)
                self.assertIn("arena:", r.err)


if __name__ == "__main__":
    unittest.main()
