// The page knows no game: the board is the engine's SVG picture, the clickable points come from
// its board layout, and a move is whatever the engine's legal-move list says the clicks spell.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';

let tab = null;        // the server's id for this tab
let st = null;         // the last state from the server
let sel = { piece: null, points: [] };
let viewPly = null;    // a past ply being looked at, or null for the current position
let generation = 0;    // bumped by every user action, so stale engine replies are dropped
let busy = false;      // the engine is making a move
let thinking = false;  // an analysis request is under way
let analysing = false;
let evals = [];        // per ply: the first mover's score (cp), from analyses
let startMover = 0;    // index of the side to move at the start of the record
let streamTimer = null; // polls the engine's streaming analysis while it runs
let polling = false;
let clock = null;      // {base, inc, left: [ms, ms], running: side index or null, since, moves}
let flagged = null;    // {outcome, reason} once a clock has run out

// The one way the page reaches the server (docs/gui.md): JSON, with the launch's token from
// the page's address. Tests call it as `window.tetradCall`.
async function tetradCall(action, object = {}) {
  const headers = { 'Content-Type': 'application/json' };
  const token = new URLSearchParams(location.search).get('token');
  if (token) headers['X-Tetrad-Token'] = token;
  const res = await fetch('/api/' + action, { method: 'POST', headers, body: JSON.stringify(object) });
  const text = await res.text();
  let body = text;
  if ((res.headers.get('Content-Type') || '').startsWith('application/json')) {
    try { body = JSON.parse(text); } catch (e) { /* left as text */ }
  }
  return { status: res.status, body };
}
window.tetradCall = tetradCall;

async function call(action, body = {}) {
  const res = await tetradCall(action, Object.assign({ tab }, body));
  if (res.status < 200 || res.status > 299) {
    throw new Error((res.body && res.body.error) || String(res.body) || 'HTTP ' + res.status);
  }
  return res.body;
}

