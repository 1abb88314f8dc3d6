"""Game records (games.pgn), report.html and the live status line, on the toy game's fakes."""

import atexit
import io
import json
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import toy  # noqa: E402
from arena_harness import FAKE_REFEREE, fake, run_arena  # noqa: E402
from pgncheck import assert_pgn_matches, read_pgn  # noqa: E402
from arena import charts, cli, records, report, webreport  # noqa: E402

FAST = ("--tc", "2+0.05")


def record(**kw):
    j = {
        "game": 3, "pair": 2, "game_name": "poddavki", "engines": {"white": "b", "black": "a"},
        "p1": "b", "p2": "a", "tc": {"a": "inf", "b": "inf"}, "start": "W:Wa1:Bh8",
        "opening": ["a1-b2"], "opening_source": "file:2",
        "moves": [{"side": "black", "move": "h8-g7", "ms": 12.5}, {"side": "white", "move": "b2:d4", "ms": 20000.0}],
        "plies": 2, "result": "0-1", "winner": "a", "reason": "a wins (no-moves)", "detail": "",
        "date": "2026.01.02", "site": "box",
    }
    j.update(kw)
    return j


class PgnUnitTest(unittest.TestCase):
    META = {"event": "ev \"x\"", "sides": ("white", "black"), "start": "W:Wa1,c1:Bb8"}

    def test_tags_and_movetext(self):
        text = records.pgn_game(record(), self.META)
        self.assertIn('[Event "ev \\"x\\""]\n', text)
        for tag in ('[Site "box"]', '[Date "2026.01.02"]', '[Round "3"]', '[White "b"]', '[Black "a"]',
                    '[Result "0-1"]', '[GameType "25,W,8,8,A0,0"]', '[Rules "giveaway"]', '[Variant "poddavki"]',
                    '[SetUp "1"]', '[FEN "W:Wa1:Bh8"]', '[TimeControl "-"]', '[Termination "a wins (no-moves)"]',
                    '[PlyCount "3"]'):
            self.assertIn(tag + "\n", text)
        self.assertIn("1. a1-b2 {opening} h8-g7 {0.013s} 2. b2xd4 {20.00s} 0-1", text)
        g, = records.read(text)
        self.assertEqual(g.tags["Event"], 'ev "x"')
        self.assertEqual(g.moves, ["a1-b2", "h8-g7", "b2xd4"])
        self.assertEqual(g.comments, ["opening", "0.013s", "20.00s"])
        self.assertEqual(g.result, "0-1")

    def test_engine_thoughts_in_comments(self):
        """cutechess's comments: the mover's last score (pawns, mates as such), depth and time;
        the reader gives back the score and depth as the JSON record has them."""
        moves = [{"side": "black", "move": "h8-g7", "ms": 512.0, "score": "cp 35", "depth": 12},
                 {"side": "white", "move": "b2:d4", "ms": 20000.0, "score": "mate -3", "depth": 7},
                 {"side": "black", "move": "g7-f6", "ms": 1.0, "score": "cp 0", "depth": 1},
                 {"side": "white", "move": "d4-e5", "ms": 2.0, "score": "cp -1234", "depth": 3},
                 {"side": "black", "move": "f6-g5", "ms": 3.0, "score": "mate 2", "depth": 9}]
        text = records.pgn_game(record(moves=moves, plies=5), self.META)
        self.assertIn("1. a1-b2 {opening} h8-g7 {+0.35/12 0.512s} 2. b2xd4 {-M3/7 20.00s} g7-f6\n"
                      "{0.00/1 0.001s} 3. d4-e5 {-12.34/3 0.002s} f6-g5 {+M2/9 0.003s} 0-1", text)
        g, = records.read(text)
        self.assertEqual(g.thoughts()[0], None)
        self.assertEqual([(t["score"], t["depth"]) for t in g.thoughts()[1:]], [(m["score"], m["depth"]) for m in moves])
        self.assertEqual([t["ms"] for t in g.thoughts()[1:]], [512.0, 20000.0, 1.0, 2.0, 3.0])
        self.assertIsNone(records.parse_comment("Illegal move: e4"))

    def test_second_mover_first_and_start_position(self):
        j = record(start=self.META["start"], opening=[], moves=[{"side": "black", "move": "b8-a7", "ms": 1}],
                   tc={"a": "1+0.1", "b": "2"}, engines={"white": "b", "black": "a"})
        text = records.pgn_game(j, self.META)
        self.assertNotIn("[SetUp", text)
        self.assertNotIn("[FEN", text)
        self.assertIn('[WhiteTimeControl "2"]', text)
        self.assertIn('[BlackTimeControl "1+0.1"]', text)
        self.assertIn("1... b8-a7 {0.001s} 0-1", text)

    def test_other_games_keep_tetrad_notation_and_side_tags(self):
        j = record(game_name="pods-advanced", engines={"north": "b", "south": "a"},
                   moves=[{"side": "south", "move": "A@a1", "ms": 1}, {"side": "north", "move": "b1:c2", "ms": 2}])
        text = records.pgn_game(j, {"event": "e", "sides": ("north", "south"), "start": "x"})
        self.assertIn('[North "b"]', text)
        self.assertIn('[South "a"]', text)
        self.assertNotIn("GameType", text)
        g, = records.read(text)
        self.assertEqual(g.moves, ["a1-b2", "A@a1", "b1:c2"])

    def test_reader_skips_variations_nags_and_line_comments(self):
        text = ('[Event "e"]\n[Result "1/2-1/2"]\n\n1. e4 $1 {c1} (1. d4 d5) e5 ; rest of line\n'
                '2. Nf3!? {multi\nline} Nc6 3. (c3) 1/2-1/2\n\n[Event "f"]\n\n1. a3 *\n')
        a, b = records.read(text)
        self.assertEqual(a.moves, ["e4", "e5", "Nf3", "Nc6", "(c3)"])  # Diamond's neutral removal
        self.assertEqual(a.comments, ["c1", None, "multi line", None, None])
        self.assertEqual(a.result, "1/2-1/2")
        self.assertEqual((b.tags["Event"], b.moves, b.result), ("f", ["a3"], "*"))


