// The page knows no game: the board is the engine's SVG picture, the clickable points come from
// its board layout, and a move is whatever the engine's legal-move list says the clicks spell.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
// Options of the engine itself, not of a game: not offered next to the game select.
const ENGINE_OPTIONS = ['game', 'threads', 'hash', 'multipv', 'seed', 'move_overhead', 'ponder',
  'movetime', 'depth', 'nodes', 'clear_hash'];

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

async function call(action, body = {}) {
  const res = await fetch('/api/' + action, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(Object.assign({ tab }, body)),
  });
  const value = await res.json();
  if (!res.ok) throw new Error(value.error || res.statusText);
  return value;
}

function status(text, error = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

function sideIndex(layout, name) {
  return Math.max(0, layout.sides.findIndex((s) => s.name === name));
}

function resultText(layout) {
  const r = layout && layout.result;
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
  if (!st || !st.layout || st.layout.result) return false;
  const side = $('engine-side').value;
  const i = toMoveIndex();
  return side === 'both' || (side === 'first' && i === 0) || (side === 'second' && i === 1);
}

function humanToMove() {
  return st && viewPly === null && !busy && !engineToMove() && !(st.layout && st.layout.result);
}

function show(state) {
  st = state;
  viewPly = null;
  if (st.moves.length === 0) startMover = toMoveIndex();
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
      const state = await call('engine', { movetime });
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
    if (el.closest('label').hidden) continue;
    out[el.getAttribute('data-option')] = el.type === 'checkbox' ? String(el.checked) : el.value;
  }
  return out;
}

