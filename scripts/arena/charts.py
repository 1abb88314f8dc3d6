"""The charts of ``report.html``: the numbers they are drawn from, and the script that draws them
in the page (inline SVG, no outside code): the course of a match or of a tournament's ratings,
each game's evaluation and time charts, each engine's time histogram."""

import math

from . import ratings, stats

# the charts: drawn by the page from DATA, as inline SVG
CHARTS = """
var NS = 'http://www.w3.org/2000/svg', COLORS = ['#1f5fbf', '#d0602a', '#2a9d5a', '#9b3fb5', '#b8962e', '#555555'];
function svgEl(tag, attrs, parent) {
  var e = document.createElementNS(NS, tag);
  for (var k in attrs) e.setAttribute(k, attrs[k]);
  if (parent) parent.appendChild(e);
  return e;
}
function chart(box, w, h) {
  box.innerHTML = '';
  return svgEl('svg', {'class': 'chart', width: w, height: h, viewBox: '0 0 ' + w + ' ' + h}, box);
}
function label(svg, x, y, text, anchor) {
  var t = svgEl('text', {x: x, y: y, 'text-anchor': anchor || 'start'}, svg); t.textContent = text; return t;
}
function line(svg, pts, color, extra) {
  if (!pts.length) return null;
  var a = {points: pts.map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join(' '),
           fill: 'none', stroke: color, 'stroke-width': 1.5};
  for (var k in extra || {}) a[k] = extra[k];
  return svgEl('polyline', a, svg);
}
// One panel of the match's course: values over games 1..n, optional band [lo, hi] and
// horizontal reference lines.
function panel(box, title, xs, series, refs, opts) {
  var W = 600, H = opts.height || 120, L = 48, R = opts.right || 10, T = 18, B = 20;
  var svg = chart(box, W, H), vals = [];
  series.forEach(function (s) { s.ys.forEach(function (y, i) {
    if (y !== null) vals.push(y);
    if (s.lo && s.lo[i] !== null) vals.push(s.lo[i]);
    if (s.hi && s.hi[i] !== null) vals.push(s.hi[i]); }); });
  refs.forEach(function (r) { vals.push(r.y); });
  var lo = Math.min.apply(null, vals.concat([opts.min])), hi = Math.max.apply(null, vals.concat([opts.max]));
  if (opts.clip) { lo = Math.max(lo, -opts.clip); hi = Math.min(hi, opts.clip); }
  if (hi - lo < 1e-9) { hi += 1; lo -= 1; }
  var n = Math.max(xs.length, 2);
  function X(i) { return L + (W - L - R) * i / (n - 1); }
  function Y(v) { v = Math.max(lo, Math.min(hi, v)); return T + (H - T - B) * (hi - v) / (hi - lo); }
  label(svg, L, 12, title);
  label(svg, L - 4, Y(hi) + 4, opts.fmt(hi), 'end'); label(svg, L - 4, Y(lo) + 4, opts.fmt(lo), 'end');
  label(svg, L, H - 5, 'after ' + xs[0] + (xs[0] === 1 ? ' game' : ' games'));
  label(svg, W - R, H - 5, 'after ' + xs[xs.length - 1] + ' games', 'end');
  refs.forEach(function (r) {
    svgEl('line', {x1: L, x2: W - R, y1: Y(r.y), y2: Y(r.y), stroke: r.color || '#999', 'stroke-dasharray': '4 3'}, svg);
    label(svg, W - R - 2, Y(r.y) - 3, r.text, 'end');
  });
  series.forEach(function (s, k) {
    if (s.name) {
      var last = null;
      for (var i = 0; i < s.ys.length; i++) if (s.ys[i] !== null) last = i;
      if (last !== null) label(svg, X(last) + 3, Y(s.ys[last]) + 4, s.name).setAttribute('fill', s.color);
    }
    if (s.lo) {
      var up = [], down = [];
      for (var i = 0; i < s.ys.length; i++) if (s.lo[i] !== null && s.hi[i] !== null) { up.push([X(i), Y(s.hi[i])]); down.unshift([X(i), Y(s.lo[i])]); }
      if (up.length) svgEl('polygon', {points: up.concat(down).map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join(' '),
                                       fill: s.color, 'fill-opacity': 0.15, stroke: 'none', 'class': 'band'}, svg);
    }
    var pts = [];
    for (var i = 0; i < s.ys.length; i++) if (s.ys[i] !== null) pts.push([X(i), Y(s.ys[i])]);
    line(svg, pts, s.color, {'class': 'series'});
  });
  return svg;
}
function drawCourse() {
  var c = DATA.course, box = document.getElementById('course');
  if (!c || !box || !c.games.length) return;
  if (c.ratings) {
    box.innerHTML = '';
    var d = document.createElement('div'); d.id = 'course-ratings'; box.appendChild(d);
    panel(d, 'rating of each engine (' + DATA.names[c.anchor] + ' = 0)', c.games,
          c.ratings.map(function (ys, k) { return {ys: ys, color: COLORS[k % COLORS.length], name: DATA.names[k]}; }), [],
          {min: -50, max: 50, clip: 2000, height: 180, right: 60, fmt: function (v) { return v.toFixed(0); }});
    return;
  }
  box.innerHTML = '';
  var parts = ['score', 'elo', 'llr'].map(function (id) { var d = document.createElement('div'); d.id = 'course-' + id; box.appendChild(d); return d; });
  panel(parts[0], 'score of ' + DATA.names[0] + ' (fraction of the points)', c.games,
        [{ys: c.score, color: COLORS[0]}], [{y: 0.5, text: '0.5'}], {min: 0, max: 1, fmt: function (v) { return v.toFixed(2); }});
  panel(parts[1], 'Elo difference with its 95 % interval', c.games,
        [{ys: c.elo, lo: c.elo_lo, hi: c.elo_hi, color: COLORS[0]}], [{y: 0, text: '0'}],
        {min: -50, max: 50, clip: 800, fmt: function (v) { return v.toFixed(0); }});
  if (c.llr) {
    panel(parts[2], 'SPRT log-likelihood ratio', c.games, [{ys: c.llr, color: COLORS[1]}],
          [{y: c.lower, text: 'H0 ' + c.lower.toFixed(2), color: '#b33'}, {y: c.upper, text: 'H1 ' + c.upper.toFixed(2), color: '#3a3'}],
          {min: c.lower, max: c.upper, fmt: function (v) { return v.toFixed(2); }});
  }
}
// A game's evaluation and time charts; a click on a point or a bar calls go(ply).
function drawGameCharts(g, go) {
  var ev = document.getElementById('evalchart'), tm = document.getElementById('timechart');
  var W = 600, H = 170, L = 42, R = 10, T = 18, B = 18, n = g.moves.length;
  function X(p) { return L + (W - L - R) * (n > 1 ? (p - 1) / (n - 1) : 0.5); }
  var svg = chart(ev, W, H), clip = g.clip;
  function Y(v) { v = Math.max(-clip, Math.min(clip, v)); return T + (H - T - B) * (clip - v) / (2 * clip); }
  label(svg, L, 12, 'evaluation by each engine, pawns from White\u2019s side (mates: rings at \u00b1' + clip + ')');
  label(svg, L - 4, Y(clip) + 4, '+' + clip, 'end'); label(svg, L - 4, Y(-clip) + 4, '-' + clip, 'end');
  label(svg, L - 4, Y(0) + 4, '0', 'end');
  svgEl('line', {x1: L, x2: W - R, y1: Y(0), y2: Y(0), stroke: '#bbb'}, svg);
  svgEl('line', {id: 'evalcursor', x1: L, x2: L, y1: T, y2: H - B, stroke: '#e0a800', 'stroke-width': 2, visibility: 'hidden'}, svg);
  [0, 1].forEach(function (who) {
    var pts = [];
    for (var i = 0; i < n; i++) if (g.white[i] === who && g.evals[i] !== null) pts.push([X(i + 1), Y(g.evals[i]), i + 1]);
    line(svg, pts, COLORS[who], {'class': 'series'});
    pts.forEach(function (p) {
      // a mate, clipped to the edge, is a ring, so it is not taken for a score at the clip
      var mate = Math.abs(g.evals[p[2] - 1]) >= DATA.mate;
      var c = svgEl('circle', {cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: mate ? 5 : 3.5, fill: mate ? '#fff' : COLORS[who],
                               stroke: COLORS[who], 'stroke-width': mate ? 2.5 : 0, 'class': 'pt' + (mate ? ' mate' : ''), 'data-ply': p[2]}, svg);
      var t = svgEl('title', {}, c); t.textContent = 'ply ' + p[2] + ': ' + g.moves[p[2] - 1] + ' ' + g.times[p[2] - 1];
      c.addEventListener('click', function () { go(p[2]); });
    });
  });
  var svg2 = chart(tm, W, 120), most = Math.max.apply(null, [1].concat(g.ms.filter(function (x) { return x !== null; })));
  label(svg2, L, 12, 'time used per move (longest ' + (most < 1000 ? most.toFixed(1) + ' ms' : (most / 1000).toFixed(2) + ' s') + ')');
  var bw = Math.max(1, (W - L - R) / Math.max(n, 1) - 1);
  for (var i = 0; i < n; i++) {
    if (g.ms[i] === null) continue;
    var h = Math.max(1, 84 * g.ms[i] / most);
    var r = svgEl('rect', {x: (X(i + 1) - bw / 2).toFixed(1), y: (102 - h).toFixed(1), width: bw.toFixed(1), height: h.toFixed(1),
                           fill: COLORS[g.white[i]], 'class': 'bar', 'data-ply': i + 1}, svg2);
    var t = svgEl('title', {}, r); t.textContent = 'ply ' + (i + 1) + ': ' + g.times[i];
    r.addEventListener('click', (function (p) { return function () { go(p); }; })(i + 1));
  }
  svgEl('line', {id: 'timecursor', x1: L, x2: L, y1: 16, y2: 104, stroke: '#e0a800', 'stroke-width': 2, visibility: 'hidden'}, svg2);
  document.getElementById('chartkey').innerHTML = '<span class="key" style="background:' + COLORS[0] + '"></span>' + escapeHtml(g.whiteName) +
    ' (White)<span class="key" style="background:' + COLORS[1] + '"></span>' + escapeHtml(g.blackName) + ' (Black)';
  markPly = function (p) {
    ['evalcursor', 'timecursor'].forEach(function (id) {
      var c = document.getElementById(id);
      if (!c) return;
      c.setAttribute('visibility', p > 0 ? 'visible' : 'hidden');
      c.setAttribute('x1', X(p)); c.setAttribute('x2', X(p));
    });
  };
}
var markPly = function () {};
function escapeHtml(s) { var d = document.createElement('div'); d.textContent = s; return d.innerHTML; }
// Per engine: how its move times fall into DATA.buckets, and its average depth.
function drawEngines() {
  var E = DATA.engines || [];
  E.forEach(function (e, k) {
    var box = document.getElementById('hist-' + k);
    if (!box) return;
    var W = 260, H = 70, n = e.histogram.length, most = Math.max.apply(null, [1].concat(e.histogram));
    var svg = chart(box, W, H), bw = (W - 10) / n;
    for (var i = 0; i < n; i++) {
      var h = 46 * e.histogram[i] / most;
      var r = svgEl('rect', {x: (5 + i * bw).toFixed(1), y: (52 - h).toFixed(1), width: (bw - 1).toFixed(1), height: h.toFixed(1), fill: COLORS[k % COLORS.length]}, svg);
      var t = svgEl('title', {}, r); t.textContent = DATA.bucketNames[i] + ': ' + e.histogram[i] + ' moves';
    }
    label(svg, 5, H - 4, DATA.bucketNames[0]); label(svg, W - 5, H - 4, DATA.bucketNames[n - 1], 'end');
  });
}
"""


