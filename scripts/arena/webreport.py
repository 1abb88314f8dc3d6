"""``report.html``: one self-contained page (no network) with the match summary (or a
tournament's ratings and crosstable), the charts of charts.py, the table of games and a viewer
stepping through each game on boards drawn by the referee."""

import base64
import html
import json
import math
import os
import time
import zlib

from . import records, stats, tournament
from .charts import CHARTS, MATE, bucket_names, course, engine_data, game_series, rating_course
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
    players = (j["p1"], j["p2"])
    numbers, k = [], 1
    for i, who in enumerate(movers):
        numbers.append("%d." % k if who == 0 else ("%d..." % k if i == 0 else ""))
        if who == 1:
            k += 1
    packed = kind = None
    if boards and boards.get("count") == len(moves) + 1:
        kind, packed = boards["kind"], boards["gz"]
    data = {
        "n": j["game"], "title": "%s (%s) vs %s (%s)" % (players[wi], sides[wi], players[1 - wi], sides[1 - wi]),
        "result": records.pgn_result(j["result"], sides), "reason": j["reason"], "moves": moves, "book": len(book),
        "times": times, "numbers": numbers, "boards": packed, "kind": kind,
        "whiteName": players[wi], "blackName": players[1 - wi],
    }
    data.update(game_series(j, movers, wi))
    return data


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
    info = {"games": data, "names": list(cfg.names), "engines": engines, "bucketNames": bucket_names(), "mate": MATE,
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
