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

Layers, from the top:

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

import math
import os
import queue
import re
import shlex
import signal
import subprocess
import sys
import threading
import time

__all__ = [
    "Aborted",
    "Engine",
    "EngineError",
    "EngineExited",
    "EngineGarbage",
    "EngineRefused",
    "EngineStartError",
    "EngineTimeout",
    "GtpConnection",
    "Info",
    "Limit",
    "PlayResult",
    "Process",
    "Score",
    "UgiConnection",
    "kill_all",
]

MAX_LINE = 1 << 20  # a longer line is delivered in pieces; nothing legitimate is that long
POLL = 0.1  # seconds between checks of the abort flag while waiting for output
NULL_MOVES = ("(none)", "0000", "none", "null")  # what UGI engines send for "no move"


# ---- errors ----------------------------------------------------------------------------------


class EngineError(Exception):
    """The engine failed: it could not start, exited, hung, refused or answered garbage."""


class EngineStartError(EngineError):
    """The engine could not be started (no such program, not executable...)."""


class EngineTimeout(EngineError):
    """No answer before the deadline (the high-level calls kill the engine then)."""


class EngineExited(EngineError):
    """The engine closed its output: it exited or crashed."""


class EngineGarbage(EngineError):
    """The engine answered something the protocol does not allow."""


class EngineRefused(EngineError):
    """The engine answered a command with an error (GTP ``?``, UGI ``info string error``)."""


class Aborted(Exception):
    """The caller's abort flag was set while waiting (not the engine's fault)."""


# ---- the child process ---------------------------------------------------------------------

_STOP = object()
_CLOSE = object()
_live = set()
_live_lock = threading.Lock()
_trace_lock = threading.Lock()


def kill_all():
    """Kill and reap every child still running (used on interrupt and at exit)."""
    with _live_lock:
        procs = list(_live)
    for p in procs:
        p.kill()


def _own_group():
    """Popen arguments giving the child a process group of its own, in our session.

    Not a session of its own (setsid): Linux schedules each session as a group (autogroup), and
    on a loaded machine a child alone in its group got the CPU back about one scheduler tick
    (4 ms) after each line we sent, which was charged to its clock."""
    if os.name != "posix":
        return {}
    if sys.version_info >= (3, 11):
        return {"process_group": 0}
    return {"preexec_fn": os.setpgrp}


