"""Real matches of tetrad against itself, refereed by tetrad. Skipped when
target/release/tetrad has not been built, and per game when tetrad does not play it."""

import json
import multiprocessing
import os
import re
import subprocess
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import SCRIPTS, TETRAD, run_arena  # noqa: E402
from pgncheck import assert_pgn_matches, read_pgn  # noqa: E402
from arena import records  # noqa: E402

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
        m = re.match(r"^([=?])(\d+)(.*)$", block.strip(), re.S)
        if m:
            answers[int(m.group(2))] = (m.group(1) == "=", m.group(3).strip())
    return answers


def _list_games():
    """The games tetrad plays, as its GTP ``list_games`` names them (empty if it cannot run)."""
    if not os.path.exists(TETRAD):
        return ()
    ok, text = (_ask_tetrad(["list_games"]) or {}).get(1, (False, ""))
    return tuple(text.split()) if ok else ()


GAMES = _list_games()

_PLAYS = {}


def identity(run):
    """The run's match.json: the start position and the sides, as the referee gave them."""
    with open(os.path.join(run.dir, "match.json"), encoding="utf-8") as f:
        return json.load(f)


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


def referee_has_svg():
    """Whether this tetrad answers ``showboard svg`` (so the report draws SVG boards)."""
    a = _ask_tetrad(["set_game poddavki", "showboard svg"]) or {}
    ok, text = a.get(2, (False, ""))
    return ok and "<svg" in text


# ARENA_GAMES=20 turns the self-play tests into the full acceptance run.
SELF_PLAY_GAMES = int(os.environ.get("ARENA_GAMES", "2"))
# In the suite the clock margin absorbs a loaded machine (CI shares its cores), so that the
# test checks clock handling, not the machine's load; the acceptance run keeps the default.
SELF_PLAY_MARGIN = "100" if "ARENA_GAMES" in os.environ else "2000"


class TetradSelfPlayTest(unittest.TestCase):
    """tetrad (UGI) against tetrad (GTP) at 1+0.01: every game ends by the rules or by
    adjudication, with no illegal move, crash or time forfeit."""

    def play(self, game):
        needs(game)
        n = SELF_PLAY_GAMES
        engines = ["cmd=%s,name=ugi,proto=ugi" % TETRAD, "cmd=%s,name=gtp,proto=gtp" % TETRAD]
        r = run_arena(engines, "--games", n, "--tc", "1+0.01", "--concurrency", 2, "--max-plies", 200,
                      "--random-plies", 2, "--seed", 1, "--margin", SELF_PLAY_MARGIN, game=game, referee=None,
                      timeout=60 + 10 * n)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(r.score()[6], n, r)
        self.assertEqual(len(r.games), n)
        for g in r.games:
            self.assertNotIn("fault", g, g)
            self.assertNotEqual(g["result"], "*", g)
            self.assertGreater(g["plies"], 0)
        for reason in r.reasons():  # only results by the rules or by adjudication
            self.assertTrue(reason.startswith("Draw") or " wins" in reason, reason)
        ident = identity(r)
        assert_pgn_matches(self, r, ident["start"], ident["sides"])
        return r


def _per_game(cls, method):
    """One test per game tetrad lists; without the list, one test that skips or fails as
    ``needs`` decides."""
    if not GAMES:
        def _none(self):
            needs("poddavki")
            self.fail("tetrad runs but does not answer list_games")
        setattr(cls, "test_list_games", _none)
    for game in GAMES:
        def _test(self, game=game):
            getattr(self, method)(game)
        setattr(cls, "test_" + game.replace("-", "_"), _test)


_per_game(TetradSelfPlayTest, "play")


class RecordsPerGameTest(unittest.TestCase):
    """Depth-limited tetrad matches of every game: games.pgn parses back to the games of
    games.jsonl. ARENA_RECORD_GAMES=20 for the full acceptance run (default 6)."""

    GAMES = int(os.environ.get("ARENA_RECORD_GAMES", "6"))

    def records(self, game):
        needs(game)
        engines = ["cmd=%s,name=g,proto=gtp,depth=1" % TETRAD, "cmd=%s,name=u,proto=ugi,depth=1" % TETRAD]
        r = run_arena(engines, "--games", self.GAMES, "--tc", "inf", "--concurrency", 2, "--max-plies", 150,
                      "--random-plies", 3, "--seed", 5, "--report-boards", 0, game=game, referee=None,
                      timeout=60 + 5 * self.GAMES)
        self.assertEqual(r.code, 0, r)
        self.assertEqual(len(r.games), self.GAMES)
        ident = identity(r)
        parsed = assert_pgn_matches(self, r, ident["start"], ident["sides"])
        self.assertEqual(len(parsed), self.GAMES)
        # every move of the UGI engine carries its score and depth; the GTP engine's, its time
        for g in r.games:
            thoughts = parsed[g["game"]].thoughts()[len(g["opening"]):]
            self.assertEqual(len(thoughts), len(g["moves"]))
            for t, m in zip(thoughts, g["moves"]):
                self.assertIsNotNone(t, "game %d" % g["game"])
                if g["engines"][m["side"]] == "u":
                    self.assertIn("score", t, "game %d" % g["game"])
                    self.assertGreaterEqual(t["depth"], 1)
        # and such a file, comments and all, gives the openings of another match
        again = run_arena(engines, "--games", 2, "--tc", "inf", "--pgn-in", os.path.join(r.dir, "games.pgn"),
                          "--pgn-plies", 4, "--seed", 5, "--report-boards", 0, game=game, referee=None, timeout=60)
        self.assertEqual(again.code, 0, again)
        first = [records.from_file_move(game, m) for m in read_pgn(r)[0].moves]
        self.assertEqual(again.games[0]["opening"], first[:4])


