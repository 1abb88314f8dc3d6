"""The UGI dialect (UCI family), client side: the handshake and its option lines, ``isready``,
``info`` lines and scores, and the search up to ``bestmove`` with ``stop`` past its time. Part of
``tetrad.engine``."""

import time

from ._process import EngineGarbage, EngineTimeout

NULL_MOVES = ("(none)", "0000", "none", "null")  # what UGI engines send for "no move"


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


def _option_value(value):
    if value is True:
        return "true"
    if value is False:
        return "false"
    return str(value)


def _noise(noise):
    return "" if noise is None else " (its last unexpected line: %r)" % noise[:120]
