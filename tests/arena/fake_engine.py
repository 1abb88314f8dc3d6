#!/usr/bin/env python3
"""A scriptable engine for the toy game (see toy.py), speaking UGI or GTP (chosen by the
first command, as tetrad does), which can be told to misbehave:

  --fault illegal|malformed|nomove|resign|crash|hang|garbage|flood|slow|reject|badstart|quitstart|lenient
                    (garbage: noise lines instead of an answer; flood: noise without end, as
                    fast as it can; quitstart: exits 0 at once)
  --fault-at K      the fault happens at the engine's K-th move of each game (default 1)
  --fault-at-total K   ... or at its K-th move since it started, whatever the game
  --once FILE       fault only if FILE does not exist yet (it is created), i.e. once per match
  --play optimal|random|one|wait   how it chooses its moves
  --seed-per-game   the same random choices in every game, whatever came before
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import toy  # noqa: E402


class Engine:
    def __init__(self, args):
        self.a = args
        self.rng = random.Random(args.seed)
        self.pos = toy.parse(toy.START)
        self.moves_this_game = 0
        self.moves_total = 0
        self.times = [None, None]
        self.variants = args.variants.split(",")

    def log(self, text):
        if self.a.stderr:
            sys.stderr.write("fake[%d]: %s\n" % (os.getpid(), text))
            sys.stderr.flush()

    def new_game(self):
        self.moves_this_game = 0
        if self.a.seed_per_game:
            # each game's choices then depend on the game alone, as a depth-limited engine's do
            self.rng = random.Random(self.a.seed)

    def faulting(self):
        """Whether the current move request is the faulty one."""
        count, at = self.moves_this_game, self.a.fault_at
        if self.a.fault_at_total:
            count, at = self.moves_total, self.a.fault_at_total
        if self.a.fault in ("none", "badstart", "reject") or count != at:
            return False
        if self.a.once:
            if os.path.exists(self.a.once):
                return False
            open(self.a.once, "w").close()
        return True

    def choose(self):
        p = self.pos
        takes = [m for m in toy.legal(p) if m != "w"]
        if not takes:
            return "w"
        plan = self.a.play
        if plan == "wait":
            return "w"
        if plan == "one":
            return "1"
        if plan == "random":
            return self.rng.choice(takes)
        k = p.pile % 4
        return str(k) if k else self.rng.choice(takes)

    def move(self):
        """The answer to a move request: ('move', text), ('raw', line), or it acts itself."""
        self.moves_this_game += 1
        self.moves_total += 1
        fault = self.a.fault if self.faulting() else None
        self.log("thinking on %s (move %d of this game)" % (toy.fmt(self.pos), self.moves_this_game))
        if self.a.think:
            time.sleep(self.a.think / 1000.0)
        if fault == "crash":
            self.log("crashing on purpose")
            os._exit(3)
        if fault == "hang":
            self.log("hanging on purpose")
            while True:
                time.sleep(3600)
        if fault == "garbage":
            self.log("answering garbage on purpose")
            sys.stdout.write("no idea\n%s\n" % ("#" * 40))
            sys.stdout.flush()
            while True:
                time.sleep(3600)
        if fault == "flood":
            self.log("flooding on purpose")
            chunk = "flood %s\n" % ("~" * 60) * 1000
            while True:
                sys.stdout.write(chunk)
                sys.stdout.flush()
        if fault == "slow":
            left = self.times[self.pos.side]
            time.sleep((left if left is not None else 1.0) + 0.3)
        if fault == "illegal":
            return "move", "4"
        if fault == "malformed":
            return "malformed", None
        if fault == "nomove":
            return "nomove", None
        if fault == "resign":
            return "move", "resign"
        m = self.choose()
        if fault == "lenient":
            m = ("t" + m) if m != "w" else "W"
        return "move", m


def ugi(e, word, lines):
    out = sys.stdout

    def say(text):
        out.write(text + "\n")
        out.flush()

    say("id name %s" % e.a.name)
    say("id author arena tests")
    if not e.a.no_variant:
        say("option name UCI_Variant type combo default %s %s" % (e.variants[0], " ".join("var " + v for v in e.variants)))
    say("option name Seed type spin default 0 min 0 max 1000000")
    say(word + "ok")
    for raw in lines:
        toks = raw.split()
        if not toks:
            continue
        cmd = toks[0]
        if cmd == "quit":
            return
        if cmd == "isready":
            say("readyok")
        elif cmd == word + "newgame":
            e.new_game()
        elif cmd == "setoption":
            text = " ".join(toks[1:])
            if text.startswith("name UCI_Variant value "):
                v = text.split()[-1]
                if v not in e.variants:
                    say("info string error: unknown variant %s" % v)
            elif not text.startswith("name Seed value "):
                say("info string error: unknown option in %s" % text)
        elif cmd == "position":
            if len(toks) > 1 and toks[1] == "startpos":
                p, rest = toy.parse(toy.START), toks[2:]
            elif len(toks) > 1 and toks[1] == "fen":
                i = toks.index("moves") if "moves" in toks else len(toks)
                try:
                    p = toy.parse(" ".join(toks[2:i]))
                except ValueError as err:
                    say("info string error: %s" % err)
                    continue
                rest = toks[i:]
            else:
                say("info string error: bad position")
                continue
            for m in rest[1:]:
                p = toy.play(p, toy.canonical(p, m))
            e.pos = p
        elif cmd == "go":
            kv = dict(zip(toks[1::2], toks[2::2]))
            for i, key in enumerate(("p1time", "p2time")):
                if key in kv:
                    e.times[i] = int(kv[key]) / 1000.0
            kind, m = e.move()
            say("info depth 1 score cp 0 nodes 1 pv %s" % (m or "w"))
            if kind == "malformed":
                say("bestmove")
            elif kind == "nomove":
                say("bestmove (none)")
            else:
                say("bestmove %s" % m)
        elif cmd == "stop":
            pass
        else:
            say("info string error: unknown command %s" % cmd)


def gtp(e, first, lines):
    state = {"game": None}

    def handle(cmd, a):
        if cmd == "quit":
            return None
        if cmd == "name":
            return True, e.a.name
        if cmd in ("protocol_version",):
            return True, "2"
        if cmd == "set_game":
            if not a or a[0] not in e.variants:
                return False, "unknown game"
            state["game"] = a[0]
            e.pos = toy.parse(toy.START)
            e.new_game()
            return True, ""
        if cmd == "set_option":
            return (True, "") if len(a) == 2 else (False, "expected NAME VALUE")
        if cmd == "set_position":
            try:
                e.pos = toy.parse(" ".join(a))
            except ValueError as err:
                return False, "invalid position: %s" % err
            e.new_game()
            return True, ""
        if cmd == "time_settings":
            return True, ""
        if cmd == "time_left":
            if len(a) != 3 or toy.side_index(a[0]) is None:
                return False, "expected SIDE TIME STONES"
            if e.a.int_time and "." in a[1]:
                return False, "time must be an integer"
            e.times[toy.side_index(a[0])] = float(a[1])
            return True, ""
        if cmd == "play":
            if e.a.fault == "reject":
                return False, "illegal move"
            try:
                m = toy.canonical(e.pos, a[-1])
            except (ValueError, IndexError) as err:
                return False, "illegal move: %s" % err
            e.pos = toy.play(e.pos, m)
            return True, ""
        if cmd == "genmove":
            kind, m = e.move()
            if kind == "malformed":
                return True, "1 2"
            if kind == "nomove":
                return False, "no move"
            try:
                e.pos = toy.play(e.pos, toy.canonical(e.pos, m))
            except ValueError:
                pass  # an illegal move on purpose: keep the board
            return True, m
        return False, "unknown command"

    toy.gtp_loop(handle, stdin=_chain(first, lines))


def _chain(first, rest):
    yield first
    for line in rest:
        yield line


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="fake")
    ap.add_argument("--play", default="optimal", choices=("optimal", "random", "one", "wait"))
    ap.add_argument("--fault", default="none",
                    choices=("none", "illegal", "malformed", "nomove", "resign", "crash", "hang", "garbage", "flood", "slow", "reject", "badstart", "quitstart", "lenient"))
    ap.add_argument("--fault-at", type=int, default=1)
    ap.add_argument("--fault-at-total", type=int, default=0)
    ap.add_argument("--once")
    ap.add_argument("--think", type=float, default=0.0, help="ms per move")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--seed-per-game", action="store_true", help="seed again at each new game")
    ap.add_argument("--stderr", action="store_true")
    ap.add_argument("--pidfile")
    ap.add_argument("--no-variant", action="store_true")
    ap.add_argument("--variants", default="toy")
    ap.add_argument("--int-time", action="store_true", help="GTP: refuse fractional seconds")
    args = ap.parse_args()
    if args.pidfile:
        with open(args.pidfile, "a") as f:
            f.write("%d\n" % os.getpid())
    e = Engine(args)
    e.log("started")
    if args.fault == "quitstart":
        sys.exit(0)
    if args.fault == "badstart":
        while True:
            time.sleep(3600)
    lines = iter(sys.stdin.readline, "")
    for first in lines:
        word = first.strip()
        if not word:
            continue
        if word in ("ugi", "uci", "uai"):
            ugi(e, word, lines)
        else:
            gtp(e, first, lines)
        return


if __name__ == "__main__":
    main()
