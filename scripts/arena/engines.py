"""Engines under test: players for the two protocol dialects (UGI family and GTP).

Nothing an engine says is trusted: every wait has a deadline, every answer is checked for
form, and any failure is turned into a ``Failure`` naming the kind of fault, which loses the
game for that engine.
"""

import math
import os
import time

from .gtp import GtpConn
from .proc import Eof, Proc, ProcessError, Timeout

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
            self.proc = Proc(self.spec.argv, cwd=self.spec.dir, label=self.label, trace=self.trace, stderr_path=self._stderr_path)
        except ProcessError as e:
            raise Failure("start", str(e))
        self.starts += 1
        try:
            self._handshake()
        except Failure:
            self.kill()
            raise
        except Timeout:
            self.kill()
            raise Failure("start", "no answer to the handshake within %gs" % self.settings.startup_timeout)
        except Eof:
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
            except Timeout:
                failure = Failure("hang", "no answer while setting up the game")
            except Eof:
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
        self.options = {}
        self.variants = None

    def _expect(self, wanted, timeout):
        """Wait for the line ``wanted``; returns the ``info string error`` lines seen before it."""
        deadline = time.monotonic() + timeout
        errors = []
        while True:
            _, line = self.proc.read(deadline, self.abort)
            text = line.strip()
            if text == wanted:
                return errors
            if text.startswith("info string error"):
                errors.append(text)

    def _handshake(self):
        p = self.proc
        p.send(self.word)
        deadline = time.monotonic() + self.settings.startup_timeout
        while True:
            _, line = p.read(deadline, self.abort)
            toks = line.split()
            if not toks:
                continue
            if toks[0] == self.word + "ok":
                break
            if toks[:2] == ["id", "name"] and len(toks) > 2:
                self.id_name = " ".join(toks[2:])
            elif toks[0] == "option" and "name" in toks:
                self._note_option(toks)
        variant = self.variant_name()
        if variant is not None:
            p.send("setoption name UCI_Variant value " + variant)
        for name, value in self.spec.options:
            p.send("setoption name %s value %s" % (name, value))
        p.send("isready")
        errors = self._expect("readyok", self.settings.startup_timeout)
        if errors:  # a mistyped option name must not go unnoticed
            raise Failure("start", "engine refuses its settings: " + " | ".join(errors))

    def _note_option(self, toks):
        i = toks.index("name")
        j = toks.index("type") if "type" in toks else len(toks)
        name = " ".join(toks[i + 1:j])
        self.options[name.lower()] = toks
        if name.lower() == "uci_variant":
            self.variants = [toks[k + 1] for k in range(len(toks) - 1) if toks[k] == "var"]

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
        self.proc.send("isready")
        self._expect("readyok", self.settings.command_timeout)

    def think(self, setup, moves, mover, clocks):
        """Ask for a move. ``mover`` is 0/1 (first/second mover); ``clocks`` per side."""
        p = self.proc
        played = setup.opening + moves
        cmd = "position startpos" if setup.is_start else "position fen " + setup.base
        if played:
            cmd += " moves " + " ".join(played)
        p.send(cmd)
        go = ["go"]
        if clocks[0].tc.timed:
            go += ["p1time", _ms(clocks[0].remaining), "p2time", _ms(clocks[1].remaining)]
            go += ["p1inc", _ms(clocks[0].tc.inc), "p2inc", _ms(clocks[1].tc.inc)]
        for key in ("depth", "nodes", "movetime"):
            if getattr(self.spec, key):
                go += [key, str(getattr(self.spec, key))]
        sent = p.send(" ".join(go))
        clock = clocks[mover]
        limit = self._limit(clock)
        deadline = sent + limit
        late = False
        depth = score = None
        while True:
            try:
                t, line = p.read(deadline + (self.settings.grace if late else 0.0), self.abort)
            except Timeout:
                if late:
                    raise Failure("hang", "no answer %.1f s after its time ran out, even to stop" % self.settings.grace)
                late = True
                p.send("stop")
                continue
            except Eof:
                raise Failure("crash", self._exit())
            toks = line.split()
            if not toks:
                continue
            if toks[0] == "info":
                depth, score = _info(toks, depth, score)
                continue
            if toks[0] != "bestmove":
                continue
            elapsed = t - sent  # arrival time, so a reply that beat the deadline is on time
            if elapsed > limit:
                raise self._late(elapsed, clock)
            if len(toks) == 2 or (len(toks) == 4 and toks[2] == "ponder"):
                move = toks[1]
            else:
                raise Failure("malformed", repr(line[:200]))
            if move in ("(none)", "0000", "none", "null"):
                raise Failure("nomove", repr(line[:200]))
            return Reply(move, elapsed, depth, score)


class GtpPlayer(Player):
    """GTP: the engine keeps the game; it is told the opponent's moves with ``play``."""

    def __init__(self, *a):
        Player.__init__(self, *a)
        self.conn = None
        self.int_time = False  # the engine wants whole seconds in time_settings/time_left
        self.time_ok = True

    def _ask(self, command, timeout=None):
        return self.conn.ask(command, timeout or self.settings.command_timeout)

    def _handshake(self):
        self.conn = GtpConn(self.proc, self.abort)
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
        self.time_ok = True
        if self.tc is not None and self.tc.timed:
            self._time_command("time_settings %s 0 0", self.tc.base)

    def _time_command(self, fmt, secs):
        """Send a time command, falling back to whole seconds if fractional ones are refused."""
        if not self.time_ok:
            return
        while True:
            # whole seconds: at least 1, since some engines read 0 as "no clock"
            value = str(max(1, int(math.floor(secs)))) if self.int_time else _secs(secs)
            a = self._ask(fmt % value)
            if a.ok:
                return
            if self.int_time:
                self.time_ok = False  # the engine will have to manage without our clock
                return
            self.int_time = True

    def think(self, setup, moves, mover, clocks):
        try:
            if clocks[0].tc.timed:
                for i, side in enumerate(setup.sides):
                    self._time_command("time_left " + side + " %s 0", clocks[i].remaining)
            cid, sent = self.conn.send("genmove " + setup.sides[mover])
        except Timeout:
            raise Failure("hang", "no answer to a time command")
        except Eof:
            raise Failure("crash", self._exit())
        clock = clocks[mover]
        limit = self._limit(clock)
        try:
            try:
                a = self.conn.wait(cid, sent, sent + limit)
            except Timeout:
                try:
                    a = self.conn.wait(cid, sent, sent + limit + self.settings.grace)
                except Timeout:
                    raise Failure("hang", "no answer %.1f s after its time ran out" % self.settings.grace)
        except Eof:
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
        except Timeout:
            raise Failure("hang", "no answer to play %s %s" % (side, move))
        except Eof:
            raise Failure("crash", self._exit())
        if not a.ok:
            raise Failure("reject", "play %s %s: %s" % (side, move, a.text[:200]))


def _aliases(game):
    if game in ("pods", "pods-standard"):
        return [game, "pods-standard" if game == "pods" else "pods"]
    return [game]


def _ms(secs):
    return str(max(0, int(secs * 1000)))


def _secs(secs):
    return ("%d" % secs) if float(secs).is_integer() else ("%.3f" % secs)


def _info(toks, depth, score):
    for i, t in enumerate(toks[:-1]):
        if t == "depth":
            try:
                depth = int(toks[i + 1])
            except ValueError:
                pass
        elif t == "score" and i + 2 < len(toks) and toks[i + 1] in ("cp", "mate"):
            score = toks[i + 1] + " " + toks[i + 2]
    return depth, score
