"""Drive any game engine that speaks GTP or UGI (the UCI family) from Python: standard library only.

    from tetrad.engine import Engine, Limit, EngineError

    with Engine.popen(["target/release/tetrad"], protocol="ugi") as engine:
        engine.configure({"Threads": 1})
        result = engine.play("W:W21,22,...:B1,2,...", Limit(depth=6), game="poddavki")
        print(result.move, result.score, result.depth, result.pv)
        for line in engine.analyse(state, Limit(nodes=20000), multipv=3):
            print(line.score, line.pv)

Nothing the engine says is trusted. Every wait has a deadline: a search may take its limit plus
``margin`` seconds (UGI engines are then sent ``stop`` and get ``margin`` more), a search with no
time bound ``search_timeout`` seconds, any other command ``timeout`` seconds. An engine that
exits, hangs past its deadline (it is then killed) or answers what the protocol does not allow
raises an ``EngineError`` subclass whose message names what happened; the caller goes on.

Layers, from the top (the lower ones in ``_ugi.py``, ``_gtp.py`` and ``_process.py`` beside this
file; import every name from ``tetrad.engine``):

* ``Engine``: ``popen``, ``configure``, ``play``, ``analyse``, ``quit``; ``command`` and ``ask``
  (one command, its answer) and ``send``/``read_line`` (raw lines, for scripts that time the
  engine or test it with malformed input) are the documented ways below the high-level calls.
* ``GtpConnection`` and ``UgiConnection``: one dialect's framing over a ``Process``: GTP commands
  numbered and answers matched by id (a late answer to an abandoned command is skipped), the UGI
  handshake, ``info`` lines and ``bestmove``. The arena (``scripts/arena/``) plays its matches
  with these directly, since it keeps the clocks and judges the faults itself.
* ``Process``: a child process with a reader thread that timestamps each line as it arrives, a
  writer thread (a child that does not read cannot block us), stderr copied to a file or dropped,
  its own process group (killing it kills what it spawned), always reaped.
"""

import shlex
import time

from ._gtp import GtpAnswer, GtpConnection
from ._process import (Aborted, EngineError, EngineExited, EngineGarbage, EngineRefused,
                       EngineStartError, EngineTimeout, Process, kill_all)
from ._ugi import NULL_MOVES, Info, Score, UgiConnection, UgiSearch, _noise, _option_value

__all__ = [
    "Aborted",
    "Engine",
    "EngineError",
    "EngineExited",
    "EngineGarbage",
    "EngineRefused",
    "EngineStartError",
    "EngineTimeout",
    "GtpAnswer",
    "GtpConnection",
    "Info",
    "Limit",
    "NULL_MOVES",
    "PlayResult",
    "Process",
    "Score",
    "UgiConnection",
    "UgiSearch",
    "kill_all",
]


class Limit:
    """How long a search may run: ``time`` (seconds for this move), ``depth`` (plies),
    ``nodes``, ``clock`` (the game clocks in seconds: ``(first mover's, second mover's)`` or
    ``(first, second, first's increment, second's increment)``). Any combination; the engine
    stops at the first reached."""

    def __init__(self, time=None, depth=None, nodes=None, clock=None):
        self.time = time
        self.depth = depth
        self.nodes = nodes
        if clock is not None:
            clock = tuple(float(c) for c in clock)
            if len(clock) == 2:
                clock += (0.0, 0.0)
            if len(clock) != 4 or min(clock) < 0:
                raise ValueError("clock must be (p1, p2) or (p1, p2, p1_inc, p2_inc) seconds, none negative")
        self.clock = clock
        if time is None and depth is None and nodes is None and clock is None:
            raise ValueError("a Limit needs time, depth, nodes or clock")

    def seconds(self, mover):
        """The time the search may take by this limit (None: no time bound). ``mover`` 0/1, or
        None when not known (the larger clock counts then)."""
        bounds = []
        if self.time is not None:
            bounds.append(float(self.time))
        if self.clock is not None:
            bounds.append(self.clock[mover] if mover in (0, 1) else max(self.clock[:2]))
        return min(bounds) if bounds else None

    def __repr__(self):
        parts = ["%s=%r" % (k, getattr(self, k)) for k in ("time", "depth", "nodes", "clock") if getattr(self, k) is not None]
        return "Limit(%s)" % ", ".join(parts)


