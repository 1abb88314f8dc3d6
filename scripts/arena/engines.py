"""Engines under test: players for the two protocol dialects (UGI family and GTP).

Nothing an engine says is trusted: every wait has a deadline, every answer is checked for
form, and any failure is turned into a ``Failure`` naming the kind of fault, which loses the
game for that engine.
"""

import os

from tetrad.engine import EngineExited, EngineGarbage, EngineStartError, EngineTimeout, GtpConnection, Process, UgiConnection

# kind -> the words of the result reason ("<engine> <words>")
FAULTS = {
    "illegal": "makes an illegal move",
    "malformed": "sends a malformed move",
    "nomove": "returns no move",
    "resign": "resigns",
    "time": "loses on time",
    "crash": "crashes",
    "hang": "stops responding",
    "reject": "rejects a legal move",
    "badpos": "rejects the start position",
    "start": "fails to start",
}

class Failure(Exception):
    def __init__(self, kind, detail=""):
        Exception.__init__(self, "%s: %s" % (kind, detail))
        self.kind = kind
        self.detail = detail


class Setup:
    """A game as the engines are told about it."""

    def __init__(self, game, base, is_start, opening, sides):
        self.game = game
        self.base = base
        self.is_start = is_start
        self.opening = list(opening)
        self.sides = sides  # (first mover's name, second mover's name)


class Reply:
    __slots__ = ("move", "elapsed", "depth", "score")

    def __init__(self, move, elapsed, depth=None, score=None):
        self.move = move
        self.elapsed = elapsed
        self.depth = depth
        self.score = score


class Settings:
    """Timing policy shared by all players."""

    def __init__(self, margin=0.1, grace=1.0, command_timeout=10.0, startup_timeout=10.0, move_timeout=60.0):
        self.margin = margin  # scheduling slack on top of the clock before a move loses on time
        self.grace = grace  # after the clock runs out: how long a late answer is still awaited
        self.command_timeout = command_timeout
        self.startup_timeout = startup_timeout
        self.move_timeout = move_timeout  # per move when there is no clock


def make_player(spec, game, settings, abort=None, trace=None, label=None):
    cls = GtpPlayer if spec.proto == "gtp" else UgiPlayer
    return cls(spec, game, settings, abort, trace, label)


class Player:
    def __init__(self, spec, game, settings, abort, trace, label):
        self.spec = spec
        self.game = game
        self.settings = settings
        self.abort = abort
        self.trace = trace
        self.label = label or spec.name or os.path.basename(spec.argv[0])
        self.proc = None
        self.tc = spec.tc  # the match sets the effective time control
        self.id_name = None
        self.starts = 0
        self._stderr_path = None

    # ---- life cycle ------------------------------------------------------------------------

    def alive(self):
        return self.proc is not None and self.proc.alive()

    def start(self):
        """Spawn and handshake. Raises Failure('start')."""
        self.kill()
        try:
            self.proc = Process(self.spec.argv, cwd=self.spec.dir, label=self.label, trace=self.trace, stderr_path=self._stderr_path)
        except EngineStartError as e:
            raise Failure("start", str(e))
        self.starts += 1
        try:
            self._handshake()
        except Failure:
            self.kill()
            raise
        except EngineTimeout:
            self.kill()
            raise Failure("start", "no answer to the handshake within %gs" % self.settings.startup_timeout)
        except EngineExited:
            detail = "exited during the handshake (status %s)" % self.proc.exit_status()
            self.kill()
            raise Failure("start", detail)

    def prepare(self, setup):
        """Make the engine ready for a new game (restarting it if it is dead or stuck)."""
        for attempt in (1, 2):
            if not self.alive():
                self.start()
            try:
                self._new_game(setup)
                return
            except EngineTimeout:
                failure = Failure("hang", "no answer while setting up the game")
            except EngineExited:
                failure = Failure("crash", "exited while setting up the game (status %s)" % self.proc.exit_status())
            except Failure as f:
                failure = f
            if failure.kind not in ("hang", "crash"):
                raise failure
            self.kill()
            if attempt == 2:
                raise failure

    def set_stderr(self, path):
        self._stderr_path = path
        if self.proc is not None:
            self.proc.set_stderr_sink(path)

    def kill(self):
        if self.proc is not None:
            self.proc.kill()
            self.proc = None

    def close(self):
        if self.proc is not None:
            self.proc.close("quit", timeout=1.0)
            self.proc = None

    def observe(self, side, move):
        """The opponent (``side``) played ``move``."""

    def _exit(self):
        return "exit status %s" % self.proc.exit_status()

    def _limit(self, clock):
        if clock.tc.timed:
            return clock.allowance(self.settings.margin)
        return self.settings.move_timeout

    def _late(self, elapsed, clock):
        return Failure("time", "used %.0f ms with %.0f ms on its clock" % (elapsed * 1000, clock.remaining * 1000))