class Process:
    """One child process speaking a line protocol on stdin/stdout.

    ``trace``: a file every line sent and received is written to, timestamped. ``stderr_path``:
    where the child's stderr goes (created on its first byte); None drops it."""

    def __init__(self, argv, cwd=None, label="", trace=None, stderr_path=None, env=None):
        self.label = label or os.path.basename(argv[0])
        self.argv = list(argv)
        self._trace = trace
        self.lines = queue.Queue()
        self._wq = queue.Queue()
        self._sink_lock = threading.Lock()
        self._sink_path = stderr_path
        self._sink = None
        self._killed = False
        self.eof = False
        self.eof_time = None
        try:
            self._p = subprocess.Popen(
                self.argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                **_own_group(),
            )
        except (OSError, ValueError) as e:
            raise EngineStartError("cannot start %r: %s" % (" ".join(self.argv), e))
        with _live_lock:
            _live.add(self)
        self._threads = [
            threading.Thread(target=self._read_stdout, daemon=True),
            threading.Thread(target=self._write_stdin, daemon=True),
            threading.Thread(target=self._read_stderr, daemon=True),
        ]
        for t in self._threads:
            t.start()

    @property
    def pid(self):
        return self._p.pid

    def exit_status(self, wait=0.5):
        """The exit code once the child has ended (waiting up to ``wait`` s), else None."""
        try:
            return self._p.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def alive(self):
        return not self.eof and not self._killed

    # ---- I/O -------------------------------------------------------------------------------

    def send(self, line):
        """Queue a line (text, or bytes sent as they are) for the child; returns the time it was
        queued (a move's clock starts then, so the writer's latency never favours the engine)."""
        now = time.monotonic()
        if isinstance(line, bytes):
            self._log(">", line.decode("utf-8", "replace"))
            self._wq.put(line + b"\n")
        else:
            self._log(">", line)
            self._wq.put((line + "\n").encode("utf-8", "replace"))
        return now

    def read(self, deadline, abort=None):
        """The next stdout line as (arrival time, text) before ``deadline`` (monotonic).

        Raises EngineTimeout, EngineExited (sticky: every later read raises it too) or Aborted
        (``abort``, a threading.Event, was set)."""
        while True:
            if abort is not None and abort.is_set():
                raise Aborted()
            left = deadline - time.monotonic()
            try:
                if left <= 0:
                    item = self.lines.get_nowait()
                else:
                    item = self.lines.get(timeout=min(left, POLL))
            except queue.Empty:
                if time.monotonic() >= deadline:
                    raise EngineTimeout("%s sent nothing before the deadline" % self.label)
                continue
            if item[1] is None:
                self.eof = True
                self.eof_time = item[0]
                self.lines.put(item)  # keep EOF visible to later reads
                if abort is not None and abort.is_set():
                    raise Aborted()  # killed because the caller stopped: not the child's fault
                raise EngineExited("%s exited (status %s)" % (self.label, self.exit_status()))
            return item

    def drain(self):
        """Discard the lines already received (never blocks)."""
        while True:
            try:
                item = self.lines.get_nowait()
            except queue.Empty:
                return
            if item[1] is None:
                self.eof = True
                self.lines.put(item)
                return

    def set_stderr_sink(self, path):
        """Send the child's stderr from now on to ``path`` (created on the first byte), or drop it."""
        with self._sink_lock:
            if self._sink is not None:
                self._sink.close()
                self._sink = None
            self._sink_path = path

    # ---- shutdown --------------------------------------------------------------------------

    def close(self, quit_line=None, timeout=1.0):
        """Ask the child to exit (quit line, then end of input); kill it if it does not."""
        if self._killed:
            return
        if quit_line is not None and not self.eof:
            self.send(quit_line)
        self._wq.put(_CLOSE)
        try:
            self._p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        self.kill()

    def kill(self):
        """Kill the child and its process group, reap it, and stop the helper threads."""
        if self._killed:
            return
        self._killed = True
        # Only signal while the child is unreaped: its pid (and group id) cannot be reused then.
        if self._p.returncode is None:
            try:
                if os.name == "posix":
                    os.killpg(self._p.pid, signal.SIGKILL)
                else:
                    self._p.kill()
            except OSError:
                pass
        try:
            self._p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self._wq.put(_STOP)
        for t in self._threads:
            t.join(timeout=1.0)
        for f in (self._p.stdin, self._p.stdout, self._p.stderr):
            try:
                f.close()
            except (OSError, ValueError):
                pass
        with self._sink_lock:
            if self._sink is not None:
                self._sink.close()
                self._sink = None
        with _live_lock:
            _live.discard(self)

    # ---- threads ---------------------------------------------------------------------------

    def _log(self, direction, text):
        if self._trace is not None:
            with _trace_lock:  # one lock for all children: they share the trace file
                try:
                    self._trace.write("%.3f %s %s %s\n" % (time.monotonic(), self.label, direction, text))
                    self._trace.flush()
                except (OSError, ValueError):
                    pass

    def _read_stdout(self):
        f = self._p.stdout
        try:
            while True:
                raw = f.readline(MAX_LINE)
                if not raw:
                    break
                now = time.monotonic()
                text = raw.decode("utf-8", "replace").rstrip("\r\n")
                self._log("<", text)
                self.lines.put((now, text))
        except (OSError, ValueError):
            pass
        self.lines.put((time.monotonic(), None))

    def _write_stdin(self):
        f = self._p.stdin
        while True:
            item = self._wq.get()
            if item is _STOP:
                return
            try:
                if item is _CLOSE:
                    f.close()
                    return
                f.write(item)
                f.flush()
            except (OSError, ValueError):
                return  # the child is gone or stopped reading; the reader will notice

    def _read_stderr(self):
        f = self._p.stderr
        try:
            while True:
                raw = f.readline(MAX_LINE)
                if not raw:
                    return
                with self._sink_lock:
                    if self._sink is None and self._sink_path is not None:
                        try:
                            self._sink = open(self._sink_path, "ab")
                        except OSError:
                            self._sink_path = None
                    if self._sink is not None:
                        self._sink.write(raw)
                        self._sink.flush()
        except (OSError, ValueError):
            pass


