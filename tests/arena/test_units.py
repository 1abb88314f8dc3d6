"""Unit tests of the runner's parts: engine specs, time controls, openings, process cleanup."""

import io
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from arena_harness import ARENA, FAKE_REFEREE, PY, fake  # noqa: E402
from arena import cli  # noqa: E402  (puts the protocol client's folder on the path)
from tetrad import _process as client_process  # noqa: E402  (the client's child processes)
from arena.clock import Clock, TimeControl  # noqa: E402
from arena.spec import EngineSpec  # noqa: E402
from arena.openings import Book, read_file, rotate  # noqa: E402
from arena.referee import Result  # noqa: E402

PODS_START = "6/6/6/6/6/6 w ABCDEFGHIJKLMN abcdefghijklmn 0"


class EngineSpecTest(unittest.TestCase):
    def test_fields(self):
        s = EngineSpec.parse("cmd=target/release/tetrad,name=a,proto=ugi,option.Hash=64,option.Threads=1")
        self.assertEqual(s.argv, ["target/release/tetrad"])
        self.assertEqual((s.name, s.proto), ("a", "ugi"))
        self.assertEqual(s.options, [("Hash", "64"), ("Threads", "1")])

    def test_command_with_arguments_and_commas(self):
        s = EngineSpec.parse("cmd=python3 eng.py --mode 'a b' --list x,y,name=b,proto=gtp,depth=4")
        self.assertEqual(s.argv, ["python3", "eng.py", "--mode", "a b", "--list", "x,y"])
        self.assertEqual((s.name, s.proto, s.depth), ("b", "gtp", 4))

    def test_each_and_overrides(self):
        s = EngineSpec.parse("cmd=e,option.Hash=128,tc=5+0.1", each=["proto=gtp,option.Hash=64,restart=on"])
        self.assertEqual(s.proto, "gtp")
        self.assertEqual(s.options, [("Hash", "128")])
        self.assertTrue(s.restart)
        self.assertEqual(str(s.tc), "5+0.1")
        s = EngineSpec.parse("cmd=e,arg=--name,arg=two words")
        self.assertEqual(s.argv, ["e", "--name", "two words"])

    def test_errors(self):
        for bad in ("name=a", "cmd=e,proto=xboard", "cmd=e,colour=red", "cmd=e,depth=x", "cmd=e,depth=0", "cmd=",
                    "cmd=e,restart=maybe", "cmd='unclosed"):
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError):
                    EngineSpec.parse(bad)


class TimeControlTest(unittest.TestCase):
    def test_parse(self):
        tc = TimeControl.parse("2+0.02")
        self.assertEqual((tc.base, tc.inc), (2.0, 0.02))
        self.assertEqual(str(tc), "2+0.02")
        self.assertEqual(str(TimeControl.parse("60")), "60+0")
        self.assertFalse(TimeControl.parse("inf").timed)
        for bad in ("", "2+", "+1", "a+b", "0+0", "-1+1"):
            with self.subTest(bad=bad):
                with self.assertRaises(ValueError):
                    TimeControl.parse(bad)

    def test_clock(self):
        c = Clock(TimeControl.parse("1+0.1"))
        self.assertFalse(c.overstepped(1.05, 0.1))
        self.assertTrue(c.overstepped(1.2, 0.1))
        c.charge(0.25)
        self.assertAlmostEqual(c.remaining, 0.85)
        c.charge(5.0)  # within the margin: the clock stops at zero, then the increment
        self.assertAlmostEqual(c.remaining, 0.1)


class StubReferee:
    """Just enough of a referee for opening generation: a counter game with 2 legal moves."""

    def __init__(self):
        self.positions = []
        self.played = []

    def new_game(self, base, moves=()):
        self.positions.append(base)
        self.played = list(moves)

    def legal_moves(self):
        return ["a", "b"]

    def play(self, m):
        self.played.append(m)
        return True, ""

    def result(self):
        # the game ends when "b" is played twice in a row
        return Result("win", "x") if self.played[-2:] == ["b", "b"] else Result("ongoing")


