"""Checks shared by the record tests: a games.pgn parsed back must hold the games of
games.jsonl, move for move, with their results and tags."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(HERE)), "scripts"))

from arena import records  # noqa: E402


def expected_comment(m):
    """The comment of an engine move as ARENA.md describes it, written out independently of
    records.py: ``+0.35/12 0.512s`` (score in pawns, mates as +M3/-M3, depth, time), or only
    the time when the engine reported no score."""
    secs = m["ms"] / 1000.0
    spent = "%.3fs" % secs if secs < 10 else "%.2fs" % secs
    if "score" not in m:
        return spent
    kind, value = m["score"].split()
    n = int(value)
    if kind == "mate":
        head = ("+M%d" % n) if n > 0 else ("-M%d" % -n)
    elif n == 0:
        head = "0.00"
    else:
        head = ("+" if n > 0 else "-") + "%d.%02d" % (abs(n) // 100, abs(n) % 100)
    return "%s/%d %s" % (head, m.get("depth", 0), spent)


def read_pgn(run):
    with open(os.path.join(run.dir, "games.pgn"), encoding="utf-8") as f:
        return records.read(f.read())


def assert_pgn_matches(tc, run, start=None, sides=None):
    """Every finished game of the run is in games.pgn once, with the same moves, result,
    players, reason and start position; returns the parsed games by number."""
    parsed = read_pgn(run)
    finished = [g for g in run.games if g["result"] != "*"]
    tc.assertEqual(len(parsed), len(finished))
    by_round = {}
    for p in parsed:
        n = int(p.tags["Round"])
        tc.assertNotIn(n, by_round)
        by_round[n] = p
    for g in finished:
        p = by_round[g["game"]]
        game = g["game_name"]
        moves = [records.from_file_move(game, m) for m in p.moves]
        tc.assertEqual(moves, list(g["opening"]) + [m["move"] for m in g["moves"]], "game %d" % g["game"])
        first, second = sides or list(g["engines"])
        flip = first != "white" and second == "white"  # Diamond: white moves second
        result = {"1-0": "0-1", "0-1": "1-0"}.get(g["result"], g["result"]) if flip else g["result"]
        tc.assertEqual(p.result, result)
        tc.assertEqual(p.tags["Result"], result)
        players = (g["p2"], g["p1"]) if flip else (g["p1"], g["p2"])
        tc.assertEqual((p.tags["White"], p.tags["Black"]), players)
        tc.assertEqual(p.tags["Termination"], g["reason"])
        tc.assertEqual(p.tags["Variant"], game)
        tc.assertEqual(int(p.tags["PlyCount"]), len(moves))
        for side, name in g["engines"].items():
            tc.assertEqual(p.tags[records.side_tag(side)], name)
        if start is not None:
            tc.assertEqual(p.tags.get("FEN", start), g["start"])
            tc.assertEqual("SetUp" in p.tags, g["start"] != start)
        thoughts = p.comments[len(g["opening"]):]
        tc.assertEqual(thoughts, [expected_comment(m) for m in g["moves"]], "game %d" % g["game"])
        for c, m in zip(thoughts, g["moves"]):  # read back as recorded
            back = records.parse_comment(c)
            tc.assertEqual((back.get("score"), back.get("depth")), (m.get("score"), m.get("depth") if "score" in m else None))
        tc.assertTrue(all(c == "opening" for c in p.comments[:len(g["opening"])]))
    return by_round