class UgiPlayer(Player):
    """UGI / UCI / UAI: the whole position is sent with every move request."""

    def __init__(self, *a):
        Player.__init__(self, *a)
        self.word = self.spec.proto  # ugi, uci or uai: the handshake and newgame prefix
        self.conn = None

    @property
    def options(self):
        return self.conn.options if self.conn is not None else {}

    @property
    def variants(self):
        return self.conn.variants if self.conn is not None else None

    def _handshake(self):
        self.conn = UgiConnection(self.proc, self.word, self.abort)
        self.conn.handshake(self.settings.startup_timeout)
        self.id_name = self.conn.id_name
        variant = self.variant_name()
        if variant is not None:
            self.conn.setoption("UCI_Variant", variant)
        for name, value in self.spec.options:
            self.conn.setoption(name, value)
        errors = self.conn.sync(self.settings.startup_timeout)
        if errors:  # a mistyped option name must not go unnoticed
            raise Failure("start", "engine refuses its settings: " + " | ".join(errors))

    def variant_name(self):
        """The UCI_Variant value selecting our game, None when the engine has no such option.
        Raises Failure('start') when the engine lists its variants and ours is not among them."""
        if "uci_variant" not in self.options:
            return None
        if not self.variants:
            return self.game
        for name in _aliases(self.game):
            if name in self.variants:
                return name
        raise Failure("start", "engine does not play %s (its UCI_Variant offers %s)" % (self.game, " ".join(self.variants)))

    def _new_game(self, setup):
        self.proc.drain()
        self.proc.send(self.word + "newgame")
        self.conn.sync(self.settings.command_timeout)

    def think(self, setup, moves, mover, clocks):
        """Ask for a move. ``mover`` is 0/1 (first/second mover); ``clocks`` per side."""
        played = setup.opening + moves
        cmd = "position startpos" if setup.is_start else "position fen " + setup.base
        if played:
            cmd += " moves " + " ".join(played)
        go = ["go"]
        if clocks[0].tc.timed:
            go += ["p1time", _ms(clocks[0].remaining), "p2time", _ms(clocks[1].remaining)]
            go += ["p1inc", _ms(clocks[0].tc.inc), "p2inc", _ms(clocks[1].tc.inc)]
        for key in ("depth", "nodes", "movetime"):
            if getattr(self.spec, key):
                go += [key, str(getattr(self.spec, key))]
        clock = clocks[mover]
        limit = self._limit(clock)
        try:
            s = self.conn.search([cmd], " ".join(go), limit, self.settings.grace)
        except EngineTimeout:
            raise Failure("hang", "no answer %.1f s after its time ran out, even to stop" % self.settings.grace)
        except EngineExited:
            raise Failure("crash", self._exit())
        if s.elapsed > limit:
            raise self._late(s.elapsed, clock)
        try:
            move, _ = s.bestmove()
        except EngineGarbage:
            raise Failure("malformed", repr(s.line[:200]))
        if move is None:
            raise Failure("nomove", repr(s.line[:200]))
        return Reply(move, s.elapsed, s.depth, None if s.score is None else str(s.score))


