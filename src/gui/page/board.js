// The board and the hand: the engine's SVG picture with a clickable layer over its points
// (from its board layout), and the hand's buttons with the engine's picture of each piece.

import { $, SVG, state, status, humanToMove, actions } from './state.js';

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

export function parseSvg(text) {
  const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
  return document.importNode(doc.documentElement, true);
}

export function drawBoard(svgText, layout, live) {
  const svg = parseSvg(svgText);
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
export function uprightText() {
  const flipped = $('board').classList.contains('flipped');
  for (const t of document.querySelectorAll('#board svg text')) {
    if (!flipped) { t.removeAttribute('transform'); continue; }
    const b = t.getBBox();
    t.setAttribute('transform', 'rotate(180 ' + (b.x + b.width / 2) + ' ' + (b.y + b.height / 2) + ')');
  }
}

// Marks `points` with class `cls` (the best or the better move), clearing it elsewhere.
export function markPoints(points, cls) {
  for (const c of document.querySelectorAll('#board .hit')) {
    c.classList.toggle(cls, points.includes(c.getAttribute('data-point')));
  }
}

function pointMoves() {
  return state.st.legal.filter((m) => !m.no_points && m.piece === state.sel.piece);
}

function startsWith(points, prefix) {
  return prefix.every((p, i) => points[i] === p);
}

// Marks the chosen points and where the next click may go.
export function highlight() {
  const { sel, st } = state;
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

// A new position: nothing chosen (a piece chosen before was the other position's choice).
export function resetSelection() {
  state.sel = { piece: null, points: [] };
  $('choices').replaceChildren();
  highlight();
}

function handPieces() {
  return [...new Set(state.st.legal.filter((m) => m.piece !== null).map((m) => m.piece))].sort();
}

export function clickPoint(name) {
  if (!humanToMove()) return;
  const sel = state.sel;
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
    actions.play(exact[0].move);
    return;
  }
  // Clicks alone cannot tell these apart (or the move may go on): the player says which.
  for (const m of exact) {
    const b = document.createElement('button');
    b.textContent = m.move;
    b.setAttribute('data-choice', m.move);
    b.addEventListener('click', () => actions.play(m.move));
    $('choices').appendChild(b);
  }
  status(exact.length ? 'choose the move, or click on to go further' : 'click where it goes');
  highlight();
}

// The hand's buttons: one per piece the side to move may take from its hand, each with the
// engine's picture of the piece (`hand_svg`), so that a player sees what it is.
export function drawHand() {
  const st = state.st;
  const hand = $('hand');
  hand.replaceChildren();
  const side = st.layout ? st.layout.to_move : null;
  const pictures = new Map((st.hand || []).filter((h) => h.side === side).map((h) => [h.piece, h.svg]));
  for (const piece of handPieces()) {
    const b = document.createElement('button');
    b.setAttribute('data-piece', piece);
    b.title = piece;
    const picture = pictures.get(piece);
    if (picture) b.appendChild(parseSvg(picture));
    const label = document.createElement('span');
    label.textContent = piece;
    b.appendChild(label);
    b.addEventListener('click', () => {
      if (!humanToMove()) return;
      state.sel = { piece: state.sel.piece === piece ? null : piece, points: [] };
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
    b.addEventListener('click', () => { if (humanToMove()) actions.play(m.move); });
    hand.appendChild(b);
  });
}