class PlayResult:
    """The answer to ``Engine.play``: ``move`` (as the engine wrote it; None when a UGI engine
    answered a null move), ``ponder`` (UGI), and the last ``score``, ``depth`` and ``pv`` the
    engine reported while searching (None / [] when it reported none, as GTP ``genmove`` never
    does), ``elapsed`` seconds."""

    def __init__(self, move, ponder=None, score=None, depth=None, pv=None, elapsed=None):
        self.move = move
        self.ponder = ponder
        self.score = score
        self.depth = depth
        self.pv = pv or []
        self.elapsed = elapsed

    def __repr__(self):
        return "PlayResult(move=%r, score=%r, depth=%r, pv=%r)" % (self.move, self.score, self.depth, self.pv)


class Engine:
    """One engine process. Use ``Engine.popen``; as a context manager it quits on exit.

    ``timeout``: seconds for any answer that is not a search; ``margin``: seconds a search may
    run past its time limit (then UGI ``stop``, and ``margin`` more); ``search_timeout``: seconds
    for a search with no time bound (depth and nodes only)."""

    def __init__(self, proc, protocol, timeout=10.0, margin=1.0, search_timeout=60.0):
        self.proc = proc
        self.protocol = protocol
        self.timeout = timeout
        self.margin = margin
        self.search_timeout = search_timeout
        self.id_name = None
        self.gtp = GtpConnection(proc) if protocol == "gtp" else None
        self.ugi = UgiConnection(proc, protocol) if protocol != "gtp" else None
        self.sides = ("p1", "p2")  # GTP side names for time_left (tetrad accepts p1/p2)
        self._caps = {}  # GTP search-limit options this client set (reset to 0 when unused)
        self._clocked = False
        self._multipv = 1
        self._variant = None

    @classmethod
    def popen(cls, cmd, protocol="gtp", cwd=None, env=None, stderr=None, timeout=10.0, margin=1.0,
              search_timeout=60.0, label=None):
        """Start ``cmd`` (a list, or a string split as a shell would) and handshake in
        ``protocol``: ``gtp``, or ``ugi`` / ``uci`` / ``uai`` (the handshake word). ``stderr``: a
        file path for the engine's stderr (default: dropped). Raises EngineError."""
        if protocol not in ("gtp", "ugi", "uci", "uai"):
            raise ValueError("protocol must be gtp, ugi, uci or uai, not %r" % protocol)
        argv = shlex.split(cmd) if isinstance(cmd, str) else list(cmd)
        proc = Process(argv, cwd=cwd, label=label, stderr_path=stderr, env=env)
        engine = cls(proc, protocol, timeout, margin, search_timeout)
        try:
            engine._handshake()
        except EngineError as e:
            proc.kill()
            raise type(e)("%s (during the handshake)" % e)
        return engine

    # ---- life cycle ------------------------------------------------------------------------

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.quit()

    @property
    def pid(self):
        return self.proc.pid

    def alive(self):
        return self.proc.alive()

    def quit(self):
        """Ask the engine to quit; kill it if it has not exited within ``timeout``."""
        self.proc.close("quit", timeout=min(self.timeout, 5.0))

    def kill(self):
        self.proc.kill()

    def _handshake(self):
        if self.gtp is not None:
            a = self._ask("name")
            if a.ok and a.text:
                self.id_name = a.text.splitlines()[0].strip()
            return
        self._io(lambda: self.ugi.handshake(self.timeout), "the %s handshake" % self.protocol)
        self.id_name = self.ugi.id_name
        self._sync()

    # ---- the low level ---------------------------------------------------------------------

    def send(self, line):
        """Send one raw line (text or bytes, sent as they are with a newline); no answer is
        awaited. For scripts that test engines with malformed input; mixing it with the calls
        above is the caller's business (a GTP answer to a raw line without an id is skipped)."""
        self.proc.send(line)

    def read_line(self, timeout=None):
        """The next raw line from the engine; raises EngineTimeout or EngineExited."""
        return self.proc.read(time.monotonic() + (self.timeout if timeout is None else timeout))[1]

    def ask(self, command, timeout=None):
        """GTP: send one command and return its GtpAnswer (``ok``, ``text``, ``sent``,
        ``received``) whether it succeeded or not."""
        if self.gtp is None:
            raise EngineError("ask is a GTP call; this engine speaks %s" % self.protocol)
        return self._ask(command, timeout)

    def command(self, command, timeout=None):
        """GTP: send one command and return its answer's text; a ``?`` answer raises
        EngineRefused. UGI: send the line and wait until the engine has read it (``isready``);
        ``info string error`` lines before that raise EngineRefused."""
        if self.gtp is not None:
            a = self._ask(command, timeout)
            if not a.ok:
                raise EngineRefused("%s refused %r: %s" % (self._name(), command, a.text))
            return a.text
        self.proc.send(command)
        self._sync(timeout, command)
        return ""

    def configure(self, options):
        """Set engine options from a dict (GTP ``set_option``, UGI ``setoption``); True and
        False are sent as ``true`` / ``false``. A refused option raises EngineRefused."""
        for name, value in options.items():
            if self.gtp is not None:
                self.command("set_option %s %s" % (name, _option_value(value)))
            else:
                self.ugi.setoption(name, value)
        if self.ugi is not None and options:
            self._sync(None, "setoption " + " ".join(options))

    # ---- searching -------------------------------------------------------------------------

    def play(self, position, limit, game=None, moves=None):
        """The engine's move in a position: a position string (None or ``startpos``: the
        game's start), or an object with ``position()`` (pyext's ``tetrad.State``), plus the
        ``moves`` played since (a list). ``game``: the game's name (for an object, its
        ``game.name`` or ``game_name`` if it has one). Returns a PlayResult."""
        pos, moves, game, mover = _describe(position, moves, game)
        if self.gtp is not None:
            self._gtp_setup(pos, moves, game, limit)
            secs = limit.seconds(mover)
            a = self._gtp_search("genmove", secs)
            if not a.ok:
                raise EngineRefused("%s refused genmove: %s" % (self._name(), a.text))
            words = a.text.split()
            if len(words) != 1:
                raise EngineGarbage("%s answered genmove with %r, not one move" % (self._name(), a.text[:200]))
            return PlayResult(words[0], elapsed=a.received - a.sent)
        self._set_multipv(1)
        s = self._ugi_search(pos, moves, game, limit, mover)
        move, ponder = s.bestmove()
        return PlayResult(move, ponder, s.score, s.depth, s.pv, s.elapsed)

    def analyse(self, position, limit, multipv=1, game=None, moves=None):
        """The engine's ``multipv`` best lines (fewer when the position has fewer moves), best
        first, each an Info with ``score``, ``depth`` and ``pv``. UGI through ``MultiPV``; GTP
        through ``analyze`` (tetrad's command; engines without it raise EngineRefused)."""
        if multipv < 1:
            raise ValueError("multipv must be at least 1")
        pos, moves, game, mover = _describe(position, moves, game)
        if self.gtp is not None:
            self._gtp_setup(pos, moves, game, None)  # no caps left over: analyze's own limits
            words = ["analyze", "multipv", str(multipv)]
            if limit.depth is not None:
                words += ["depth", str(limit.depth)]
            if limit.nodes is not None:
                words += ["nodes", str(limit.nodes)]
            secs = limit.seconds(mover)
            if secs is not None:
                words += ["movetime", str(max(1, int(secs * 1000)))]
            a = self._gtp_search(" ".join(words), secs)
            if not a.ok:
                raise EngineRefused("%s refused %s: %s" % (self._name(), " ".join(words), a.text))
            lines = [Info.parse(l.split()) for l in a.text.splitlines() if l.strip()]
            if not lines or any(not l.pv for l in lines):
                raise EngineGarbage("%s answered analyze with %r" % (self._name(), a.text[:200]))
            for k, line in enumerate(lines):
                line.multipv = line.multipv or k + 1
            return lines[:multipv]
        if multipv > 1 and "multipv" not in self.ugi.options:
            raise EngineRefused("%s has no MultiPV option" % self._name())
        self._set_multipv(multipv)
        s = self._ugi_search(pos, moves, game, limit, mover)
        s.bestmove()  # a malformed bestmove is garbage here too
        return [s.lines[k] for k in sorted(s.lines) if 1 <= k <= multipv]

    # ---- internals -------------------------------------------------------------------------

    def _name(self):
        return self.id_name or self.proc.label

    def _io(self, call, what):
        """Run ``call``; a timeout kills the engine. Errors name ``what`` was being done."""
        try:
            return call()
        except EngineTimeout as e:
            self.proc.kill()
            noise = _noise((self.gtp or self.ugi).noise)
            raise EngineTimeout("%s: no answer to %s in time, killed: %s%s" % (self._name(), what, e, noise))
        except EngineExited as e:
            raise EngineExited("%s: %s during %s" % (self._name(), e, what))

    def _ask(self, command, timeout=None):
        t = self.timeout if timeout is None else timeout
        a = self._io(lambda: self.gtp.ask(command, t), repr(command))
        return a

    def _sync(self, timeout=None, what="isready"):
        t = self.timeout if timeout is None else timeout
        errors = self._io(lambda: self.ugi.sync(t), what)
        if errors:
            raise EngineRefused("%s refused %s: %s" % (self._name(), what, " | ".join(errors)))

    def _gtp_setup(self, pos, moves, game, limit):
        if game is not None:
            self.command("set_game " + game)
        self.command("clear_board" if pos is None else "set_position " + pos)
        for m in moves:
            self.command("play " + m)
        # The limit as tetrad's search caps; caps this client set before and this limit lacks
        # are taken off (0), since they would cap this search too.
        caps = {"depth": None, "nodes": None, "movetime": None}
        if limit is not None:
            caps = {"depth": limit.depth, "nodes": limit.nodes,
                    "movetime": None if limit.time is None else max(1, int(limit.time * 1000))}
        for name, value in caps.items():
            if value is not None or self._caps.get(name):
                self.command("set_option %s %d" % (name, value or 0))
                self._caps[name] = value
        if limit is not None and limit.clock is not None:
            t = self.timeout
            self._io(lambda: self.gtp.time_command("time_settings %s 0 0", max(limit.clock[:2]), t), "time_settings")
            for side, secs in zip(self.sides, limit.clock[:2]):
                self._io(lambda: self.gtp.time_command("time_left " + side + " %s 0", secs, t), "time_left")
            self._clocked = True
        elif self._clocked:
            self.command("time_settings 0 1 0")  # byo-yomi time with no stones: no time limit
            self._clocked = False

    def _gtp_search(self, command, secs):
        limit = self.search_timeout if secs is None else secs + self.margin
        cid, sent = self.gtp.send(command)
        return self._io(lambda: self.gtp.wait(cid, sent, sent + limit),
                        "%r within %.1f s" % (command, limit))

    def _ugi_search(self, pos, moves, game, limit, mover):
        commands = []
        if game is not None and game != self._variant and "uci_variant" in self.ugi.options:
            commands.append("setoption name UCI_Variant value " + game)
            self._variant = game
        cmd = "position startpos" if pos is None else "position fen " + pos
        if moves:
            cmd += " moves " + " ".join(moves)
        commands.append(cmd)
        go = ["go"]
        if limit.clock is not None:
            go += ["p1time", _ms(limit.clock[0]), "p2time", _ms(limit.clock[1]),
                   "p1inc", _ms(limit.clock[2]), "p2inc", _ms(limit.clock[3])]
        if limit.depth is not None:
            go += ["depth", str(limit.depth)]
        if limit.nodes is not None:
            go += ["nodes", str(limit.nodes)]
        if limit.time is not None:
            go += ["movetime", _ms(limit.time)]
        secs = limit.seconds(mover)
        bound = self.search_timeout if secs is None else secs + self.margin
        s = self._io(lambda: self.ugi.search(commands, " ".join(go), bound, self.margin), "'%s'" % " ".join(go))
        if s.errors:
            raise EngineRefused("%s refused the search: %s" % (self._name(), " | ".join(s.errors)))
        return s

    def _set_multipv(self, k):
        if k != self._multipv:
            self.ugi.setoption("MultiPV", k)
            self._multipv = k


