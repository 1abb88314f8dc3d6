"""Game records other tools read: PGN for every game, and for Poddavki PDN as draughts programs
read it (Russian-draughts GameType, algebraic squares, captures written with ``x``).

A record is written from a game's JSON line alone, so shards merged on another machine give the
same file. ``read`` parses such files back (also files written by other programs, as long as
they keep to the common subset: one tag pair per line, ``{}`` comments; variations are skipped,
except that a parenthesised word without spaces is a move, as Diamond's ``(c3)``).
"""

import re

# PDN GameType for Russian draughts: type 25, White starts, 8x8, algebraic notation with a1 at
# White's lower left (A0), board not inverted.
RUSSIAN_GAMETYPE = "25,W,8,8,A0,0"

RESULTS = ("1-0", "0-1", "1/2-1/2", "*")


def is_draughts(game):
    return game.lower() == "poddavki"


def _tag_value(text):
    return str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _comment(text):
    # braces cannot be escaped inside a PGN comment
    return str(text).replace("{", "(").replace("}", ")").replace("\n", " ").strip()


def to_file_move(game, move):
    """A move as written in the file: tetrad notation, except that draughts files write
    captures with ``x`` as PDN does (tetrad reads both)."""
    return move.replace(":", "x") if is_draughts(game) else move


def from_file_move(game, move):
    return move.replace("x", ":").replace("X", ":") if is_draughts(game) else move


def side_tag(side):
    return side[:1].upper() + side[1:]


def _seconds(ms):
    s = ms / 1000.0
    return "%.3fs" % s if s < 10 else "%.2fs" % s


def score_text(score):
    """A UGI score (``cp 35``, ``mate -3``) as cutechess writes it in a comment: pawns with two
    decimals and a sign (``+0.35``; ``0.00``), mates as ``+M3``/``-M3`` (the engine's count of
    moves). None for anything else."""
    kind, _, value = (score or "").partition(" ")
    try:
        n = int(value)
    except ValueError:
        return None
    if kind == "cp":
        return "%+.2f" % (n / 100.0) if n else "0.00"
    if kind == "mate":
        return "%sM%d" % ("-" if n < 0 else "+", abs(n))
    return None


def move_comment(entry):
    """The comment after an engine's move, as cutechess writes it: the mover's last reported
    score and depth, then the time it used (``+0.35/12 0.512s``); only the time when the
    engine reported no score (GTP engines do not)."""
    spent = _seconds(entry.get("ms", 0))
    text = score_text(entry.get("score"))
    if text is None:
        return spent
    return "%s/%d %s" % (text, entry.get("depth") or 0, spent)


_COMMENT = re.compile(r"^(?:(0\.00|[+-]\d+\.\d\d|[+-]M\d+)/(\d+) )?(\d+\.\d+)s$")


def parse_comment(text):
    """What ``move_comment`` wrote, read back: {"ms", and "score" ("cp N"/"mate N") and
    "depth" when given}; None for any other comment (``opening``, a fault's description)."""
    m = _COMMENT.match((text or "").strip())
    if m is None:
        return None
    out = {"ms": float(m.group(3)) * 1000.0}
    if m.group(1) is not None:
        sc = m.group(1)
        if "M" in sc:
            n = int(sc.replace("M", ""))
            out["score"] = "mate %d" % n
        else:
            out["score"] = "cp %d" % int(round(float(sc) * 100))
        out["depth"] = int(m.group(2))
    return out


def white_index(sides):
    """Which side (0 first mover, 1 second) the PGN White/Black tags call White: the side named
    white if the game has one (Diamond's white moves second), else the first mover."""
    return sides.index("white") if "white" in sides else 0


def pgn_result(result, sides):
    """A record's result (from the first mover's side) as PGN writes it (from White's)."""
    if white_index(sides) == 0 or result not in ("1-0", "0-1"):
        return result
    return "0-1" if result == "1-0" else "1-0"


def pgn_game(j, meta):
    """The PGN (or PDN) text of one finished game's JSON record ``j``.

    ``meta``: {"event", "sides" (first mover, second mover), "start" (the game's start position
    string)}.
    """
    game = j["game_name"]
    sides = meta["sides"]
    wi = white_index(sides)
    players = (j["p1"], j["p2"])
    result = pgn_result(j["result"], sides)
    tags = [
        ("Event", meta.get("event") or "tetrad arena"),
        ("Site", j.get("site") or "?"),
        ("Date", j.get("date") or "????.??.??"),
        ("Round", str(j["game"])),
        ("White", players[wi]),
        ("Black", players[1 - wi]),
        ("Result", result),
    ]
    for side in sides:
        name = side_tag(side)
        if name not in ("White", "Black"):
            tags.append((name, j["engines"][side]))
    if is_draughts(game):
        tags.append(("GameType", RUSSIAN_GAMETYPE))
        tags.append(("Rules", "giveaway"))
    tags.append(("Variant", game))
    if j["start"] != meta["start"]:
        tags.append(("SetUp", "1"))
        tags.append(("FEN", j["start"]))
    tcs = j.get("tc") or {}
    t1, t2 = tcs.get(players[wi], "inf"), tcs.get(players[1 - wi], "inf")
    if t1 == t2:
        tags.append(("TimeControl", _pgn_tc(t1)))
    else:
        tags.append(("TimeControl", "?"))
        tags.append(("WhiteTimeControl", _pgn_tc(t1)))
        tags.append(("BlackTimeControl", _pgn_tc(t2)))
    tags.append(("Termination", j["reason"]))
    plies = list(j.get("opening") or []) + [m["move"] for m in j["moves"]]
    tags.append(("PlyCount", str(len(plies))))
    tags.append(("Opening", j.get("opening_source") or "start"))
    lines = ['[%s "%s"]' % (k, _tag_value(v)) for k, v in tags]

    # Move numbers count White's moves. Every number is written once (Black's move after a
    # comment gets none), which all readers accept.
    tokens = []
    number = 1
    entries = [(m, None) for m in j.get("opening") or []] + [(m["move"], m) for m in j["moves"]]
    side_of = movers(j, sides)
    for k, (move, entry) in enumerate(entries):
        mover = 0 if side_of[k] == wi else 1  # 0: White
        if mover == 0:
            tokens.append("%d." % number)
        elif k == 0:
            tokens.append("%d..." % number)
        tokens.append(to_file_move(game, move))
        tokens.append("{%s}" % ("opening" if entry is None else move_comment(entry)))
        if mover == 1:
            number += 1
    if j.get("illegal_move"):
        tokens.append("{%s}" % _comment("%s: %s" % (j["reason"], j.get("detail") or j["illegal_move"])))
    elif j.get("fault"):
        tokens.append("{%s}" % _comment("%s%s" % (j["reason"], ": " + j["detail"] if j.get("detail") else "")))
    tokens.append(result)
    return "\n".join(lines) + "\n\n" + _wrap(tokens) + "\n\n"


