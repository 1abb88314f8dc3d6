"""Openings: where each pair of games starts. Each opening is played twice, colours reversed.

An opening is a base position plus moves already played from it (the moves are kept, not folded
into a position string, so engines and referee share the game's history). Openings come from a
file of position strings, or from the start position, optionally followed by N seeded random
plies. Pods boards starting from the start position get a random rotation per opening.
"""

import random
import threading

from .referee import RefereeError

ROTATIONS = (0, 90, 180, 270)


class Opening:
    __slots__ = ("base", "moves", "is_start", "source")

    def __init__(self, base, moves, is_start, source):
        self.base = base
        self.moves = list(moves)
        self.is_start = is_start
        self.source = source  # e.g. "start", "file:12"

    def __repr__(self):
        return "Opening(%r, %r)" % (self.base, self.moves)


def read_file(path):
    """[(line number, position, moves)] from a file: one position string per line, optionally
    followed by `` moves M1 M2 ...``; ``startpos`` names the start position; blank lines and
    lines starting with ``#`` are skipped."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            text = line.strip()
            if not text or text.startswith("#"):
                continue
            toks = text.split()
            if "moves" in toks:
                i = toks.index("moves")
                pos, moves = " ".join(toks[:i]), toks[i + 1:]
            else:
                pos, moves = text, []
            out.append((n, pos, moves))
    if not out:
        raise ValueError("openings file %s holds no position" % path)
    return out


def is_pods(game):
    return game.lower().startswith("pods")


def rotate(position, degrees):
    """A Pods position string with its last field (the rotation of the lines) replaced."""
    toks = position.split()
    if not toks:
        return position
    toks[-1] = str(degrees)
    return " ".join(toks)


class Book:
    def __init__(self, game, start, lines=None, random_plies=0, seed=0, shuffle=False, rotate_pods=True):
        self.game = game
        self.start = start
        self.lines = lines or []
        self.random_plies = random_plies
        self.seed = seed
        self.rotate_pods = rotate_pods and is_pods(game)
        self.order = list(range(len(self.lines)))
        if shuffle:
            random.Random("order:%s" % seed).shuffle(self.order)
        self._cache = {}
        self._lock = threading.Lock()

    def get(self, pair, referee):
        """The opening of pair ``pair`` (0-based). Deterministic in (seed, pair) whatever the
        order pairs are asked for, so concurrency does not change the openings."""
        with self._lock:
            hit = self._cache.get(pair)
        if hit is not None:
            return hit
        op = self._make(pair, referee)
        with self._lock:
            return self._cache.setdefault(pair, op)

    def _make(self, pair, referee):
        rng = random.Random("opening:%s:%d" % (self.seed, pair))
        if self.lines:
            n, pos, moves = self.lines[self.order[pair % len(self.lines)]]
            source = "file:%d" % n
            if pos == "startpos":
                pos = self.start
        else:
            pos, moves, source = self.start, [], "start"
        is_start = pos == self.start
        if self.rotate_pods and is_start and not moves:
            degrees = rng.choice(ROTATIONS)
            pos = rotate(pos, degrees)
            is_start = pos == self.start
            source += "+rot%d" % degrees
        if self.random_plies > 0:
            moves = list(moves) + self._walk(referee, pos, moves, rng)
            source += "+random%d" % self.random_plies
        return Opening(pos, moves, is_start, source)

    def _walk(self, referee, pos, moves, rng, attempts=50):
        """random_plies seeded random legal moves that leave the game undecided; if no walk
        of full length stays undecided in ``attempts`` tries, the longest undecided one."""
        best = []
        for _ in range(attempts):
            referee.new_game(pos, moves)
            walk = []
            for _ in range(self.random_plies):
                legal = referee.legal_moves()
                if not legal:
                    break
                m = rng.choice(legal)
                ok, why = referee.play(m)
                if not ok:
                    raise RefereeError("referee refuses its own legal move %r: %s" % (m, why))
                if referee.result().over:
                    break
                walk.append(m)
            if len(walk) == self.random_plies:
                return walk
            if len(walk) > len(best):
                best = walk
        return best