# Evaluation charts clip at this many pawns, or at the game's largest score when that is
# smaller; mates are drawn at the clip.
EVAL_CLIP = 10
MATE = 1000  # a mate's value in the chart data: beyond any clip


def pawns_for_white(score, white_moved):
    """A move's reported score (``cp N``/``mate N``, from the mover's side) in pawns from
    White's side, mates as +-MATE; None when there is none."""
    kind, _, value = (score or "").partition(" ")
    try:
        n = int(value)
    except ValueError:
        return None
    v = n / 100.0 if kind == "cp" else (MATE if n > 0 else -MATE) if kind == "mate" else None
    if v is None:
        return None
    return v if white_moved else -v


def game_series(j, movers, white_side):
    """A game's chart data, one entry per ply (None for the opening's): who moved (0 White,
    1 Black), the mover's score in pawns from White's side, the time used; and the clip."""
    book = len(j.get("opening") or [])
    white = [0 if who == white_side else 1 for who in movers]
    evals = [None] * book + [pawns_for_white(m.get("score"), white[book + k] == 0) for k, m in enumerate(j["moves"])]
    ms = [None] * book + [m.get("ms", 0.0) for m in j["moves"]]
    largest = max([abs(v) for v in evals if v is not None and abs(v) < MATE] + [1.0])
    return {"white": white, "evals": evals, "ms": ms, "clip": min(EVAL_CLIP, int(math.ceil(largest)))}