_per_game(RecordsPerGameTest, "records")


TTD = os.path.join(SCRIPTS, "ttd.py")


class TimeToDepthScriptTest(unittest.TestCase):
    """scripts/ttd.py over the positions of a short Pods-advanced match: one line per engine,
    the first engine's speed-up over itself 1, every position searched by every engine."""

    def test_every_engine_gets_a_line_over_the_same_positions(self):
        needs("pods-advanced")
        engines = ["cmd=%s,name=a,proto=ugi,depth=1" % TETRAD, "cmd=%s,name=b,proto=ugi,depth=1" % TETRAD]
        r = run_arena(engines, "--games", 2, "--tc", "inf", "--random-plies", 2, "--seed", 3,
                      "--report-boards", 0, game="pods-advanced", referee=None, timeout=60)
        self.assertEqual(r.code, 0, r)
        p = subprocess.run([sys.executable, TTD, "--games", os.path.join(r.dir, "games.jsonl"), "--depth", "2",
                            "--positions", "3", "--every", "5", TETRAD + ":1", TETRAD + ":2"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        out = p.stdout.decode()
        self.assertEqual(p.returncode, 0, p.stderr.decode())
        lines = out.strip().splitlines()
        self.assertEqual(lines[0], "3 positions of pods-advanced, depth 2", out)
        self.assertEqual(len(lines), 3, out)
        self.assertTrue(lines[1].startswith(TETRAD + ":1  total "), out)
        self.assertIn("speed-up 1.000  geometric mean 1.000", lines[1])
        self.assertRegex(lines[2], r":2  total \d+\.\d\d s  speed-up \d+\.\d{3}  geometric mean \d+\.\d{3}$")

    def test_a_spec_without_threads_is_refused(self):
        p = subprocess.run([sys.executable, TTD, "--games", "none.jsonl", "--depth", "2", "engine"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=30)
        self.assertEqual(p.returncode, 2)
        self.assertIn("expected PATH:THREADS", p.stderr.decode())


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


def _draughts():
    try:
        import draughts  # noqa: F401
        from draughts.PDN import PDNReader  # noqa: F401
    except ImportError:
        text = "the PDN check needs pydraughts (pip install pydraughts)"
        if os.environ.get("ARENA_REQUIRE_TEST_DEPS") == "1":
            raise AssertionError(text + "; ARENA_REQUIRE_TEST_DEPS=1 makes that a failure")
        raise unittest.SkipTest(text)
    return draughts


def _pieces(fen):
    """{(colour, square)} of a W:W...:B... position string, kings as 'K' + square."""
    out = set()
    for part in fen.split(":")[1:]:
        colour, squares = part[:1], part[1:]
        out.update((colour, sq) for sq in squares.split(",") if sq)
    return out


def _replay(args):
    """Replay one PDN game with pydraughts (in a worker process: its move generator is slow).
    Returns (round, None or the first illegal move's description, final pieces, moves left)."""
    import draughts
    round_, variant, fen, moves = args
    board = draughts.Board(variant, fen)
    for k, mv in enumerate(moves):
        try:
            move = draughts.Move(board, pdn_move=mv)
        except (KeyError, ValueError, IndexError) as e:
            legal = [m.pdn_move for m in board.legal_moves()]
            return round_, "ply %d: pydraughts finds %s illegal (%r; legal: %s)" % (k + 1, mv, e, legal), None, None
        board.push(move)
    return round_, None, sorted(_pieces(board.fen)), len(board.legal_moves())


class PoddavkiPdnTest(unittest.TestCase):
    """pydraughts, a PDN reader other programs use, reads every Poddavki game the arena
    writes and replays it as legal under its Russian-draughts rules."""

    GAMES = int(os.environ.get("ARENA_PDN_GAMES", "20"))

    def test_pydraughts_replays_every_game(self):
        needs("poddavki")
        _draughts()
        from draughts.PDN import PDNReader
        engines = ["cmd=%s,name=d2,proto=gtp,depth=2" % TETRAD, "cmd=%s,name=d1,proto=ugi,depth=1" % TETRAD]
        r = run_arena(engines, "--games", self.GAMES, "--tc", "inf", "--concurrency", 2, "--max-plies", 200,
                      "--random-plies", 4, "--seed", 11, "--report-boards", 0, game="poddavki", referee=None,
                      timeout=120)
        self.assertEqual(r.code, 0, r)
        ident = identity(r)
        assert_pgn_matches(self, r, ident["start"], ident["sides"])
        games = PDNReader(filename=os.path.join(r.dir, "games.pgn")).games
        self.assertEqual(len(games), self.GAMES)
        by_number = {g["game"]: g for g in r.games}
        jobs = []
        for pdn in games:
            rec = by_number[int(pdn.tags["Round"])]
            self.assertEqual(pdn.variant, "russian")
            self.assertEqual(pdn.game_ending, rec["result"])
            self.assertEqual(len(pdn.moves), len(rec["opening"]) + rec["plies"])
            jobs.append((rec["game"], pdn.variant, pdn.tags.get("FEN", "startpos"), pdn.moves))
        # close and join, not terminate: the workers may have inherited the arena's SIGTERM
        # handler from an in-process run, and would print a traceback
        pool = multiprocessing.Pool(2)
        try:
            replays = pool.map(_replay, jobs)
        finally:
            pool.close()
            pool.join()
        ends = {}
        for number, error, pieces, left in replays:
            rec = by_number[number]
            self.assertIsNone(error, "game %d" % number)
            self.assertEqual(pieces, sorted(_pieces(rec["final"])), "game %d" % number)
            reason = rec["reason"].rsplit("(", 1)[-1].rstrip(")")
            ends[reason] = ends.get(reason, 0) + 1
            if reason == "no-moves":  # the side to move is stuck, and wins
                self.assertEqual(left, 0, "game %d" % number)
        self.assertGreater(ends.get("no-moves", 0), 0, ends)


def _gtp_game(seed, random_plies=4, max_plies=200):
    """A Poddavki game of tetrad against itself over GTP (seeded random plies, then depth 1),
    and its ``game_record``: (moves played, final position, result word, extension, record)."""
    import random
    from tetrad.engine import Engine  # the repository's protocol client (the arena's)
    rng = random.Random(seed)
    with Engine.popen([TETRAD, "--protocol", "gtp"], protocol="gtp", timeout=60.0) as e:
        e.command("set_game poddavki")
        e.command("set_option depth 1")
        moves = []
        while len(moves) < max_plies and e.command("game_result") == "ongoing":
            if len(moves) < random_plies:
                mv = rng.choice(e.command("legal_moves").split())
                e.command("play " + mv)
            else:
                mv = e.command("genmove")
            moves.append(mv)
        final = e.command("get_position")
        result = e.command("game_result")
        ext, _, record = e.command("game_record White=one Black=two Round=%d" % seed).partition("\n")
    return moves, final, result, ext, record + "\n"


class GameRecordPdnTest(unittest.TestCase):
    """GTP ``game_record`` of Poddavki games, exactly as the engine answers it, read back by
    pydraughts (and by the arena's own reader) as the games played."""

    def test_pydraughts_replays_the_engines_records(self):
        needs("poddavki")
        _draughts()
        from draughts.PDN import PDNReader
        finished = 0
        for seed in (1, 2, 3):
            moves, final, result, ext, text = _gtp_game(seed)
            self.assertEqual(ext, "pdn")
            pdn, = PDNReader(pdn_text=text).games
            self.assertEqual(pdn.variant, "russian")
            self.assertEqual(pdn.tags["Round"], str(seed))
            self.assertEqual([m.replace("x", ":") for m in pdn.moves], moves)
            round_, error, pieces, left = _replay((seed, pdn.variant, pdn.tags.get("FEN", "startpos"), pdn.moves))
            self.assertIsNone(error, text)
            self.assertEqual(pieces, sorted(_pieces(final)))
            if result != "ongoing":
                finished += 1
                winner = {"white": "1-0", "black": "0-1", "draw": "1/2-1/2"}[result.split()[0]]
                self.assertEqual(pdn.game_ending, winner)
                if result.endswith("no-moves"):
                    self.assertEqual(left, 0)
            else:
                self.assertEqual(pdn.game_ending, "*")
            g, = records.read(text)
            self.assertEqual([records.from_file_move("poddavki", m) for m in g.moves], moves)
            self.assertEqual((g.tags["White"], g.tags["Black"], g.tags["GameType"]), ("one", "two", "25,W,8,8,A0,0"))
            self.assertEqual(int(g.tags["PlyCount"]), len(moves))
        self.assertGreater(finished, 0)


if __name__ == "__main__":
    unittest.main()