class GtpPlayer(Player):
    """GTP: the engine keeps the game; it is told the opponent's moves with ``play``."""

    def __init__(self, *a):
        Player.__init__(self, *a)
        self.conn = None

    def _ask(self, command, timeout=None):
        return self.conn.ask(command, timeout or self.settings.command_timeout)

    def _handshake(self):
        self.conn = GtpConnection(self.proc, self.abort)
        t = self.settings.startup_timeout
        a = self._ask("name", t)
        if a.ok and a.text:
            self.id_name = a.text.splitlines()[0].strip()
        a = self._ask("set_game " + self.game, t)
        if not a.ok:
            raise Failure("start", "engine does not play %s: %s" % (self.game, a.text))
        settings = list(self.spec.options)
        for key in ("depth", "nodes", "movetime"):
            if getattr(self.spec, key):
                settings.append((key, str(getattr(self.spec, key))))
        for name, value in settings:
            a = self._ask("set_option %s %s" % (name, value), t)
            if not a.ok:
                raise Failure("start", "engine refuses set_option %s %s: %s" % (name, value, a.text))

    def _new_game(self, setup):
        self.proc.drain()
        a = self._ask("set_game " + setup.game)
        if not a.ok:
            raise Failure("start", "engine does not play %s: %s" % (setup.game, a.text))
        a = self._ask("set_position " + setup.base)
        if not a.ok:
            raise Failure("badpos", "%s: %s" % (setup.base, a.text))
        for m in setup.opening:
            a = self._ask("play " + m)
            if not a.ok:
                raise Failure("reject", "opening move %s: %s" % (m, a.text))
        self.conn.time_ok = True
        if self.tc is not None and self.tc.timed:
            self._time_command("time_settings %s 0 0", self.tc.base)

    def _time_command(self, fmt, secs):
        """Send a time command, falling back to whole seconds if fractional ones are refused."""
        self.conn.time_command(fmt, secs, self.settings.command_timeout)

    def think(self, setup, moves, mover, clocks):
        try:
            if clocks[0].tc.timed:
                for i, side in enumerate(setup.sides):
                    self._time_command("time_left " + side + " %s 0", clocks[i].remaining)
            cid, sent = self.conn.send("genmove " + setup.sides[mover])
        except EngineTimeout:
            raise Failure("hang", "no answer to a time command")
        except EngineExited:
            raise Failure("crash", self._exit())
        clock = clocks[mover]
        limit = self._limit(clock)
        try:
            try:
                a = self.conn.wait(cid, sent, sent + limit)
            except EngineTimeout:
                try:
                    a = self.conn.wait(cid, sent, sent + limit + self.settings.grace)
                except EngineTimeout:
                    raise Failure("hang", "no answer %.1f s after its time ran out" % self.settings.grace)
        except EngineExited:
            raise Failure("crash", self._exit())
        elapsed = a.received - sent
        if elapsed > limit:
            raise self._late(elapsed, clock)
        if not a.ok:
            raise Failure("nomove", "genmove answered ? %s" % a.text[:200])
        move = a.text.strip()
        if move.lower() == "resign":
            raise Failure("resign", "")
        if not move or len(move.split()) != 1:
            raise Failure("malformed", repr(a.text[:200]))
        return Reply(move, elapsed)

    def observe(self, side, move):
        try:
            a = self._ask("play %s %s" % (side, move))
        except EngineTimeout:
            raise Failure("hang", "no answer to play %s %s" % (side, move))
        except EngineExited:
            raise Failure("crash", self._exit())
        if not a.ok:
            raise Failure("reject", "play %s %s: %s" % (side, move, a.text[:200]))


def _aliases(game):
    if game in ("pods", "pods-standard"):
        return [game, "pods-standard" if game == "pods" else "pods"]
    return [game]


def _ms(secs):
    return str(max(0, int(secs * 1000)))