function status(text, error = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

function sideIndex(layout, name) {
  return Math.max(0, layout.sides.findIndex((s) => s.name === name));
}

function result(layout) {
  return (layout && layout.result) || flagged;
}

function resultText(layout) {
  const r = result(layout);
  return r ? r.outcome + ' ' + r.reason : null;
}

// --- the board ------------------------------------------------------------------------------

// Board units to picture pixels, read off the picture's own coordinate labels.
function frame(svg, layout) {
  const coords = [...svg.querySelectorAll('text.coord')];
  const find = (anchor, label) => coords.find(
    (t) => t.getAttribute('text-anchor') === anchor && t.textContent === label);
  const xs = layout.files.map((f) => [f.x, find('middle', f.label)]).filter((p) => p[1]);
  const ys = layout.ranks.map((r) => [r.y, find('end', r.label)]).filter((p) => p[1]);
  if (xs.length >= 2 && ys.length >= 1) {
    const [a, b] = [xs[0], xs[xs.length - 1]];
    const unit = (+b[1].getAttribute('x') - +a[1].getAttribute('x')) / (b[0] - a[0]);
    const x0 = +a[1].getAttribute('x') - unit * a[0];
    const t = ys[0][1];
    const y0 = +t.getAttribute('y') - 0.35 * +t.getAttribute('font-size') + unit * ys[0][0];
    return { unit, x: (x) => x0 + unit * x, y: (y) => y0 - unit * y };
  }
  // No labels: the board fills the picture's width.
  const [xmin, , xmax, ymax] = layout.extent;
  const width = +svg.getAttribute('width');
  const unit = width / (xmax - xmin + 1);
  return { unit, x: (x) => unit * (x - xmin + 0.5), y: (y) => unit * (ymax - y + 0.5) };
}

function drawBoard(svgText, layout, live) {
  const doc = new DOMParser().parseFromString(svgText, 'image/svg+xml');
  const svg = document.importNode(doc.documentElement, true);
  const f = frame(svg, layout);
  const layer = document.createElementNS(SVG, 'g');
  layer.setAttribute('class', 'hits');
  for (const p of layout.points) {
    const c = document.createElementNS(SVG, 'circle');
    c.setAttribute('class', 'hit');
    c.setAttribute('data-point', p.name);
    c.setAttribute('cx', f.x(p.x));
    c.setAttribute('cy', f.y(p.y));
    c.setAttribute('r', Math.max(4, f.unit * 0.42));
    if (live) c.addEventListener('click', () => clickPoint(p.name));
    layer.appendChild(c);
  }
  svg.appendChild(layer);
  $('board').replaceChildren(svg);
  uprightText();
}

// A flipped board is the picture turned half round: its coordinate labels (and other text) go
// round with it, each turned back about its own centre so that it still reads upright.
function uprightText() {
  const flipped = $('board').classList.contains('flipped');
  for (const t of document.querySelectorAll('#board svg text')) {
    if (!flipped) { t.removeAttribute('transform'); continue; }
    const b = t.getBBox();
    t.setAttribute('transform', 'rotate(180 ' + (b.x + b.width / 2) + ' ' + (b.y + b.height / 2) + ')');
  }
}

function pointMoves() {
  return st.legal.filter((m) => !m.no_points && m.piece === sel.piece);
}

function startsWith(points, prefix) {
  return prefix.every((p, i) => points[i] === p);
}

// Marks the chosen points and where the next click may go.
function highlight() {
  const cands = pointMoves().filter((m) => startsWith(m.points, sel.points));
  const next = new Set(cands.map((m) => m.points[sel.points.length]).filter(Boolean));
  // Where nearly every point starts a move (placements), marking them all says nothing.
  const fewStarts = next.size * 2 < st.layout.points.length;
  for (const c of document.querySelectorAll('#board .hit')) {
    const name = c.getAttribute('data-point');
    c.classList.toggle('chosen', sel.points.includes(name));
    c.classList.toggle('target', (sel.points.length > 0 || sel.piece !== null) && next.has(name));
    c.classList.toggle('start', fewStarts && sel.points.length === 0 && sel.piece === null && next.has(name));
  }
  for (const b of document.querySelectorAll('#hand button')) {
    b.classList.toggle('selected', b.getAttribute('data-piece') === sel.piece);
  }
}

function resetSelection() {
  sel = { piece: sel.piece !== null && handPieces().includes(sel.piece) ? sel.piece : null, points: [] };
  $('choices').replaceChildren();
  highlight();
}

function handPieces() {
  return [...new Set(st.legal.filter((m) => m.piece !== null).map((m) => m.piece))].sort();
}

function clickPoint(name) {
  if (!humanToMove()) return;
  let seq = sel.points.concat([name]);
  let cands = pointMoves().filter((m) => startsWith(m.points, seq));
  if (cands.length === 0 && sel.points.length > 0) {
    // Not a continuation: a fresh start from this point.
    seq = [name];
    cands = pointMoves().filter((m) => startsWith(m.points, seq));
  }
  if (cands.length === 0) {
    status('no legal move ' + (sel.points.length ? 'goes on at ' : 'starts at ') + name, true);
    sel.points = [];
    $('choices').replaceChildren();
    highlight();
    return;
  }
  sel.points = seq;
  const exact = cands.filter((m) => m.points.length === seq.length);
  $('choices').replaceChildren();
  if (exact.length === 1 && cands.length === 1) {
    play(exact[0].move);
    return;
  }
  // Clicks alone cannot tell these apart (or the move may go on): the player says which.
  for (const m of exact) {
    const b = document.createElement('button');
    b.textContent = m.move;
    b.setAttribute('data-choice', m.move);
    b.addEventListener('click', () => play(m.move));
    $('choices').appendChild(b);
  }
  status(exact.length ? 'choose the move, or click on to go further' : 'click where it goes');
  highlight();
}

function drawHand() {
  const hand = $('hand');
  hand.replaceChildren();
  // The picture itself shows what each side holds; these are the choices.
  for (const piece of handPieces()) {
    const b = document.createElement('button');
    b.textContent = piece;
    b.setAttribute('data-piece', piece);
    b.addEventListener('click', () => {
      if (!humanToMove()) return;
      sel = { piece: sel.piece === piece ? null : piece, points: [] };
      highlight();
    });
    hand.appendChild(b);
  }
  // Moves without a point (a swap): one button each.
  st.legal.filter((m) => m.no_points).forEach((m, i) => {
    const b = document.createElement('button');
    b.textContent = m.move;
    if (i === 0) b.id = 'swap';
    b.setAttribute('data-move', m.move);
    b.addEventListener('click', () => { if (humanToMove()) play(m.move); });
    hand.appendChild(b);
  });
}

// --- the game -------------------------------------------------------------------------------

function toMoveIndex() {
  return st.layout ? sideIndex(st.layout, st.layout.to_move) : 0;
}

function engineToMove() {
  if (!st || !st.layout || result(st.layout)) return false;
  const side = $('engine-side').value;
  const i = toMoveIndex();
  return side === 'both' || (side === 'first' && i === 0) || (side === 'second' && i === 1);
}

function humanToMove() {
  return st && viewPly === null && !busy && !engineToMove() && !result(st.layout);
}

function show(state) {
  st = state;
  viewPly = null;
  if (st.moves.length === 0) startMover = toMoveIndex();
  clockMoved();
  $('position').value = st.position || '';
  drawBoard(st.svg, st.layout, true);
  drawHand();
  drawMoves();
  resetSelection();
  drawChart();
  const r = resultText(st.layout);
  if (r) status('game over: ' + r);
  else status(st.layout.to_move + ' to move' + (engineToMove() ? ' (engine thinking)' : ''));
}

function drawMoves() {
  const list = $('moves');
  list.replaceChildren();
  st.moves.forEach((m, i) => {
    const li = document.createElement('li');
    li.textContent = m;
    li.setAttribute('data-move', m);
    li.addEventListener('click', () => view(i + 1));
    if (viewPly === i + 1) li.classList.add('viewed');
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}

async function act(action, body = {}) {
  try {
    show(await call(action, body));
    return true;
  } catch (e) {
    status(e.message, true);
    return false;
  }
}

async function play(move) {
  generation++;
  $('choices').replaceChildren();
  if (await act('play', { move })) await engineTurn();
}

async function engineTurn() {
  const mine = generation;
  while (engineToMove() && mine === generation) {
    busy = true;
    try {
      const movetime = Math.max(1, Math.min(60000, parseInt($('movetime').value, 10) || 500));
      const body = { movetime };
      if (clock) body.clock = { left: Math.max(1, Math.round(clockLeft(toMoveIndex()))), base: clock.base };
      const state = await call('engine', body);
      if (mine !== generation) return;
      show(state);
    } catch (e) {
      status(e.message, true);
      return;
    } finally {
      busy = false;
    }
  }
  if (analysing) analyse();
}

function gameOptions() {
  const out = {};
  for (const el of document.querySelectorAll('#game-options [data-option]')) {
    if (el.closest('.option').hidden) continue;
    out[el.getAttribute('data-option')] = el.type === 'checkbox' ? String(el.checked) : el.value;
  }
  return out;
}

async function newGame() {
  generation++;
  evals = [];
  const game = $('game').value;
  startClock();
  if (await act('new', { game, options: gameOptions() })) await engineTurn();
}

async function undo() {
  generation++;
  if (busy) return;
  // Against the engine, take back to the player's own turn.
  const times = $('engine-side').value === 'none' || $('engine-side').value === 'both' ? 1 : 2;
  for (let i = 0; i < times && st.moves.length > 0; i++) {
    if (!(await act('undo'))) break;
    if (!engineToMove()) break;
  }
  evals.length = Math.min(evals.length, st.moves.length + 1);
  drawChart();
  if (analysing) analyse();
}

async function view(ply) {
  if (ply < 0 || ply > st.moves.length) return;
  if (ply === st.moves.length) { show(st); return; }
  try {
    const v = await call('view', { ply });
    viewPly = ply;
    drawBoard(v.svg, v.layout, false);
    $('position').value = v.position;
    drawMoves();
    status('looking at the position after ' + ply + ' moves (>| returns)');
  } catch (e) {
    status(e.message, true);
  }
}

// --- options --------------------------------------------------------------------------------

// Each game's own options (as the engine says which they are), shown with that game only.
function buildOptions() {
  const box = $('game-options');
  box.replaceChildren();
  for (const o of st.options) {
    if (!o.games.length || o.type === 'button') continue;
    const label = document.createElement('label');
    label.className = 'option';
    label.setAttribute('data-games', o.games.join(' '));
    const text = o.name.replace(/_/g, ' ');
    let el;
    if (o.type === 'combo') {
      el = document.createElement('select');
      for (const v of o.values) el.add(new Option(v, v, false, v === o.value));
    } else if (o.type === 'check') {
      el = document.createElement('input');
      el.type = 'checkbox';
      el.checked = o.value === 'true';
    } else {
      el = document.createElement('input');
      el.type = o.type === 'spin' ? 'number' : 'text';
      if (o.min !== null) el.min = o.min;
      if (o.max !== null) el.max = o.max;
      el.value = o.value;
      el.size = 8;
    }
    el.setAttribute('data-option', o.name);
    el.setAttribute('data-defaults', JSON.stringify(o.defaults || {}));
    el.id = 'opt-' + o.name;
    // A box before its words, as check boxes stand; a field after them.
    if (o.type === 'check') label.append(el, ' ' + text);
    else label.append(text + ' ', el);
    box.appendChild(label);
  }
  showOptions(true);
}

// With `fresh` (another game chosen), each field shows that game's default: one field serves
// every game with the option, and a value chosen for one game is not the next one's.
function showOptions(fresh) {
  const game = $('game').value;
  for (const label of document.querySelectorAll('#game-options .option')) {
    label.hidden = !label.getAttribute('data-games').split(' ').includes(game);
    const el = label.querySelector('[data-option]');
    const value = JSON.parse(el.getAttribute('data-defaults') || '{}')[game];
    if (!fresh || value === undefined) continue;
    if (el.type === 'checkbox') el.checked = value === 'true';
    else el.value = value;
  }
}

// --- analysis -------------------------------------------------------------------------------

function scoreText(s) {
  return s.kind === 'mate' ? 'mate ' + s.value : (s.value >= 0 ? '+' : '') + (s.value / 100).toFixed(2);
}

function firstMoverScore(s, mover) {
  const v = s.kind === 'mate' ? Math.sign(s.value) * 1000 : Math.max(-1000, Math.min(1000, s.value));
  return mover === 0 ? v : -v;
}

function stopPolling() {
  if (streamTimer !== null) clearInterval(streamTimer);
  streamTimer = null;
}

function showLines(v, ply) {
  if (v.ply !== ply) return;
  const box = $('analysis');
  box.replaceChildren();
  for (const line of v.lines) {
    const d = document.createElement('div');
    d.setAttribute('data-move', line.move);
    d.setAttribute('data-depth', line.depth);
    d.textContent = scoreText(line.score) + '  d' + line.depth + '  ' + line.pv.join(' ');
    box.appendChild(d);
  }
  if (v.lines.length) {
    evals[ply] = firstMoverScore(v.lines[0].score, toMoveIndex());
    drawChart();
  }
}

// The engine analyses the current position until told otherwise (any other request to it
// ends the analysis first); the page polls for the latest lines as they deepen.
async function analyse() {
  stopPolling();
  if (!analysing || !st || result(st.layout) || engineToMove()) return;
  const mine = generation;
  const ply = st.moves.length;
  thinking = true;
  try {
    const v = await call('stream_start', { multipv: 3 });
    if (mine !== generation || !analysing) return;
    showLines(v, ply);
  } catch (e) {
    status(e.message, true);
    return;
  } finally {
    thinking = false;
  }
  streamTimer = setInterval(async () => {
    if (!analysing || mine !== generation) { stopPolling(); return; }
    if (polling) return;
    polling = true;
    try {
      const v = await call('stream');
      if (mine === generation && analysing) showLines(v, ply);
      if (!v.running) stopPolling();
    } catch (e) {
      stopPolling();
      status(e.message, true);
    } finally {
      polling = false;
    }
  }, 250);
}

async function toggleAnalysis() {
  analysing = !analysing;
  $('analyse').setAttribute('aria-pressed', String(analysing));
  $('analyse').textContent = analysing ? 'Stop analysis' : 'Analyse';
  if (analysing) {
    analyse();
    return;
  }
  stopPolling();
  $('analysis').replaceChildren();
  try { await call('stream_stop'); } catch (e) { status(e.message, true); }
}

async function hint() {
  if (!humanToMove()) return;
  try {
    let best = null;
    const shown = $('analysis').firstElementChild;
    if (analysing && shown) {
      best = { move: shown.getAttribute('data-move'), text: shown.textContent.split('  ')[0] };
    } else {
      thinking = true;
      const v = await call('analyse', { depth: 30, multipv: 1, movetime: 1000 });
      thinking = false;
      if (v.lines[0]) best = { move: v.lines[0].move, text: scoreText(v.lines[0].score) };
    }
    if (!best) return;
    const m = st.legal.find((x) => x.move === best.move);
    for (const c of document.querySelectorAll('#board .hit')) {
      c.classList.toggle('hint', !!m && m.points.includes(c.getAttribute('data-point')));
    }
    status('best move: ' + best.move + ' (' + best.text + ')');
  } catch (e) {
    thinking = false;
    status(e.message, true);
  }
}

function drawChart() {
  const chart = $('chart');
  chart.replaceChildren();
  const n = Math.max(1, st ? st.moves.length : 1);
  const axis = document.createElementNS(SVG, 'line');
  axis.setAttribute('x1', 0); axis.setAttribute('x2', 300);
  axis.setAttribute('y1', 50); axis.setAttribute('y2', 50);
  axis.setAttribute('stroke', '#ccc');
  axis.setAttribute('stroke-dasharray', '4 4');
  chart.appendChild(axis);
  const pts = [];
  evals.forEach((v, i) => { if (v !== undefined) pts.push((i / n) * 300 + ',' + (50 - v / 20)); });
  // A line needs two points: until then there is nothing to draw.
  $('chart-box').hidden = pts.length < 2;
  if (pts.length) {
    const line = document.createElementNS(SVG, 'polyline');
    line.setAttribute('points', pts.join(' '));
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', '#2060c0');
    line.setAttribute('stroke-width', 2);
    line.setAttribute('class', 'eval');
    chart.appendChild(line);
  }
}

// --- records --------------------------------------------------------------------------------

// The engine writes the record (its format and tags are the engine's business); the page names
// the players and the day.
async function save() {
  const engine = $('engine-side').value;
  const player = (i) => (engine === 'both' || (engine === 'first' && i === 0) || (engine === 'second' && i === 1)) ? 'tetrad' : 'human';
  const d = new Date();
  const date = d.getFullYear() + '.' + String(d.getMonth() + 1).padStart(2, '0') + '.' + String(d.getDate()).padStart(2, '0');
  const body = { players: [player(0), player(1)], date };
  if (clock) body.time_control = clock.base / 1000 + '+' + clock.inc / 1000;
  try {
    const r = await call('record', body);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([r.text], { type: 'text/plain' }));
    a.download = st.game + '.' + r.extension;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // The test hooks: what was saved last.
    $('save-game').setAttribute('data-record', r.text);
    $('save-game').setAttribute('data-file', a.download);
    status('saved ' + a.download);
  } catch (e) {
    status(e.message, true);
  }
}

// --- the clock ----------------------------------------------------------------------------------

// A clock for each side: base time plus an increment per move; the engine is told its time left.
function startClock() {
  flagged = null;
  const base = Math.round(parseFloat($('clock-base').value) * 1000) || 0;
  const inc = Math.round(parseFloat($('clock-inc').value) * 1000) || 0;
  clock = base > 0 ? { base, inc, left: [base, base], running: null, since: 0, moves: 0 } : null;
  drawClocks();
}

function clockLeft(i) {
  if (!clock) return Infinity;
  const running = clock.running === i ? performance.now() - clock.since : 0;
  return clock.left[i] - running;
}

// After each state shown: the side that moved is charged its time and given its increment.
function clockMoved() {
  if (!clock || flagged) return;
  const now = performance.now();
  if (clock.running !== null && st.moves.length > clock.moves) {
    clock.left[clock.running] += clock.inc - (now - clock.since);
  }
  clock.moves = st.moves.length;
  clock.running = st.layout && !st.layout.result ? toMoveIndex() : null;
  clock.since = now;
  drawClocks();
}

function clockText(ms) {
  const t = Math.max(0, ms) / 1000;
  const m = Math.floor(t / 60);
  const sec = t - 60 * m;
  return m + ':' + (sec < 10 ? '0' : '') + sec.toFixed(1);
}

function drawClocks() {
  $('clocks').hidden = !clock;
  if (!clock || !st || !st.layout) return;
  st.layout.sides.forEach((side, i) => {
    const el = $('clock-' + i);
    el.textContent = side.name + ' ' + clockText(clockLeft(i));
    el.classList.toggle('running', clock.running === i);
  });
}

function tick() {
  if (!clock || clock.running === null || flagged) return;
  const i = clock.running;
  if (clockLeft(i) <= 0) {
    // The flag falls: the other side wins on time, whatever the engine is still thinking.
    generation++;
    clock.left[i] = 0;
    clock.running = null;
    flagged = { outcome: st.layout.sides[1 - i].name, reason: 'time' };
    stopPolling();
    status('game over: ' + resultText(st.layout));
    drawBoard(st.svg, st.layout, true);
  }
  drawClocks();
}

async function copyPosition() {
  const text = $('position').value;
  try {
    await navigator.clipboard.writeText(text);
    status('position copied');
  } catch (e) {
    $('position').select();
    status('select and copy the position string');
  }
}

// --- start ----------------------------------------------------------------------------------

async function start() {
  try {
    const state = await call('open');
    tab = state.tab;
    for (const g of state.games) $('game').add(new Option(g, g, false, g === state.game));
    st = state;
    buildOptions();
    show(state);
  } catch (e) {
    status('cannot start: ' + e.message, true);
    return;
  }
  $('game').addEventListener('change', () => { showOptions(true); newGame(); });
  $('new-game').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('flip').addEventListener('click', () => { $('board').classList.toggle('flipped'); uprightText(); });
  $('engine-side').addEventListener('change', () => { generation++; engineTurn(); });
  $('nav-first').addEventListener('click', () => view(0));
  $('nav-prev').addEventListener('click', () => view((viewPly === null ? st.moves.length : viewPly) - 1));
  $('nav-next').addEventListener('click', () => { if (viewPly !== null) view(viewPly + 1); });
  $('nav-last').addEventListener('click', () => view(st.moves.length));
  $('analyse').addEventListener('click', toggleAnalysis);
  $('hint').addEventListener('click', hint);
  $('load-position').addEventListener('click', async () => {
    generation++;
    evals = [];
    startClock();
    if (await act('position', { position: $('position').value })) await engineTurn();
  });
  $('copy-position').addEventListener('click', copyPosition);
  $('save-game').addEventListener('click', save);
  setInterval(tick, 100);
  // The engine process ends with the tab (a keepalive fetch outlives the page, and unlike a
  // beacon carries the token header).
  window.addEventListener('pagehide', () => {
    const headers = { 'Content-Type': 'application/json' };
    const token = new URLSearchParams(location.search).get('token');
    if (token) headers['X-Tetrad-Token'] = token;
    fetch('/api/close', { method: 'POST', headers, body: JSON.stringify({ tab }), keepalive: true });
  });
}

start();
