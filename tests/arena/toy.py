"""A toy game for the arena's tests, so the runner can be tested without tetrad.

A pile of stones (21 at the start); "north" moves first. A move takes 1, 2 or 3 stones
(`1`, `2`, `3`) or waits (`w`). Whoever takes the last stone wins; two waits in a row draw.
Position string: `<pile> <n|s> <consecutive waits>`, start `21 n 0`. Input is lenient: `t2`
and `W` are accepted for `2` and `w` (so the runner's canonicalisation can be tested).
"""

import sys

SIDES = ("north", "south")
START = "21 n 0"


class Pos:
    __slots__ = ("pile", "side", "waits")

    def __init__(self, pile, side, waits):
        self.pile, self.side, self.waits = pile, side, waits


def parse(text):
    toks = text.split()
    if len(toks) != 3 or toks[1] not in ("n", "s"):
        raise ValueError("expected '<pile> <n|s> <waits>'")
    try:
        pile, waits = int(toks[0]), int(toks[2])
    except ValueError:
        raise ValueError("pile and waits must be numbers")
    if not (0 <= pile <= 1000 and 0 <= waits <= 2):
        raise ValueError("numbers out of range")
    return Pos(pile, 0 if toks[1] == "n" else 1, waits)


def fmt(p):
    return "%d %s %d" % (p.pile, "ns"[p.side], p.waits)


def diagram(p):
    """The text board: the pile as a row of stones."""
    return "pile %2d  %s\n%s to move" % (p.pile, "o" * p.pile, SIDES[p.side])


def svg(p):
    """The board as SVG over several lines (as a multi-line GTP answer), one circle a stone."""
    lines = ['<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120" viewBox="0 0 240 120">',
             '<rect width="240" height="120" fill="#eed"/>']
    for k in range(p.pile):
        lines.append('<circle class="stone" cx="%d" cy="%d" r="8" fill="#333"/>' % (15 + 30 * (k % 7), 15 + 20 * (k // 7)))
    lines.append('<text x="5" y="115" font-size="12">%s to move</text>' % SIDES[p.side])
    lines.append("</svg>")
    return "\n".join(lines)


def result(p):
    """('ongoing',), ('draw', reason) or ('win', side index, reason)."""
    if p.pile == 0:
        return ("win", 1 - p.side, "last-stone")
    if p.waits >= 2:
        return ("draw", "waiting")
    return ("ongoing",)


def legal(p):
    if result(p)[0] != "ongoing":
        return []
    return sorted([str(k) for k in (1, 2, 3) if k <= p.pile] + ["w"])


def canonical(p, text):
    """The canonical form of a legal move, else raise ValueError(why)."""
    t = text.strip().lower()
    if t.startswith("t") and len(t) == 2:
        t = t[1:]
    if result(p)[0] != "ongoing":
        raise ValueError("game is over")
    if t not in legal(p):
        raise ValueError("illegal move")
    return t


def play(p, move):
    if move == "w":
        return Pos(p.pile, 1 - p.side, p.waits + 1)
    return Pos(p.pile - int(move), 1 - p.side, 0)


def side_index(text, p=None):
    t = text.lower()
    for i, name in enumerate(SIDES):
        if t in (name, name[0], "p%d" % (i + 1)):
            return i
    return None


def gtp_loop(handle, stdin=None, stdout=None):
    """Serve GTP: ``handle(command, args)`` returns (ok, text) or None to quit."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    for raw in stdin:
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        toks = line.split()
        cid = ""
        if toks[0].isdigit():
            cid = toks.pop(0)
            if not toks:
                continue
        answer = handle(toks[0], toks[1:])
        if answer is None:
            stdout.write("=%s\n\n" % cid)
            stdout.flush()
            return
        ok, text = answer
        stdout.write("%s%s %s\n\n" % ("=" if ok else "?", cid, text))
        stdout.flush()