# ---- GTP -------------------------------------------------------------------------------------

_GTP_HEAD = re.compile(r"^([=?])(\d*)\s*(.*)$")


class GtpAnswer:
    """One GTP answer: ``ok`` (``=``) or not (``?``), its text, when its command was sent and
    when its first line arrived (monotonic seconds)."""

    __slots__ = ("ok", "text", "sent", "received")

    def __init__(self, ok, text, sent, received):
        self.ok = ok
        self.text = text
        self.sent = sent
        self.received = received

    def __repr__(self):
        return "GtpAnswer(%s, %r)" % ("=" if self.ok else "?", self.text)


class GtpConnection:
    """GTP v2 over a Process. Commands are numbered, so that a late answer to an abandoned
    command is recognised and skipped instead of being taken for the answer to the next one."""

    def __init__(self, proc, abort=None):
        self.proc = proc
        self.abort = abort
        self._id = 0
        self.noise = None  # the last line seen outside any answer (for error messages)
        self.int_time = False  # the engine wants whole seconds in time_settings/time_left
        self.time_ok = True  # False once it refused those in whole seconds too

    def send(self, command):
        """Send a command; returns (id, time sent)."""
        self._id += 1
        return self._id, self.proc.send("%d %s" % (self._id, command))

    def ask(self, command, timeout):
        """The GtpAnswer to ``command``; raises EngineTimeout, EngineExited or Aborted."""
        cid, sent = self.send(command)
        return self.wait(cid, sent, sent + timeout)

    def wait(self, cid, sent, deadline, tail=2.0):
        """The answer to command ``cid``. ``deadline`` bounds the arrival of its first line;
        once that has arrived, the rest (up to the empty line) gets ``tail`` more seconds."""
        head = None
        body = []
        received = None
        while True:
            limit = deadline if head is None else max(deadline, received + tail)
            t, line = self.proc.read(limit, self.abort)
            text = line.replace("\t", " ").strip()
            if head is None:
                m = _GTP_HEAD.match(text)
                if m is None:
                    if text:
                        self.noise = text
                    continue  # noise outside any answer
                head = m
                received = t
                body = [m.group(3)]
                continue
            if text == "":
                got = head.group(2)
                if got == "" or int(got) == cid:
                    return GtpAnswer(head.group(1) == "=", "\n".join(body).strip(), sent, received)
                head = None  # an old answer: forget it and keep waiting
                continue
            body.append(line.replace("\t", " ").rstrip())  # keep a diagram's indentation

    def time_command(self, fmt, secs, timeout):
        """Send a time command (``fmt`` with one ``%s`` for the seconds), falling back to whole
        seconds if fractional ones are refused, and to nothing if those are refused too."""
        if not self.time_ok:
            return
        while True:
            # whole seconds: at least 1, since some engines read 0 as "no clock"
            value = str(max(1, int(math.floor(secs)))) if self.int_time else _secs(secs)
            a = self.ask(fmt % value, timeout)
            if a.ok:
                return
            if self.int_time:
                self.time_ok = False  # the engine will have to manage without our clock
                return
            self.int_time = True


# ---- UGI -------------------------------------------------------------------------------------