class ChartDataTest(unittest.TestCase):
    def test_scores_from_whites_side_and_mates_beyond_the_clip(self):
        """Diamond-like sides: the first mover is black, White moves second. Each score is the
        mover's; the chart turns Black's around. The clip is the largest score, rounded up."""
        moves = [{"side": "black", "move": "a1", "ms": 1.0, "score": "cp 50", "depth": 2},
                 {"side": "white", "move": "b2", "ms": 2.0, "score": "cp -120", "depth": 2},
                 {"side": "black", "move": "c3", "ms": 3.0},
                 {"side": "white", "move": "d4", "ms": 4.0, "score": "mate 2", "depth": 5}]
        j = record(game_name="diamond", engines={"black": "a", "white": "b"}, p1="a", p2="b", start="x",
                   opening=["z9"], moves=moves, result="0-1")
        sides = ("black", "white")
        g = webreport.game_data(j, None, sides)
        self.assertEqual(g["white"], [0, 1, 0, 1, 0])  # the opening move, before black's, was White's
        self.assertEqual(g["evals"], [None, -0.5, -1.2, None, charts.MATE])
        self.assertEqual(g["ms"], [None, 1.0, 2.0, 3.0, 4.0])
        self.assertEqual(g["clip"], 2)
        self.assertEqual(g["result"], "1-0")  # as the PGN writes it: White (b) won
        self.assertEqual((g["whiteName"], g["blackName"]), ("b", "a"))
        self.assertEqual(records.pgn_game(j, {"event": "e", "sides": sides, "start": "y"}).count('[Result "1-0"]'), 1)


class RecordsOfAMatchTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.run_ = run_arena([fake("a", proto="ugi"), fake("b", "--play random", proto="gtp")],
                             "--games", 6, "--random-plies", 3, "--seed", 7, *FAST)

    def test_pgn_parses_back_to_the_games(self):
        self.assertEqual(self.run_.code, 0, self.run_)
        assert_pgn_matches(self, self.run_, toy.START)

    def test_report_html_has_every_game_and_its_boards(self):
        with open(os.path.join(self.run_.dir, "report.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertEqual(len(re.findall(r'<tr class="game"', page)), 6)
        self.assertIn('id="score"', page)
        self.assertNotRegex(page, r"(?i)(src|href)=\"https?:")  # self-contained
        data = json.loads(page.split("<script>var DATA = ", 1)[1].split(";</script>", 1)[0])
        self.assertEqual(len(data["games"]), 6)
        for g, j in zip(data["games"], self.run_.games):
            frames = webreport.unpack(g["boards"])
            self.assertEqual((g["kind"], len(frames)), ("svg", len(j["opening"]) + len(j["moves"]) + 1))
            self.assertIn('<circle class="stone"', frames[0])  # the fake referee's SVG boards
            self.assertEqual(frames[-1].count("<circle"), 0)  # the last stone taken

    def test_pgn_in_reads_openings(self):
        path = os.path.join(self.run_.dir, "games.pgn")
        r = run_arena([fake("a"), fake("b")], "--games", 4, "--pgn-in", path, "--pgn-plies", 3, "--seed", 1, *FAST)
        self.assertEqual(r.code, 0, r)
        source = {int(p.tags["Round"]): [records.from_file_move("toy", m) for m in p.moves][:3] for p in read_pgn(self.run_)}
        self.assertEqual([g["opening"] for g in r.games], [source[1], source[1], source[2], source[2]])
        self.assertEqual([g["opening_source"] for g in r.games], ["file:1", "file:1", "file:2", "file:2"])

    def test_pgn_in_refuses_finished_games(self):
        r = run_arena([fake("a"), fake("b")], "--games", 2, "--pgn-in", os.path.join(self.run_.dir, "games.pgn"), *FAST)
        self.assertEqual(r.code, 1, r)
        self.assertIn("game 1: the game is already over there (use --pgn-plies", r.err)


class ReportRewrittenTest(unittest.TestCase):
    def test_report_rewritten_after_every_game(self):
        """The page a user reloads during a match: written at the start, after each game (with
        that game in it) and at the end."""
        seen = []
        original = webreport.write

        def spy(path, view):
            original(path, view)
            with open(path, encoding="utf-8") as f:
                seen.append(f.read().count('<tr class="game"'))

        out_dir = os.path.join(self_tmp(), "out")
        argv = ["--game", "toy", "--games", "3", "--seed", "1", "--quiet", "--out", out_dir,
                "--referee", FAKE_REFEREE, "--engine", fake("a"), "--engine", fake("b")] + list(FAST)
        webreport.write = spy
        try:
            code = cli.main(argv, io.StringIO(), io.StringIO())
        finally:
            webreport.write = original
        self.assertEqual(code, 0)
        self.assertEqual(seen, [0, 1, 2, 3, 3])


def self_tmp():
    d = tempfile.mkdtemp(prefix="arena-test-")
    atexit.register(shutil.rmtree, d, True)
    return d


class BoardsTest(unittest.TestCase):
    def test_text_boards_when_the_referee_has_no_svg(self):
        r = run_arena([fake("a"), fake("b")], "--games", 2, "--seed", 2, *FAST, referee=FAKE_REFEREE + " --no-svg")
        self.assertEqual(r.code, 0, r)
        with open(os.path.join(r.dir, "boards.jsonl"), encoding="utf-8") as f:
            boards = [json.loads(line) for line in f]
        self.assertEqual(len(boards), 2)
        for b in boards:
            self.assertEqual(b["kind"], "text")
            frames = webreport.unpack(b["gz"])
            self.assertEqual(frames[0], "pile 21  " + "o" * 21 + "\nnorth to move")
            self.assertFalse(any("<svg" in f for f in frames))

    def test_report_boards_limit(self):
        r = run_arena([fake("a"), fake("b")], "--games", 3, "--report-boards", 1, "--seed", 2, *FAST)
        self.assertEqual(r.code, 0, r)
        with open(os.path.join(r.dir, "boards.jsonl"), encoding="utf-8") as f:
            self.assertEqual(len(f.read().splitlines()), 1)
        with open(os.path.join(r.dir, "report.html"), encoding="utf-8") as f:
            self.assertIn("Boards are drawn for the first 1 games.", f.read())


class StatusLineTest(unittest.TestCase):
    def test_done_total_score_elo_and_eta(self):
        class Cfg:
            names = ("a", "b")
            planned = 10
            sprt = None

        class M:
            cfg = Cfg()
            finished, aborted, running = 4, 0, 1
            started = 0.0

        m = M()
        m.total = type("T", (), {"w": 3, "l": 1, "d": 0, "n": 4})()
        m.started = report.time.monotonic() - 40
        line = report.Progress(io.StringIO()).line(m)
        self.assertRegex(line, r"^\[4/10\] a vs b: 3 - 1 - 0 \[0\.750\] Elo 190\.8 \+/- \S+ LOS \d+\.\d% \| 1 running, 40s, ETA 1m00s$")

    def test_tournament_status_names_the_leader(self):
        from arena.match import Tally

        class Cfg:
            names = ("a", "b", "c")
            planned = 12
            sprt = None
            tournament = "round-robin"

        class M:
            cfg = Cfg()
            finished, aborted, running = 3, 0, 2
            total = Tally()

        m = M()
        m.started = report.time.monotonic() - 30
        m.cross = {}
        for x, y, outcome in (("a", "b", 1), ("c", "a", 0), ("b", "c", -1)):
            m.cross.setdefault((x, y), Tally()).add(outcome)
            m.cross.setdefault((y, x), Tally()).add(-outcome)
        line = report.Progress(io.StringIO()).line(m)
        # a: 1.5 of 2, c: 1.5 of 2, b: 0 of 2; the leader is the one furthest above half its games, then the most points
        self.assertRegex(line, r"^\[3/12\] round-robin of 3 engines, leading: a 1\.5/2 \| 2 running, 30s, ETA 1m30s$")

    def test_quiet_prints_no_status(self):
        r = run_arena([fake("a"), fake("b")], "--games", 2, *FAST)  # run_arena passes --quiet
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.err, "")


if __name__ == "__main__":
    unittest.main()
