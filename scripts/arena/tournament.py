"""Tournaments of more than two engines: who plays whom and in which order, the crosstable and
the rating list.

Every pairing plays the same games as a two-engine match would: its k-th game (0-based, over
all rounds) uses opening k // 2, with the first engine of the pairing as first mover when k is
even. So all pairings play the same openings, each twice with colours reversed. The games are
numbered round by round, pairing by pairing: round 1 holds every pairing's first
``per_pairing`` games, and so on.
"""

import math

from . import ratings, stats

KINDS = ("round-robin", "gauntlet")


def pairings(kind, n):
    """The pairings (engine A, engine B) of ``n`` engines: every two of them for a round robin,
    the first against each other one for a gauntlet, the one pairing of a two-engine match."""
    if kind == "gauntlet":
        return [(0, j) for j in range(1, n)]
    return [(i, j) for i in range(n) for j in range(i + 1, n)]


def schedule(pairs, per_pairing, index):
    """(A, B, k) of game ``index`` (0-based): its pairing's engines and its number k within the
    pairing, over all rounds."""
    per_round = len(pairs) * per_pairing
    rnd, rest = divmod(index, per_round)
    p, k = divmod(rest, per_pairing)
    a, b = pairs[p]
    return a, b, rnd * per_pairing + k


def default_event(kind, names):
    if kind is None:
        return "tetrad arena: %s" % " vs ".join(names)
    return "tetrad arena: %s of %s" % (kind, ", ".join(names))


def rating_fit(view):
    """The ratings of all engines from all finished games (Standings.cross)."""
    cfg = view.cfg
    index = {name: k for k, name in enumerate(cfg.names)}
    results = {}
    for (x, y), t in view.cross.items():
        i, j = index.get(x), index.get(y)
        if i is None or j is None or i > j:
            continue
        results[(i, j)] = (t.w + 0.5 * t.d, t.n)
    return ratings.fit(list(cfg.names), results, cfg.anchor)


def _num(x, fmt="%.1f"):
    if x is None or math.isnan(x):
        return "n/a"
    return fmt % x


def _points(x):
    return ("%d" % x) if float(x).is_integer() else ("%.1f" % x)


def method_text(fit):
    text = "maximum likelihood over all games, anchored on %s = 0, 95 %% intervals" % fit.names[fit.anchor]
    if fit.prior:
        text += "; %d virtual draw per pairing added, since an engine group scored nothing against another" % fit.prior
    return text


def rating_lines(fit):
    width = max(4, max(len(n) for n in fit.names))
    lines = ["Ratings (%s):" % method_text(fit),
             "Rank %-*s %8s %7s %6s %7s %7s" % (width, "Name", "Elo", "+/-", "Games", "Points", "Score")]
    for k, i in enumerate(fit.ranked(), 1):
        g = fit.games[i]
        lines.append("%4d %-*s %8s %7s %6d %7s %6s" % (
            k, width, fit.names[i], _num(fit.elo[i]), _num(fit.error[i]), g, _points(fit.points[i]),
            ("%.1f%%" % (100.0 * fit.points[i] / g)) if g else "n/a"))
    return lines


def crosstable(view, order):
    """rows[i][j]: (points of engine i against j, games), None where they did not meet."""
    names = view.cfg.names
    rows = []
    for i in order:
        row = []
        for j in order:
            t = view.cross.get((names[i], names[j]))
            row.append(None if i == j or t is None or not t.n else (t.w + 0.5 * t.d, t.n))
        rows.append(row)
    return rows


def crosstable_lines(view, order):
    names = [view.cfg.names[i] for i in order]
    rows = crosstable(view, order)
    cells = [[("%s/%d" % (_points(c[0]), c[1])) if c else ("-" if i == j else "") for j, c in enumerate(row)]
             for i, row in enumerate(rows)]
    width = max(4, max(len(n) for n in names))
    col = max([len(n) for n in names] + [len(c) for r in cells for c in r] + [3])
    lines = ["Crosstable (the row engine's points against the column engine / games):",
             "%-*s %s" % (width, "", " ".join("%*s" % (col, n) for n in names))]
    for n, r in zip(names, cells):
        lines.append("%-*s %s" % (width, n, " ".join("%*s" % (col, c) for c in r)))
    return lines


def pairing_lines(view):
    names = view.cfg.names
    lines = []
    for a, b in view.cfg.pairings:
        t = view.cross.get((names[a], names[b]))
        if t is not None and t.n:
            lines.append("Score of %s vs %s: %d - %d - %d  [%.3f] %d" % (
                names[a], names[b], t.w, t.l, t.d, stats.score(t.w, t.l, t.d), t.n))
    return lines


def final_lines(view):
    """The terminal report of a tournament, up to the time and reason blocks."""
    cfg = view.cfg
    fit = rating_fit(view)
    lines = pairing_lines(view)
    lines.append("%d of %d games finished." % (view.finished, cfg.planned))
    if view.aborted:
        lines.append("%d games aborted (not counted)." % view.aborted)
    lines.append("")
    lines.extend(rating_lines(fit))
    lines.append("")
    lines.extend(crosstable_lines(view, fit.ranked()))
    return lines


def _finite(x):
    return None if x is None or math.isnan(x) or math.isinf(x) else x


def summary(view):
    """summary.json's tournament fields."""
    cfg = view.cfg
    fit = rating_fit(view)
    names = cfg.names
    cross = {}
    for i, a in enumerate(names):
        cross[a] = {}
        for j, b in enumerate(names):
            t = view.cross.get((a, b))
            if i != j and t is not None and t.n:
                cross[a][b] = {"wins": t.w, "losses": t.l, "draws": t.d, "points": t.w + 0.5 * t.d, "games": t.n}
    return {
        "tournament": cfg.tournament,
        "rounds": cfg.rounds,
        "games_per_pairing": cfg.rounds * cfg.per_pairing,
        "pairings": [[names[a], names[b]] for a, b in cfg.pairings],
        "crosstable": cross,
        "ratings": {
            "anchor": names[fit.anchor],
            "prior_draws": fit.prior,
            "engines": [{"name": names[i], "elo": _finite(fit.elo[i]), "error": _finite(fit.error[i]),
                         "games": fit.games[i], "points": fit.points[i]} for i in fit.ranked()],
        },
    }