class OpeningsTest(unittest.TestCase):
    def test_pods_rotation_per_pair(self):
        book = Book("pods", PODS_START, seed=11)
        ops = [book.get(i, None) for i in range(12)]
        rotations = [int(o.base.split()[-1]) for o in ops]
        self.assertTrue(set(rotations) <= {0, 90, 180, 270})
        self.assertGreater(len(set(rotations)), 1)
        for o, r in zip(ops, rotations):
            self.assertEqual(o.base, PODS_START[:-1] + str(r))
            self.assertEqual(o.is_start, r == 0)
        again = Book("pods-advanced", PODS_START, seed=11)
        self.assertEqual([again.get(i, None).base for i in range(12)], [o.base for o in ops])
        self.assertIs(book.get(3, None), ops[3])  # both games of a pair share it
        plain = Book("pods", PODS_START, seed=11, rotate_pods=False)
        self.assertEqual(plain.get(0, None).base, PODS_START)
        self.assertEqual(Book("diamond", "7/8/8/8/8/8/8/7 b 12 12 0", seed=11).get(0, None).base, "7/8/8/8/8/8/8/7 b 12 12 0")

    def test_rotate(self):
        self.assertEqual(rotate(PODS_START, 270), PODS_START[:-1] + "270")

    def test_random_plies_are_seeded_and_keep_the_game_going(self):
        ref = StubReferee()
        a = [Book("g", "S", random_plies=6, seed=3).get(i, ref).moves for i in range(10)]
        b = [Book("g", "S", random_plies=6, seed=3).get(i, ref).moves for i in reversed(range(10))][::-1]
        self.assertEqual(a, b)  # independent of the order pairs are asked for
        for moves in a:
            self.assertEqual(len(moves), 6)
            self.assertNotIn("b b", " ".join(moves))
        self.assertGreater(len({tuple(m) for m in a}), 5)

    def test_file(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "o.txt")
            with open(path, "w") as f:
                f.write("# c\n\nW:Wa1:Bh8\n  7/8/8/8/8/8/8/7 b 12 12 0 moves e4 swap \n")
            lines = read_file(path)
            self.assertEqual(lines, [(3, "W:Wa1:Bh8", []), (4, "7/8/8/8/8/8/8/7 b 12 12 0", ["e4", "swap"])])
            book = Book("x", "S", lines, seed=1)
            self.assertEqual([book.get(i, None).base for i in range(3)], ["W:Wa1:Bh8", "7/8/8/8/8/8/8/7 b 12 12 0", "W:Wa1:Bh8"])
            with open(path, "w") as f:
                f.write("# nothing\n")
            with self.assertRaises(ValueError):
                read_file(path)


class CleanupTest(unittest.TestCase):
    def test_no_process_survives_a_match_with_crashes_and_hangs(self):
        with tempfile.TemporaryDirectory() as tmp:
            pids = os.path.join(tmp, "pids")
            once = os.path.join(tmp, "once")
            argv = ["--game", "toy", "--games", "4", "--tc", "1+0.01", "--stall", "0.3", "--concurrency", "2",
                    "--quiet", "--out", os.path.join(tmp, "out"),
                    "--referee", FAKE_REFEREE + " --pidfile " + pids,
                    "--engine", fake("a", "--fault hang --once %s --pidfile %s" % (once, pids)),
                    "--engine", fake("b", "--fault crash --fault-at 2 --pidfile %s" % pids, proto="gtp")]
            out, err = io.StringIO(), io.StringIO()
            code = cli.main(argv, out, err)
            self.assertEqual(code, 0, out.getvalue() + err.getvalue())
            self.assertIn("a stops responding: 1", out.getvalue())
            with open(pids) as f:
                started = [int(x) for x in f.read().split()]
            self.assertGreater(len(started), 6)
            for pid in started:
                with self.subTest(pid=pid):
                    # a zombie would still accept signal 0: gone means killed and reaped
                    with self.assertRaises(ProcessLookupError):
                        os.kill(pid, 0)
            self.assertEqual(client_process._live, set())
            self.assertEqual([t for t in threading.enumerate() if t.name.startswith("arena-worker")], [])

    def test_terminated_runner_takes_its_engines_along(self):
        with tempfile.TemporaryDirectory() as tmp:
            pids = os.path.join(tmp, "pids")
            out = os.path.join(tmp, "out")
            argv = [PY, ARENA, "--game", "toy", "--games", "100", "--tc", "5+0.1", "--concurrency", "2", "--quiet",
                    "--out", out, "--referee", FAKE_REFEREE + " --pidfile " + pids,
                    "--engine", fake("a", "--think 20 --pidfile " + pids),
                    "--engine", fake("b", "--think 20 --pidfile " + pids, proto="gtp")]
            p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            games = os.path.join(out, "games.jsonl")
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                if os.path.exists(games) and os.path.getsize(games) > 0:
                    break
                time.sleep(0.05)
            p.send_signal(signal.SIGTERM)
            stdout, _ = p.communicate(timeout=20)
            self.assertEqual(p.returncode, 130)
            text = stdout.decode()
            self.assertIn("Interrupted.", text)
            self.assertNotIn("crashes", text)  # games cut short are dropped, not scored
            with open(pids) as f:
                for pid in [int(x) for x in f.read().split()]:
                    with self.assertRaises(ProcessLookupError):
                        os.kill(pid, 0)


if __name__ == "__main__":
    unittest.main()
