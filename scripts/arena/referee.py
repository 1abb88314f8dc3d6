"""The referee: a separate GTP process (tetrad by default) that owns the rules.

Every move an engine returns is checked with ``play``; the result comes from ``game_result``.
The runner never decides legality or results itself.
"""

from tetrad.engine import Aborted, EngineExited, EngineStartError, EngineTimeout, GtpConnection, Process


class RefereeError(Exception):
    """The referee failed (crashed, hung, or answered something impossible)."""


class Result:
    __slots__ = ("kind", "winner", "reason")

    def __init__(self, kind, winner=None, reason=""):
        self.kind = kind  # "ongoing", "draw" or "win"
        self.winner = winner  # the winning side's name for "win"
        self.reason = reason

    @property
    def over(self):
        return self.kind != "ongoing"


class Referee:
    def __init__(self, argv, timeout=10.0, stderr_path=None, trace=None, abort=None, label="referee"):
        self.argv = list(argv)
        self.timeout = timeout
        try:
            self.proc = Process(self.argv, label=label, trace=trace, stderr_path=stderr_path)
        except EngineStartError as e:
            raise RefereeError(str(e))
        self.conn = GtpConnection(self.proc, abort)
        self.game = None
        self.sides = None

    def close(self):
        self.proc.close("quit", timeout=1.0)

    def alive(self):
        return self.proc.alive()

    # ---- raw commands ----------------------------------------------------------------------

    def attempt(self, command):
        """(ok, text) of a command; a dead or silent referee raises RefereeError."""
        try:
            a = self.conn.ask(command, self.timeout)
        except EngineTimeout:
            raise RefereeError("referee did not answer %r within %gs" % (command, self.timeout))
        except EngineExited:
            raise RefereeError("referee exited (status %s) on %r" % (self.proc.exit_status(), command))
        except Aborted:
            raise
        return a.ok, a.text

    def ask(self, command):
        ok, text = self.attempt(command)
        if not ok:
            raise RefereeError("referee refused %r: %s" % (command, text))
        return text

    # ---- the game ---------------------------------------------------------------------------

    def set_game(self, game):
        self.ask("set_game " + game)
        self.game = game

    def list_games(self):
        ok, text = self.attempt("list_games")
        return text.split() if ok else []

    def position(self):
        return self.ask("get_position").strip()

    def set_position(self, pos):
        """Start a new game from ``pos``; returns the referee's error text or None."""
        ok, text = self.attempt("set_position " + pos)
        return None if ok else text

    def play(self, move):
        """(True, "") if the move was legal and is now played, else (False, why)."""
        ok, text = self.attempt("play " + move)
        return ok, text

    def undo(self):
        self.ask("undo")

    def legal_moves(self):
        return self.ask("legal_moves").split()

    def listed_moves(self):
        """The legal moves, or None when the referee declines to list them (tetrad does past
        a million, which dense Phutball positions reach): a game goes on without the list."""
        ok, text = self.attempt("legal_moves")
        return text.split() if ok else None

    def side_to_move(self):
        return self.ask("side_to_move").strip().lower()

    def result(self):
        text = self.ask("game_result").strip()
        head, _, reason = text.partition(" ")
        head = head.lower()
        reason = reason.strip()
        if head == "ongoing":
            return Result("ongoing")
        if head == "draw":
            return Result("draw", None, reason)
        if self.sides is not None and head not in self.sides:
            raise RefereeError("referee answered game_result %r, naming no side of %s" % (text, "/".join(self.sides)))
        return Result("win", head, reason)

    def new_game(self, base, moves=()):
        """Set up a game from a start position and moves already played."""
        err = self.set_position(base)
        if err is not None:
            raise RefereeError("referee rejects position %r: %s" % (base, err))
        for m in moves:
            ok, why = self.play(m)
            if not ok:
                raise RefereeError("referee rejects opening move %r: %s" % (m, why))

    def discover_sides(self, game):
        """(first mover's name, second mover's name), learnt from the referee itself: the side
        to move at the start, then after one legal move."""
        self.set_game(game)
        p1 = self.side_to_move()
        moves = self.legal_moves()
        if not moves:
            raise RefereeError("game %s has no legal move at its start" % game)
        ok, why = self.play(moves[0])
        if not ok:
            raise RefereeError("referee rejects its own legal move %r: %s" % (moves[0], why))
        p2 = self.side_to_move()
        if p2 == p1:
            raise RefereeError("cannot tell the sides of %s apart (both %r)" % (game, p1))
        self.set_game(game)
        self.sides = (p1, p2)
        return self.sides

    def canonical(self, move, legal):
        """Having just played the accepted non-canonical ``move``, find which legal move in
        canonical notation it was: the one leading to the same position. Leaves the referee
        with that move played. Returns the canonical string (``move`` itself if none matches)."""
        after = self.position()
        self.undo()
        key = move.lower()
        # Moves sharing the most leading characters with the input are the likeliest.
        ranked = sorted(legal, key=lambda c: -_common_prefix(c.lower(), key))
        for cand in ranked:
            ok, _ = self.play(cand)
            if not ok:
                continue
            if self.position() == after:
                return cand
            self.undo()
        ok, why = self.play(move)
        if not ok:
            raise RefereeError("referee accepted %r, then refused it: %s" % (move, why))
        return move


def _common_prefix(a, b):
    n = 0
    for x, y in zip(a, b):
        if x != y:
            break
        n += 1
    return n