async function newGame() {
  generation++;
  evals = [];
  const game = $('game').value;
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

function prefix(name) {
  return name.split(/[-_]/)[0];
}

function buildOptions() {
  const box = $('game-options');
  box.replaceChildren();
  const gamePrefixes = new Set(st.games.map(prefix));
  for (const o of st.options) {
    if (ENGINE_OPTIONS.includes(o.name) || o.type === 'button') continue;
    const label = document.createElement('label');
    label.setAttribute('data-prefix', gamePrefixes.has(prefix(o.name)) ? prefix(o.name) : '');
    label.append(o.name.replace(/_/g, ' ') + ' ');
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
    el.id = 'opt-' + o.name;
    label.appendChild(el);
    box.appendChild(label);
  }
  showOptions();
}

// An option named after a game (its first word) is shown with that game only.
function showOptions() {
  const p = prefix($('game').value);
  for (const label of document.querySelectorAll('#game-options label')) {
    const owner = label.getAttribute('data-prefix');
    label.hidden = owner !== '' && owner !== p;
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

async function analyse() {
  const mine = generation;
  const ply = st.moves.length;
  for (let depth = 1; depth <= 30 && analysing && mine === generation; depth++) {
    if (st.layout.result || engineToMove()) break;
    thinking = true;
    let v;
    try {
      v = await call('analyse', { depth, multipv: 3, movetime: 2000 });
    } catch (e) {
      status(e.message, true);
      break;
    } finally {
      thinking = false;
    }
    if (mine !== generation || !analysing) break;
    const box = $('analysis');
    box.replaceChildren();
    for (const line of v.lines) {
      const d = document.createElement('div');
      d.setAttribute('data-move', line.move);
      d.textContent = scoreText(line.score) + '  d' + line.depth + '  ' + line.pv.join(' ');
      box.appendChild(d);
    }
    if (v.lines.length) {
      evals[ply] = firstMoverScore(v.lines[0].score, toMoveIndex());
      drawChart();
      if (v.lines[0].score.kind === 'mate' || v.lines[0].depth < depth) break;
    }
  }
}

function toggleAnalysis() {
  analysing = !analysing;
  $('analyse').setAttribute('aria-pressed', String(analysing));
  $('analyse').textContent = analysing ? 'Stop analysis' : 'Analyse';
  if (analysing) analyse();
  else $('analysis').replaceChildren();
}

async function hint() {
  if (!humanToMove()) return;
  try {
    thinking = true;
    const v = await call('analyse', { depth: 30, multipv: 1, movetime: 1000 });
    thinking = false;
    const best = v.lines[0];
    if (!best) return;
    const m = st.legal.find((x) => x.move === best.move);
    for (const c of document.querySelectorAll('#board .hit')) {
      c.classList.toggle('hint', !!m && m.points.includes(c.getAttribute('data-point')));
    }
    status('best move: ' + best.move + ' (' + scoreText(best.score) + ')');
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
  axis.setAttribute('stroke', '#aaa');
  chart.appendChild(axis);
  const pts = [];
  evals.forEach((v, i) => { if (v !== undefined) pts.push((i / n) * 300 + ',' + (50 - v / 20)); });
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

// PGN as the arena writes it: White is the side named white if there is one, else the first mover.
function pgn() {
  const sides = st.layout.sides.map((s) => s.name);
  const wi = sides.includes('white') ? sides.indexOf('white') : 0;
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const r = st.layout.result;
  let result = '*';
  if (r) {
    if (r.outcome === 'draw') result = '1/2-1/2';
    else result = sideIndex(st.layout, r.outcome) === wi ? '1-0' : '0-1';
  }
  const d = new Date();
  const date = d.getFullYear() + '.' + String(d.getMonth() + 1).padStart(2, '0') + '.' + String(d.getDate()).padStart(2, '0');
  const engine = $('engine-side').value;
  const player = (i) => (engine === 'both' || (engine === 'first' && i === 0) || (engine === 'second' && i === 1)) ? 'tetrad' : 'human';
  const tags = [['Event', 'tetrad gui'], ['Site', '?'], ['Date', date], ['Round', '1'],
    ['White', player(wi)], ['Black', player(1 - wi)], ['Result', result]];
  sides.forEach((s) => { if (cap(s) !== 'White' && cap(s) !== 'Black') tags.push([cap(s), player(sides.indexOf(s))]); });
  tags.push(['Variant', st.game], ['SetUp', '1'], ['FEN', st.start || '']);
  if (r) tags.push(['Termination', r.reason]);
  tags.push(['PlyCount', String(st.moves.length)]);
  const esc = (v) => String(v).replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const tokens = [];
  let number = 1;
  let mover = startMover;
  st.moves.forEach((m, k) => {
    const white = mover === wi;
    if (white) tokens.push(number + '.');
    else if (k === 0) tokens.push(number + '...');
    tokens.push(m);
    if (!white) number++;
    mover = 1 - mover;
  });
  tokens.push(result);
  const lines = [];
  let cur = '';
  for (const t of tokens) {
    if (cur && cur.length + 1 + t.length > 79) { lines.push(cur); cur = t; } else cur = cur ? cur + ' ' + t : t;
  }
  if (cur) lines.push(cur);
  return tags.map(([k, v]) => '[' + k + ' "' + esc(v) + '"]').join('\n') + '\n\n' + lines.join('\n') + '\n\n';
}

function save() {
  const blob = new Blob([pgn()], { type: 'application/x-chess-pgn' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = st.game + '.pgn';
  document.body.appendChild(a);
  a.click();
  a.remove();
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
  $('game').addEventListener('change', () => { showOptions(); newGame(); });
  $('new-game').addEventListener('click', newGame);
  $('undo').addEventListener('click', undo);
  $('flip').addEventListener('click', () => $('board').classList.toggle('flipped'));
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
    if (await act('position', { position: $('position').value })) await engineTurn();
  });
  $('copy-position').addEventListener('click', copyPosition);
  $('save-game').addEventListener('click', save);
  // The engine process ends with the tab.
  window.addEventListener('pagehide', () => {
    navigator.sendBeacon('/api/close', new Blob([JSON.stringify({ tab })], { type: 'application/json' }));
  });
}

start();