def _describe(position, moves, game):
    """(position string or None, moves, game name or None, mover 0/1 or None) of ``play``'s
    arguments: a string, None, or an object with ``position()`` (and ``to_move()``, ``game``)."""
    moves = list(moves or ())
    if position is None or isinstance(position, str):
        return (None if position in (None, "startpos") else position.strip()), moves, game, None
    if not hasattr(position, "position"):
        raise TypeError("expected a position string or an object with position(), not %r" % type(position).__name__)
    state = position
    mover = None
    if hasattr(state, "to_move") and not moves:
        try:
            mover = int(state.to_move())
        except (TypeError, ValueError):
            mover = None
    if game is None:
        g = getattr(state, "game", None)
        g = g() if callable(g) else g
        game = getattr(g, "name", None) or getattr(state, "game_name", None)
        game = game() if callable(game) else game
    base, played = _history(state)
    return base, played + moves, game, mover


def _history(state):
    """(the position the state's moves start from, those moves): found by undoing them on a
    copy, so that the engine gets the history (repetition, no-progress counts). A state without
    ``moves()``, ``copy()`` and ``undo()``, or whose undo fails, gives its current position
    alone."""
    current = state.position()
    if not all(callable(getattr(state, k, None)) for k in ("moves", "copy", "undo")):
        return current, []
    try:
        played = list(state.moves())
        back = state.copy()
        for _ in played:
            back.undo()
        return back.position(), played
    except Exception:  # a state object of any kind: whatever it raises, fall back
        return current, []


def _ms(secs):
    return str(max(0, int(secs * 1000)))
