"""Text output: cutechess-style score lines, the final table, the live progress line."""

import math
import shutil
import sys
import time

from . import stats, tournament


def _f(x, fmt="%.1f"):
    return fmt % x


def score_line(a, b, w, l, d):
    n = w + l + d
    s = stats.score(w, l, d) if n else 0.0
    return "Score of %s vs %s: %d - %d - %d  [%.3f] %d" % (a, b, w, l, d, s, n)


def elo_line(w, l, d):
    e, m = stats.elo(w, l, d)
    return "Elo difference: %s +/- %s, LOS: %.1f %%, DrawRatio: %.1f %%" % (
        _f(e), _f(m), 100.0 * stats.los(w, l), 100.0 * stats.draw_ratio(w, l, d) if w + l + d else 0.0)


def pentanomial_line(pair_stats):
    """The pair statistics (Standings.pair_stats): counts of pairs by the first engine's points
    (0, 1/2, 1, 3/2, 2), and the Elo difference and LOS computed over pairs."""
    counts, e, m, p = pair_stats
    return "Pairs (0 to 2 points): %s, Elo difference: %s +/- %s, LOS: %.1f %%" % (
        " ".join(str(c) for c in counts), _f(e), _f(m), 100.0 * p)


def sprt_line(sprt, w, l, d, decision=None):
    llr = sprt.llr(w, l, d)
    text = "SPRT: llr %.3g (%.1f%%), lbound %.2f, ubound %.2f" % (llr, 100.0 * llr / sprt.upper, sprt.lower, sprt.upper)
    if decision is not None:
        text += " - %s was accepted" % decision
    return text


def table(names, w, l, d):
    """One row per engine: Elo with its 95 % interval, W/L/D, score, draw ratio and LOS."""
    rows = []
    e, m = stats.elo(w, l, d)
    n = w + l + d
    p = stats.los(w, l)
    for name, ee, ww, ll, lo in ((names[0], e, w, l, p), (names[1], -e + 0.0, l, w, 1.0 - p)):
        s = stats.score(ww, ll, d) if n else 0.0
        rows.append((name, ee, m, n, ww, ll, d, s, lo))
    rows.sort(key=lambda r: -r[7])
    width = max(4, max(len(r[0]) for r in rows))
    head = "Rank %-*s %8s %7s %6s %5s %6s %5s %7s %6s %6s" % (width, "Name", "Elo", "+/-", "Games", "Wins", "Losses", "Draws", "Score", "Draw", "LOS")
    lines = [head]
    for k, (name, ee, mm, nn, ww, ll, dd, s, lo) in enumerate(rows, 1):
        lines.append("%4d %-*s %8s %7s %6d %5d %6d %5d %6.1f%% %5.1f%% %5.1f%%" % (
            k, width, name, _f(ee), _f(mm), nn, ww, ll, dd, 100 * s, 100 * stats.draw_ratio(ww, ll, dd) if nn else 0.0, 100 * lo))
    return lines


def final_report(match):
    cfg = match.cfg
    if cfg.tournament is not None:
        return tournament.final_lines(match) + _closing(match)
    a, b = cfg.names
    t = match.total
    lines = [score_line(a, b, t.w, t.l, t.d)]
    for side in (0, 1):
        s = match.by_side[side]
        lines.append("...      %s playing %s: %d - %d - %d  [%.3f] %d" % (
            a, cfg.sides[side], s.w, s.l, s.d, stats.score(s.w, s.l, s.d) if s.n else 0.0, s.n))
    st = match.sides_tally
    lines.append("...      %s vs %s: %d - %d - %d  [%.3f] %d" % (
        cfg.sides[0], cfg.sides[1], st.w, st.l, st.d, stats.score(st.w, st.l, st.d) if st.n else 0.0, st.n))
    lines.append(elo_line(t.w, t.l, t.d))
    pair_stats = match.pair_stats()
    if pair_stats:
        lines.append(pentanomial_line(pair_stats))
    if cfg.sprt is not None:
        lines.append(sprt_line(cfg.sprt, t.w, t.l, t.d, match.sprt_decision))
    lines.append("%d of %d games finished." % (match.finished, cfg.planned))
    if match.aborted:
        lines.append("%d games aborted (not counted)." % match.aborted)
    lines.append("")
    lines.extend(table(cfg.names, t.w, t.l, t.d))
    return lines + _closing(match)