def course(view):
    """The match's standing after each game, in the order the games ended: score, Elo with
    its 95 % interval, and the SPRT's llr (JSON has no infinity: null where unbounded)."""
    names = view.cfg.names
    w = l = d = 0
    out = {"games": [], "score": [], "elo": [], "elo_lo": [], "elo_hi": []}
    sprt = view.cfg.sprt
    if sprt is not None:
        out.update(llr=[], lower=sprt.lower, upper=sprt.upper)
    for j in view.records:
        p1 = {"1-0": 1, "0-1": -1}.get(j["result"], 0)
        a = p1 if j["p1"] == names[0] else -p1
        w, l, d = w + (a > 0), l + (a < 0), d + (a == 0)
        e, m = stats.elo(w, l, d)
        out["games"].append(len(out["games"]) + 1)
        out["score"].append(stats.score(w, l, d))
        out["elo"].append(_finite(e))
        out["elo_lo"].append(_finite(e - m))
        out["elo_hi"].append(_finite(e + m))
        if sprt is not None:
            out["llr"].append(sprt.llr(w, l, d))
    return out


def _finite(x):
    return None if math.isnan(x) or math.isinf(x) else round(x, 3)


COURSE_POINTS = 60  # ratings refitted at most this many times over a tournament's course


def rating_course(view):
    """A tournament's rating list after the games played so far, in the order the games
    ended, at up to COURSE_POINTS evenly spread numbers of games."""
    cfg = view.cfg
    index = {name: k for k, name in enumerate(cfg.names)}
    n = len(view.records)
    marks = sorted(set(max(1, int(round(n * (k + 1) / float(COURSE_POINTS)))) for k in range(COURSE_POINTS))) if n else []
    results, out = {}, {"games": [], "ratings": [[] for _ in cfg.names], "anchor": cfg.anchor}
    for count, j in enumerate(view.records, 1):
        i, k = index.get(j["p1"]), index.get(j["p2"])
        if i is None or k is None:
            continue
        p1 = {"1-0": 1.0, "0-1": 0.0}.get(j["result"], 0.5)
        if i > k:
            i, k, p1 = k, i, 1.0 - p1
        pts, games = results.get((i, k), (0.0, 0))
        results[(i, k)] = (pts + p1, games + 1)
        if count in marks:
            fit = ratings.fit(list(cfg.names), results, cfg.anchor)
            out["games"].append(count)
            for e, elo in enumerate(fit.elo):
                out["ratings"][e].append(_finite(elo))
    return out


def engine_data(view):
    """Per engine: moves, the histogram of its move times (over stats.TIME_BUCKETS) and its average
    reported depth (None when it reported none)."""
    out = []
    for name in view.cfg.names:
        n, total, worst = view.move_ms.get(name, (0, 0.0, 0.0))
        hist = view.time_histogram.get(name, [0] * (len(stats.TIME_BUCKETS) + 1))
        d = view.depths.get(name)
        out.append({"name": name, "moves": n, "average": total / n if n else None, "longest": worst,
                    "histogram": hist, "depth": d[1] / d[0] if d and d[0] else None})
    return out


def bucket_names():
    def ms(x):
        return "%d ms" % x if x < 1000 else "%g s" % (x / 1000.0)
    names = ["< %s" % ms(stats.TIME_BUCKETS[0])]
    names += ["%s\u2013%s" % (ms(a), ms(b)) for a, b in zip(stats.TIME_BUCKETS, stats.TIME_BUCKETS[1:])]
    names.append(">= %s" % ms(stats.TIME_BUCKETS[-1]))
    return names