class Score:
    """A search score from the side to move's view: ``cp`` (centipawns) or ``mate`` (moves of
    the side to move until it wins, negative when it loses); the other attribute is None."""

    __slots__ = ("kind", "value")

    def __init__(self, kind, value):
        self.kind = kind
        self.value = value

    @property
    def cp(self):
        return self.value if self.kind == "cp" else None

    @property
    def mate(self):
        return self.value if self.kind == "mate" else None

    def __eq__(self, other):
        return isinstance(other, Score) and (self.kind, self.value) == (other.kind, other.value)

    def __hash__(self):
        return hash((self.kind, self.value))

    def __str__(self):
        return "%s %d" % (self.kind, self.value)

    def __repr__(self):
        return "Score(%r, %d)" % (self.kind, self.value)


_INT_FIELDS = ("depth", "seldepth", "multipv", "nodes", "nps", "time", "hashfull")


class Info:
    """One line of a search: a UGI ``info`` line or a GTP ``analyze`` line. Fields the engine
    did not send are None (``pv`` an empty list)."""

    __slots__ = _INT_FIELDS + ("score", "pv", "string")

    def __init__(self):
        for k in _INT_FIELDS:
            setattr(self, k, None)
        self.score = None
        self.pv = []
        self.string = None

    @property
    def move(self):
        """The first move of the line (its candidate move), or None."""
        return self.pv[0] if self.pv else None

    @classmethod
    def parse(cls, tokens):
        """Parse the words after ``info`` (UGI) or an ``analyze`` line (``move X`` is taken as
        the start of the PV when there is no ``pv``). Unreadable fields are left out."""
        info = cls()
        i = 0
        n = len(tokens)
        move = None
        while i < n:
            t = tokens[i]
            if t == "string":
                info.string = " ".join(tokens[i + 1:])
                break
            if t == "pv":
                info.pv = list(tokens[i + 1:])
                break
            if t in _INT_FIELDS and i + 1 < n:
                try:
                    setattr(info, t, int(tokens[i + 1]))
                except ValueError:
                    pass
                i += 2
                continue
            if t == "score" and i + 2 < n and tokens[i + 1] in ("cp", "mate"):
                try:
                    info.score = Score(tokens[i + 1], int(tokens[i + 2]))
                except ValueError:
                    pass
                i += 3
                continue
            if t == "move" and i + 1 < n:
                move = tokens[i + 1]
                i += 2
                continue
            i += 1
        if not info.pv and move is not None:
            info.pv = [move]
        return info

    def __repr__(self):
        return "Info(depth=%r, multipv=%r, score=%r, pv=%r)" % (self.depth, self.multipv, self.score, self.pv)


class UgiSearch:
    """What one UGI search sent: the ``bestmove`` line (its words in ``tokens``), when ``go``
    was sent and when ``bestmove`` arrived, the last depth, score and PV any ``info`` line
    gave, and the latest line of each ``multipv`` index (``lines``, 1 for lines without one)."""

    def __init__(self, sent):
        self.sent = sent
        self.received = None
        self.line = None
        self.tokens = None
        self.depth = None
        self.score = None
        self.pv = []
        self.lines = {}
        self.stopped = False  # ``stop`` had to be sent
        self.errors = []  # ``info string error`` lines (a refused position, option...)

    @property
    def elapsed(self):
        return self.received - self.sent

    def note(self, info):
        if info.depth is not None:
            self.depth = info.depth
        if info.score is not None:
            self.score = info.score
        if info.pv:
            self.pv = info.pv
        if info.pv or info.score is not None:
            self.lines[info.multipv or 1] = info

    def bestmove(self):
        """(move, ponder): ``bestmove M`` or ``bestmove M ponder P``; move None for a null move.
        Raises EngineGarbage for any other shape."""
        t = self.tokens
        if len(t) == 2 or (len(t) == 4 and t[2] == "ponder"):
            return (None if t[1] in NULL_MOVES else t[1]), (t[3] if len(t) == 4 else None)
        raise EngineGarbage("malformed bestmove line %r" % self.line[:200])