def _closing(match):
    """The blocks every report ends with: time per move and result reasons."""
    lines = []
    times = move_time_lines(match)
    if times:
        lines.append("")
        lines.append("Time per move:")
        lines.extend(times)
    lines.append("")
    lines.append("Result reasons:")
    for reason, count in sorted(match.reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        lines.append("%s: %d" % (reason, count))
    if not match.reasons:
        lines.append("(no game finished)")
    return lines


def _finite(x):
    """JSON has no infinity or NaN: null instead."""
    return None if math.isnan(x) or math.isinf(x) else x


def summary(match):
    cfg = match.cfg
    if cfg.tournament is not None:
        out = {"game": cfg.game, "engines": list(cfg.names), "tc": [str(cfg.tc_of(i)) for i in range(len(cfg.names))],
               "games_planned": cfg.planned, "games_finished": match.finished, "games_aborted": match.aborted}
        out.update(tournament.summary(match))
        out["reasons"] = match.reasons
        if match.fatal:
            out["error"] = match.fatal
        return out
    t = match.total
    e, m = stats.elo(t.w, t.l, t.d)
    out = {
        "game": cfg.game,
        "engines": list(cfg.names),
        "tc": [str(cfg.tc_of(0)), str(cfg.tc_of(1))],
        "games_planned": cfg.planned,
        "games_finished": match.finished,
        "games_aborted": match.aborted,
        "wins": t.w,
        "losses": t.l,
        "draws": t.d,
        "score": stats.score(t.w, t.l, t.d) if t.n else None,
        "elo": _finite(e),
        "elo_error": _finite(m),
        "los": stats.los(t.w, t.l),
        "reasons": match.reasons,
    }
    counts, pe, pm, pl = match.pair_stats() or ([0] * 5, math.nan, math.nan, math.nan)
    out["pairs"] = {"counts": counts, "elo": _finite(pe), "elo_error": _finite(pm), "los": _finite(pl)}
    if cfg.sprt is not None:
        s = cfg.sprt
        out["sprt"] = {"elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
                       "llr": s.llr(t.w, t.l, t.d), "lower": s.lower, "upper": s.upper, "decision": match.sprt_decision}
    if match.fatal:
        out["error"] = match.fatal
    return out


def duration(secs):
    """12s, 3m05s, 2h07m."""
    secs = int(round(secs))
    if secs < 60:
        return "%ds" % secs
    if secs < 3600:
        return "%dm%02ds" % (secs // 60, secs % 60)
    return "%dh%02dm" % (secs // 3600, secs % 3600 // 60)


def move_time_lines(match):
    """Per engine: moves played, average and longest time per move."""
    lines = []
    for name in match.cfg.names:
        n, total, worst = match.move_ms.get(name, (0, 0.0, 0.0))
        if n:
            lines.append("%s: %d moves, %.1f ms per move on average, %.1f ms at most" % (name, n, total / n, worst))
    return lines


class Progress:
    """The live one-line display on a terminal; elsewhere a line every ``every`` seconds."""

    def __init__(self, stream=None, every=10.0, enabled=True):
        self.stream = stream or sys.stderr
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self.every = every
        self.enabled = enabled
        self.last = time.monotonic()  # off a terminal, the first line comes after `every` s
        self.last_text = None
        self.width = 0

    def line(self, match):
        cfg = match.cfg
        t = match.total
        done = match.finished + match.aborted
        if getattr(cfg, "tournament", None) is not None:
            text = "[%d/%d] %s of %d engines" % (done, cfg.planned, cfg.tournament, len(cfg.names))
            points = {}
            for (name, _), tally in match.cross.items():
                p = points.setdefault(name, [0.0, 0])
                p[0] += tally.w + 0.5 * tally.d
                p[1] += tally.n
            if points:
                name, (p, n) = max(points.items(), key=lambda kv: (kv[1][0] - kv[1][1] / 2.0, kv[1][0]))
                text += ", leading: %s %s/%d" % (name, ("%d" % p) if p.is_integer() else "%.1f" % p, n)
        else:
            text = "[%d/%d] %s vs %s: %d - %d - %d" % (done, cfg.planned, cfg.names[0], cfg.names[1], t.w, t.l, t.d)
        if t.n:
            e, m = stats.elo(t.w, t.l, t.d)
            text += " [%.3f] Elo %s +/- %s LOS %.1f%%" % (stats.score(t.w, t.l, t.d), _f(e), _f(m), 100 * stats.los(t.w, t.l))
        if cfg.sprt is not None:
            text += " llr %.2f" % cfg.sprt.llr(t.w, t.l, t.d)
        elapsed = time.monotonic() - match.started
        text += " | %d running, %s" % (match.running, duration(elapsed))
        if 0 < done < cfg.planned:
            text += ", ETA %s" % duration(elapsed / done * (cfg.planned - done))
        return text

    def __call__(self, match):
        if not self.enabled:
            return
        text = self.line(match)
        now = time.monotonic()
        if self.tty:
            cols = shutil.get_terminal_size((100, 24)).columns - 1
            text = text[:cols]  # a wrapped line could not be redrawn in place
            pad = max(0, self.width - len(text))
            self.stream.write("\r" + text + " " * pad)
            self.stream.flush()
            self.width = len(text)
        elif now - self.last >= self.every and text != self.last_text:
            self.stream.write(text + "\n")
            self.stream.flush()
            self.last = now
            self.last_text = text

    def done(self):
        if self.enabled and self.tty and self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