def movers(j, sides):
    """The mover (0: first mover, 1: second) of each ply of a record, opening moves included.
    Engine moves carry their side; opening moves alternate back from the first engine move or,
    when the engines played none, forward from the side to move at the start (which a Poddavki
    position string names; otherwise the first mover)."""
    opening = list(j.get("opening") or [])
    out = [sides.index(m["side"]) if m["side"] in sides else (len(opening) + k) % 2 for k, m in enumerate(j["moves"])]
    if out:
        side = out[0]
        for _ in opening:
            side = 1 - side
            out.insert(0, side)
        return out
    side = 1 if is_draughts(j["game_name"]) and j["start"][:1].upper() == "B" else 0
    for _ in opening:
        out.append(side)
        side = 1 - side
    return out


def _pgn_tc(tc):
    return "-" if tc in ("inf", None) else tc


def _wrap(tokens, width=79):
    lines, cur = [], ""
    for t in tokens:
        if cur and len(cur) + 1 + len(t) > width:
            lines.append(cur)
            cur = t
        else:
            cur = t if not cur else cur + " " + t
    if cur:
        lines.append(cur)
    return "\n".join(lines)


# ---- reading ---------------------------------------------------------------------------------

_TAG = re.compile(r'^\s*\[\s*([A-Za-z0-9_]+)\s+"((?:[^"\\]|\\.)*)"\s*\]\s*$')
_TOKEN = re.compile(r'\{[^}]*\}|;[^\n]*|\([^()]*\)|\$\d+|\d+\.(?:\.\.)?|[^\s{}();]+')
_NUMBER = re.compile(r"^\d+\.+$")


class PgnGame:
    def __init__(self, tags, moves, result, comments):
        self.tags = tags
        self.moves = moves  # in the file's spelling
        self.result = result
        self.comments = comments  # one per move: the comment right after it, or None

    def thoughts(self):
        """Per move, what its comment says the engine reported ({"ms", "score", "depth"} as
        ``parse_comment`` reads them), None for opening moves and other comments."""
        return [parse_comment(c) for c in self.comments]

    def __repr__(self):
        return "PgnGame(%r, %d moves, %s)" % (self.tags.get("Round"), len(self.moves), self.result)


def read(text):
    """Every game of a PGN/PDN text, as PgnGame objects."""
    games = []
    tags, body = {}, []
    in_moves = False

    def flush():
        if tags or body:
            games.append(_parse_movetext(tags, "\n".join(body)))

    for line in text.splitlines():
        m = _TAG.match(line)
        if m:
            if in_moves:
                flush()
                tags, body, in_moves = {}, [], False
            tags[m.group(1)] = re.sub(r"\\(.)", r"\1", m.group(2))
            continue
        if line.strip().startswith("%"):
            continue
        if line.strip():
            in_moves = True
            body.append(line)
    flush()
    return games


def _parse_movetext(tags, text):
    moves, comments = [], []
    result = "*"
    for t in _TOKEN.findall(text):
        if t.startswith("(") and len(t.split()) > 1:
            continue  # a variation (not nested): not part of the game
        if t.startswith("{"):
            if moves and comments[-1] is None:
                comments[-1] = " ".join(t[1:-1].split())
            continue
        if t.startswith(";") or t.startswith("$") or _NUMBER.match(t):
            continue
        if t in RESULTS or t in ("2-0", "0-2", "1-1", "0-0"):
            result = t
            continue
        moves.append(t.rstrip("!?"))
        comments.append(None)
    return PgnGame(tags, moves, result, comments)


def read_openings(path, game, start, plies=None):
    """[(game number in the file, position, moves)] for the Book from a PGN/PDN file: each game's
    start (its FEN tag, or the start position) and its moves, the first ``plies`` of them if
    given, in tetrad notation."""
    with open(path, encoding="utf-8", errors="replace") as f:
        games = read(f.read())
    out = []
    for n, g in enumerate(games, 1):
        pos = g.tags.get("FEN") or "startpos"
        if pos == start:
            pos = "startpos"
        moves = [from_file_move(game, m) for m in g.moves]
        if plies is not None:
            moves = moves[:plies]
        out.append((n, pos, moves))
    if not out:
        raise ValueError("PGN file %s holds no game" % path)
    return out
