"""``report.html``: one self-contained page (no network) with the match summary, the table of
games and a viewer stepping through each game on boards drawn by the referee."""

import base64
import html
import json
import math
import os
import time
import zlib

from . import ratings, records, stats, tournament
from .report import duration

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.5em; }
table { border-collapse: collapse; } td, th { padding: 0.2em 0.7em; border-bottom: 1px solid #ddd; text-align: left; }
tr.game { cursor: pointer; } tr.game:hover, tr.game.sel { background: #e8f0ff; }
.num { text-align: right; } .small { color: #666; font-size: 0.9em; }
#viewer { display: flex; gap: 1.5em; align-items: flex-start; flex-wrap: wrap; }
#board { min-width: 320px; min-height: 320px; } #board svg { width: 420px; height: auto; max-width: 90vw; }
#board pre { font-size: 1.05em; line-height: 1.25; }
#moves { max-width: 32em; max-height: 30em; overflow-y: auto; line-height: 1.8; }
.mv { cursor: pointer; padding: 0.1em 0.3em; border-radius: 3px; white-space: nowrap; } .mv:hover { background: #eee; }
.mv.cur { background: #ffd84d; } .mv.book { color: #777; font-style: italic; }
.no { color: #999; margin-left: 0.4em; } button { font-size: 1em; min-width: 3em; }
svg.chart { display: block; background: #fcfcfc; border: 1px solid #e4e4e4; margin: 0.3em 0 0.8em 0; }
svg.chart text { font-size: 11px; fill: #555; } svg.chart .pt, svg.chart .bar { cursor: pointer; }
svg.chart .pt:hover { stroke: #000; stroke-width: 2; } .key { display: inline-block; width: 0.9em; height: 0.9em; margin: 0 0.3em 0 0.8em; vertical-align: middle; }
#charts { max-width: 640px; }
"""

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
  label(svg, L, 12, 'evaluation by each engine, pawns from White\u2019s side (mates at \u00b1' + clip + ')');
  label(svg, L - 4, Y(clip) + 4, '+' + clip, 'end'); label(svg, L - 4, Y(-clip) + 4, '-' + clip, 'end');
  label(svg, L - 4, Y(0) + 4, '0', 'end');
  svgEl('line', {x1: L, x2: W - R, y1: Y(0), y2: Y(0), stroke: '#bbb'}, svg);
  svgEl('line', {id: 'evalcursor', x1: L, x2: L, y1: T, y2: H - B, stroke: '#e0a800', 'stroke-width': 2, visibility: 'hidden'}, svg);
  [0, 1].forEach(function (who) {
    var pts = [];
    for (var i = 0; i < n; i++) if (g.white[i] === who && g.evals[i] !== null) pts.push([X(i + 1), Y(g.evals[i]), i + 1]);
    line(svg, pts, COLORS[who], {'class': 'series'});
    pts.forEach(function (p) {
      var c = svgEl('circle', {cx: p[0].toFixed(1), cy: p[1].toFixed(1), r: 3.5, fill: COLORS[who], 'class': 'pt', 'data-ply': p[2]}, svg);
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

SCRIPT = """
(function () {
  var G = DATA.games, cur = null, ply = 0, frames = {};
  function el(id) { return document.getElementById(id); }
  // A game's boards are one gzip-compressed JSON list (consecutive boards differ little).
  function unpack(k) {
    if (frames[k]) return Promise.resolve(frames[k]);
    if (typeof DecompressionStream === 'undefined') return Promise.reject(new Error('this browser cannot unpack the boards (no DecompressionStream)'));
    var bin = atob(G[k].boards), bytes = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return new Response(stream).text().then(function (t) {
      var d = JSON.parse(t);
      frames[k] = d.boards.map(function (row) { return row.map(function (i) { return d.lines[i]; }).join('\\n'); });
      return frames[k];
    });
  }
  function show() {
    var g = G[cur], n = g.moves.length;
    markPly(ply);
    var f = frames[cur] ? frames[cur][ply] : null;
    var board = el('board');
    if (!g.boards) {
      board.innerHTML = '<p class="small">No board drawn for this game.</p>';
    } else if (f === null || f === undefined) {
      board.innerHTML = '<p class="small">Loading the boards\u2026</p>';
    } else if (g.kind === 'svg') {
      board.innerHTML = f;
    } else {
      var pre = document.createElement('pre'); pre.textContent = f;
      board.innerHTML = ''; board.appendChild(pre);
    }
    board.setAttribute('data-game', String(g.n));
    board.setAttribute('data-ready', frames[cur] || !g.boards ? '1' : '0');
    var text = ply === 0 ? 'start' : (ply <= g.book ? 'opening ' : '') + 'ply ' + ply + ': ' + g.moves[ply - 1];
    el('ply').textContent = text + ' (' + ply + ' / ' + n + ')';
    el('ply').setAttribute('data-ply', String(ply));
    var spans = document.querySelectorAll('#moves .mv');
    for (var i = 0; i < spans.length; i++) {
      spans[i].className = 'mv' + (i < g.book ? ' book' : '') + (i + 1 === ply ? ' cur' : '');
    }
    el('first').disabled = el('prev').disabled = ply === 0;
    el('last').disabled = el('next').disabled = ply === n;
  }
  function open(k) {
    cur = k; ply = 0;
    var g = G[k];
    var rows = document.querySelectorAll('tr.game');
    for (var i = 0; i < rows.length; i++) {
      rows[i].className = 'game' + (rows[i].getAttribute('data-index') === String(k) ? ' sel' : '');
    }
    el('vtitle').textContent = 'Game ' + g.n + ': ' + g.title + ' \\u2014 ' + g.result + ', ' + g.reason;
    var list = el('moves'); list.innerHTML = '';
    for (var i = 0; i < g.moves.length; i++) {
      if (g.numbers[i]) { var no = document.createElement('span'); no.className = 'no'; no.textContent = g.numbers[i]; list.appendChild(no); }
      var s = document.createElement('span');
      s.className = 'mv'; s.setAttribute('data-ply', String(i + 1));
      s.textContent = g.moves[i];
      s.title = g.times[i];
      s.onclick = (function (p) { return function () { ply = p; show(); }; })(i + 1);
      list.appendChild(s); list.appendChild(document.createTextNode(' '));
    }
    el('viewer-box').style.display = '';
    drawGameCharts(g, function (p) { ply = p; show(); });
    if (history.replaceState) { history.replaceState(null, '', '#game-' + g.n); }
    show();
    if (g.boards) {
      unpack(k).then(function () { if (cur === k) show(); }, function (e) {
        if (cur === k) el('board').innerHTML = '<p class="small">' + String(e.message || e) + '</p>';
      });
    }
  }
  function step(to) { if (cur === null) return; ply = Math.max(0, Math.min(G[cur].moves.length, to)); show(); }
  el('first').onclick = function () { step(0); };
  el('prev').onclick = function () { step(ply - 1); };
  el('next').onclick = function () { step(ply + 1); };
  el('last').onclick = function () { step(G[cur].moves.length); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') step(ply - 1); else if (e.key === 'ArrowRight') step(ply + 1);
  });
  drawCourse();
  drawEngines();
  var rows = document.querySelectorAll('tr.game');
  for (var i = 0; i < rows.length; i++) {
    rows[i].onclick = (function (k) { return function () { open(k); }; })(parseInt(rows[i].getAttribute('data-index'), 10));
  }
  var m = /^#game-(\\d+)$/.exec(location.hash), start = 0;
  if (m) { for (var i = 0; i < G.length; i++) if (G[i].n === parseInt(m[1], 10)) start = i; }
  if (G.length) open(start); else el('viewer-box').style.display = 'none';
})();
"""


def _e(x):
    return html.escape(str(x), quote=True)


def _num(x, fmt="%.1f"):
    return "n/a" if x is None or math.isnan(x) else ("inf" if x > 0 else "-inf") if math.isinf(x) else fmt % x


def _script_json(obj):
    # inside <script>, "</" could end the element early
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":")).replace("</", "<\\/")


def pack(frames):
    """A game's boards (multi-line texts) as base64 of gzip-compressed JSON: the distinct lines
    once, each board as a list of line numbers. A move changes few lines of a board, so the
    lists of consecutive boards are alike and compress well, even for boards larger than
    gzip's 32 KB window. zlib with a gzip header (wbits 31) and no timestamp: equal boards give
    equal bytes."""
    index, lines, boards = {}, [], []
    for f in frames:
        row = []
        for line in f.split("\n"):
            k = index.get(line)
            if k is None:
                k = index[line] = len(lines)
                lines.append(line)
            row.append(k)
        boards.append(row)
    c = zlib.compressobj(9, zlib.DEFLATED, 31)
    text = json.dumps({"lines": lines, "boards": boards}, ensure_ascii=False, separators=(",", ":"))
    data = c.compress(text.encode("utf-8")) + c.flush()
    return base64.b64encode(data).decode("ascii")


def unpack(text):
    """The boards ``pack`` packed."""
    d = json.loads(zlib.decompress(base64.b64decode(text), 31).decode("utf-8"))
    return ["\n".join(d["lines"][k] for k in row) for row in d["boards"]]


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


def _move_note(m):
    """A move's tooltip: side, reported score/depth when there is one, time."""
    score = records.score_text(m.get("score"))
    thought = " %s/%d" % (score, m.get("depth") or 0) if score else ""
    return "%s%s, %.1f ms" % (m["side"], thought, m.get("ms", 0.0))


def game_data(j, boards, sides):
    book = list(j.get("opening") or [])
    moves = book + [m["move"] for m in j["moves"]]
    times = ["opening"] * len(book) + [_move_note(m) for m in j["moves"]]
    movers = records.movers(j, sides)
    wi = records.white_index(sides)
    white = [0 if who == wi else 1 for who in movers]  # 0: White's move
    evals = [None] * len(book) + [pawns_for_white(m.get("score"), white[len(book) + k] == 0) for k, m in enumerate(j["moves"])]
    ms = [None] * len(book) + [m.get("ms", 0.0) for m in j["moves"]]
    largest = max([abs(v) for v in evals if v is not None and abs(v) < MATE] + [1.0])
    players = (j["p1"], j["p2"])
    numbers, k = [], 1
    for i, who in enumerate(movers):
        numbers.append("%d." % k if who == 0 else ("%d..." % k if i == 0 else ""))
        if who == 1:
            k += 1
    packed = kind = None
    if boards and boards.get("count") == len(moves) + 1:
        kind, packed = boards["kind"], boards["gz"]
    return {
        "n": j["game"], "title": "%s (%s) vs %s (%s)" % (players[wi], sides[wi], players[1 - wi], sides[1 - wi]),
        "result": records.pgn_result(j["result"], sides), "reason": j["reason"], "moves": moves, "book": len(book),
        "times": times, "numbers": numbers, "boards": packed, "kind": kind,
        "white": white, "evals": evals, "ms": ms, "clip": min(EVAL_CLIP, int(math.ceil(largest))),
        "whiteName": players[wi], "blackName": players[1 - wi],
    }


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


def page(view):
    """The report's HTML text. ``view``: a Match, or a merged set of shards (same fields)."""
    cfg = view.cfg
    games = sorted(view.records, key=lambda j: j["game"])
    data = [game_data(j, view.boards.get(j["game"]), cfg.sides) for j in games]
    out = []
    w = out.append
    w("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
    w("<title>%s</title><style>%s</style></head><body>" % (_e(cfg.event), STYLE))
    w("<h1>%s</h1>" % _e(cfg.event))
    shard = getattr(cfg, "shard", None)
    merged = getattr(view, "merged_from", None)
    who = ("%s vs %s" % tuple(cfg.names)) if cfg.tournament is None else "%s of %s" % (cfg.tournament, ", ".join(cfg.names))
    tcs = " / ".join(str(cfg.tc_of(i)) for i in range(len(cfg.names)))
    w("<p class=\"small\">Game %s, %s, time control %s, seed %s%s. Written %s.</p>" % (
        _e(cfg.game), _e(who), _e(tcs), _e(cfg.seed),
        (", shard %d/%d" % tuple(shard)) if shard else (", merged from %s" % _e(merged) if merged else ""),
        _e(time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()))))
    if cfg.tournament is None:
        _match_summary(view, w)
    else:
        _tournament_summary(view, w)
    w("<h2>Result reasons</h2><table id=\"reasons\">")
    for reason, count in sorted(view.reasons.items(), key=lambda kv: (-kv[1], kv[0])):
        w("<tr><td>%s</td><td class=\"num\">%d</td></tr>" % (_e(reason), count))
    w("</table>")
    engines = engine_data(view)
    if any(e["moves"] for e in engines):
        w("<h2>Engines</h2><table id=\"times\"><tr><th>engine</th><th>moves</th><th>average</th><th>longest</th>"
          "<th>average depth</th><th>time per move: how many moves took how long</th></tr>")
        for k, e in enumerate(engines):
            if e["moves"]:
                w("<tr><td>%s</td><td class=\"num\">%d</td><td class=\"num\">%.1f ms</td><td class=\"num\">%.1f ms</td>"
                  "<td class=\"num depth\">%s</td><td><div id=\"hist-%d\" class=\"hist\"></div></td></tr>" % (
                      _e(e["name"]), e["moves"], e["average"], e["longest"],
                      "%.1f" % e["depth"] if e["depth"] is not None else "n/a", k))
        w("</table>")
    elapsed = getattr(view, "started", None)
    if elapsed is not None and view.finished + view.aborted < cfg.planned and not getattr(view, "merged_from", None):
        w("<p class=\"small\">Running for %s; refresh the page for newer games.</p>" % _e(duration(time.monotonic() - elapsed)))

    wi = records.white_index(cfg.sides)
    w("<h2>Games</h2><p class=\"small\" id=\"convention\">Results are written as in games.pgn: from White's side "
      "(1-0: White wins), White being %s. games.jsonl writes them from the first mover's side.</p>" % (
          "the side called white, which in this game moves %s" % ("first" if wi == 0 else "second")
          if "white" in cfg.sides else "the first mover (%s)" % _e(cfg.sides[0])))
    w("<table id=\"games\"><tr><th>#</th><th>White (%s)</th><th>Black (%s)</th><th>opening</th><th>result</th>"
      "<th>reason</th><th class=\"num\">plies</th></tr>" % (_e(cfg.sides[wi]), _e(cfg.sides[1 - wi])))
    for k, j in enumerate(games):
        players = (j["p1"], j["p2"])
        w("<tr class=\"game\" data-index=\"%d\" data-game=\"%d\"><td>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=\"num\">%d</td></tr>" % (
            k, j["game"], j["game"], _e(players[wi]), _e(players[1 - wi]),
            _e((j.get("opening_source") or "start") + (" (%d plies)" % len(j["opening"]) if j.get("opening") else "")),
            _e(records.pgn_result(j["result"], cfg.sides)), _e(j["reason"]), j["plies"]))
    w("</table>")
    if len(games) and cfg.board_limit < cfg.games:
        w("<p class=\"small\">Boards are drawn for the first %d games.</p>" % cfg.board_limit)

    w("<div id=\"viewer-box\"><h2 id=\"vtitle\"></h2>")
    w("<p><button id=\"first\">|&lt;</button> <button id=\"prev\">&lt;</button> "
      "<button id=\"next\">&gt;</button> <button id=\"last\">&gt;|</button> <span id=\"ply\"></span></p>")
    w("<div id=\"viewer\"><div id=\"board\"></div><div id=\"moves\"></div></div>")
    w("<div id=\"charts\"><p class=\"small\" id=\"chartkey\"></p><div id=\"evalchart\"></div><div id=\"timechart\"></div>"
      "<p class=\"small\">Click a point or a bar to go to that move.</p></div></div>")
    info = {"games": data, "names": list(cfg.names), "engines": engines, "bucketNames": bucket_names(),
            "course": course(view) if cfg.tournament is None else rating_course(view)}
    w("<script>var DATA = %s;</script>" % _script_json(info))
    w("<script>%s%s</script></body></html>\n" % (CHARTS, SCRIPT))
    return "\n".join(out)


def _match_summary(view, w):
    cfg = view.cfg
    t = view.total
    a, b = cfg.names
    e, m = stats.elo(t.w, t.l, t.d)
    w("<h2>Summary</h2><table id=\"summary\">")

    def row(key, value):
        w("<tr><th>%s</th><td>%s</td></tr>" % (_e(key), value))

    row("Games", "%d of %d finished%s" % (view.finished, cfg.planned, ", %d aborted" % view.aborted if view.aborted else ""))
    row("Score", "<span id=\"score\">%s %d &ndash; %d &ndash; %d %s</span> [%s]" % (
        _e(a), t.w, t.l, t.d, _e(b), "%.3f" % stats.score(t.w, t.l, t.d) if t.n else "n/a"))
    row("Elo difference", "<span id=\"elo\">%s &plusmn; %s</span> (95 %%)" % (_num(e), _num(m)))
    row("LOS", "%.1f %%" % (100.0 * stats.los(t.w, t.l)))
    row("Draw ratio", "%.1f %%" % (100.0 * stats.draw_ratio(t.w, t.l, t.d)) if t.n else "n/a")
    pair_stats = view.pair_stats()
    if pair_stats:
        counts, pe, pm, pl = pair_stats
        row("Pairs", "<span id=\"pairs\">%s</span> by %s's points (0, &frac12;, 1, 1&frac12;, 2): "
            "Elo %s &plusmn; %s, LOS %.1f %%" % (" ".join(str(c) for c in counts), _e(a), _num(pe), _num(pm), 100.0 * pl))
    if cfg.sprt is not None:
        s = cfg.sprt
        llr = s.llr(t.w, t.l, t.d)
        state = view.sprt_decision and "%s accepted" % view.sprt_decision or "running"
        row("SPRT", "elo0 %s, elo1 %s, &alpha; %s, &beta; %s: llr %.3f in [%.2f, %.2f] &mdash; <span id=\"sprt\">%s</span>" % (
            _e(s.elo0), _e(s.elo1), _e(s.alpha), _e(s.beta), llr, s.lower, s.upper, _e(state)))
    for side in (0, 1):
        st = view.by_side[side]
        row("%s as %s" % (a, cfg.sides[side]), "%d &ndash; %d &ndash; %d" % (st.w, st.l, st.d))
    w("</table>")
    w("<h2>Course of the match</h2><div id=\"course\"></div>")


def _tournament_summary(view, w):
    cfg = view.cfg
    fit = tournament.rating_fit(view)
    w("<h2>Ratings</h2><p class=\"small\">%s; %d of %d games finished%s.</p>" % (
        _e(tournament.method_text(fit)), view.finished, cfg.planned,
        ", %d aborted" % view.aborted if view.aborted else ""))
    w("<table id=\"ratings\"><tr><th>rank</th><th>engine</th><th class=\"num\">Elo</th><th class=\"num\">&plusmn;</th>"
      "<th class=\"num\">games</th><th class=\"num\">points</th><th class=\"num\">score</th></tr>")
    order = fit.ranked()
    for k, i in enumerate(order, 1):
        g = fit.games[i]
        w("<tr><td>%d</td><td>%s</td><td class=\"num\">%s</td><td class=\"num\">%s</td><td class=\"num\">%d</td>"
          "<td class=\"num\">%s</td><td class=\"num\">%s</td></tr>" % (
              k, _e(fit.names[i]), _num(fit.elo[i]), _num(fit.error[i]), g, "%g" % fit.points[i],
              "%.1f %%" % (100.0 * fit.points[i] / g) if g else "n/a"))
    w("</table>")
    w("<h2>Course of the tournament</h2><div id=\"course\"></div>")
    w("<h2>Crosstable</h2><p class=\"small\">The row engine's points against the column engine, out of the games they played.</p>")
    w("<table id=\"crosstable\"><tr><th></th>%s</tr>" % "".join("<th>%s</th>" % _e(cfg.names[i]) for i in order))
    for i, row in zip(order, tournament.crosstable(view, order)):
        cells = "".join("<td class=\"num\">%s</td>" % ("%g/%d" % c if c else ("&mdash;" if j == i else ""))
                        for j, c in zip(order, row))
        w("<tr><th>%s</th>%s</tr>" % (_e(cfg.names[i]), cells))
    w("</table>")


def write(path, view):
    """Write the report atomically, so a browser refreshing it never reads half a file."""
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(page(view))
    os.replace(tmp, path)