class UgiConnection:
    """The UGI dialect (``ugi``, ``uci`` or ``uai``, the handshake word) over a Process."""

    def __init__(self, proc, word="ugi", abort=None):
        self.proc = proc
        self.word = word
        self.abort = abort
        self.id_name = None
        self.options = {}  # lower-case name -> the words of its ``option`` line
        self.variants = None  # the UCI_Variant combo's values, when it lists them
        self.noise = None  # the last line of no known kind (for error messages)

    def handshake(self, timeout):
        """Send the handshake word and read the ``id`` and ``option`` lines up to its ``ok``."""
        self.proc.send(self.word)
        deadline = time.monotonic() + timeout
        while True:
            _, line = self.proc.read(deadline, self.abort)
            toks = line.split()
            if not toks:
                continue
            if toks[0] == self.word + "ok":
                return
            if toks[:2] == ["id", "name"] and len(toks) > 2:
                self.id_name = " ".join(toks[2:])
            elif toks[0] == "option" and "name" in toks:
                self._note_option(toks)
            elif toks[0] != "id":
                self.noise = line.strip()

    def _note_option(self, toks):
        i = toks.index("name")
        j = toks.index("type") if "type" in toks else len(toks)
        name = " ".join(toks[i + 1:j])
        self.options[name.lower()] = toks
        if name.lower() == "uci_variant":
            self.variants = [toks[k + 1] for k in range(len(toks) - 1) if toks[k] == "var"]

    def setoption(self, name, value):
        self.proc.send("setoption name %s value %s" % (name, _option_value(value)))

    def expect(self, wanted, timeout):
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

    def sync(self, timeout):
        """``isready`` and wait for ``readyok``; returns the errors reported before it."""
        self.proc.send("isready")
        return self.expect("readyok", timeout)

    def search(self, commands, go, limit, grace):
        """Send ``commands`` (``position ...``), then ``go``; read ``info`` lines up to
        ``bestmove``. Past ``limit`` seconds after ``go``, ``stop`` is sent and ``grace`` more
        seconds given. Returns a UgiSearch; raises EngineTimeout (nothing even after ``stop``),
        EngineExited or Aborted."""
        for c in commands:
            self.proc.send(c)
        s = UgiSearch(self.proc.send(go))
        deadline = s.sent + limit
        while True:
            try:
                t, line = self.proc.read(deadline + (grace if s.stopped else 0.0), self.abort)
            except EngineTimeout:
                if s.stopped:
                    raise EngineTimeout(
                        "no bestmove %.1f s after its time (%.1f s) ran out, even to stop%s"
                        % (grace, limit, _noise(self.noise)))
                s.stopped = True
                self.proc.send("stop")
                continue
            toks = line.split()
            if not toks:
                continue
            if toks[0] == "info":
                info = Info.parse(toks[1:])
                if info.string is not None and info.string.startswith("error"):
                    s.errors.append(info.string)
                s.note(info)
                continue
            if toks[0] != "bestmove":
                self.noise = line.strip()
                continue
            s.received = t  # arrival time, so a reply that beat the deadline is on time
            s.line = line
            s.tokens = toks
            return s


# ---- the high-level engine -----------------------------------------------------------------


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
    mover = None
    if position is None or isinstance(position, str):
        pos = None if position in (None, "startpos") else position.strip()
    elif hasattr(position, "position"):
        state = position
        # The state's current position: its history is not sent (Poddavki's repetition count
        # starts afresh), since a state need not know the position its moves started from.
        pos = state.position()
        if game is None:
            g = getattr(state, "game", None)
            g = g() if callable(g) else g
            game = getattr(g, "name", None) or getattr(state, "game_name", None)
            game = game() if callable(game) else game
        if hasattr(state, "to_move") and not moves:
            try:
                mover = int(state.to_move())
            except (TypeError, ValueError):
                mover = None
    else:
        raise TypeError("expected a position string or an object with position(), not %r" % type(position).__name__)
    return pos, list(moves or ()), game, mover


def _option_value(value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _noise(noise):
    return "" if noise is None else " (its last unexpected line: %r)" % noise[:120]


def _ms(secs):
    return str(max(0, int(secs * 1000)))


def _secs(secs):
    return ("%d" % secs) if float(secs).is_integer() else ("%.3f" % secs)
