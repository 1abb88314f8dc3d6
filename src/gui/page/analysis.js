// The engine's analysis: its best lines as they deepen (streaming), the best move on the board,
// the evaluation over the game (chart) and the evaluation bar beside the board.

import { $, SVG, state, status, result, engineToMove, toMoveIndex, humanToMove } from './state.js';
import { call } from './api.js';
import { markPoints } from './board.js';

// Scores are clamped to this (a mate counts as it): beyond it a position is won or lost.
export const CLAMP = 1000;

export function scoreText(s) {
  return s.kind === 'mate' ? 'mate ' + s.value : (s.value >= 0 ? '+' : '') + (s.value / 100).toFixed(2);
}

// A score from the side to move's view as a number of engine units, mates at the clamp.
export function clamped(s) {
  return s.kind === 'mate' ? Math.sign(s.value || -1) * CLAMP : Math.max(-CLAMP, Math.min(CLAMP, s.value));
}

export function firstMoverScore(s, mover) {
  const v = clamped(s);
  return mover === 0 ? v : -v;
}

function stopPolling() {
  if (state.streamTimer !== null) clearInterval(state.streamTimer);
  state.streamTimer = null;
}

export { stopPolling };

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
    state.evals[ply] = firstMoverScore(v.lines[0].score, toMoveIndex());
    drawChart();
    drawEvalBar();
  }
}

// The engine analyses the current position until told otherwise (any other request to it
// ends the analysis first); the page polls for the latest lines as they deepen.
export async function analyse() {
  stopPolling();
  const st = state.st;
  if (!state.analysing || !st || result(st.layout) || engineToMove()) return;
  const mine = state.generation;
  const ply = st.moves.length;
  try {
    const v = await call('stream_start', { multipv: 3 });
    if (mine !== state.generation || !state.analysing) return;
    showLines(v, ply);
  } catch (e) {
    status(e.message, true);
    return;
  }
  state.streamTimer = setInterval(async () => {
    if (!state.analysing || mine !== state.generation) { stopPolling(); return; }
    if (state.polling) return;
    state.polling = true;
    try {
      const v = await call('stream');
      if (mine === state.generation && state.analysing) showLines(v, ply);
      if (!v.running) stopPolling();
    } catch (e) {
      stopPolling();
      status(e.message, true);
    } finally {
      state.polling = false;
    }
  }, 250);
}

export async function setAnalysing(on) {
  state.analysing = on;
  $('analyse').setAttribute('aria-pressed', String(on));
  $('analyse').textContent = on ? 'Stop analysis' : 'Analyse';
  if (on) {
    analyse();
    return;
  }
  stopPolling();
  $('analysis').replaceChildren();
  try { await call('stream_stop'); } catch (e) { status(e.message, true); }
}

export async function hint() {
  if (!humanToMove()) return;
  try {
    let best = null;
    const shown = $('analysis').firstElementChild;
    if (state.analysing && shown) {
      best = { move: shown.getAttribute('data-move'), text: shown.textContent.split('  ')[0] };
    } else {
      const v = await call('analyse', { depth: 30, multipv: 1, movetime: 1000 });
      if (v.lines[0]) best = { move: v.lines[0].move, text: scoreText(v.lines[0].score) };
    }
    if (!best) return;
    const m = state.st.legal.find((x) => x.move === best.move);
    markPoints(m ? m.points : [], 'hint');
    status('best move: ' + best.move + ' (' + best.text + ')');
  } catch (e) {
    status(e.message, true);
  }
}

// The first mover's score over the game; after a review, each marked move as a dot in its
// mark's colour at the score after it.
export function drawChart() {
  const chart = $('chart');
  chart.replaceChildren();
  const n = Math.max(1, state.st ? state.st.moves.length : 1);
  const y = (v) => 50 - v / 20;
  const axis = document.createElementNS(SVG, 'line');
  axis.setAttribute('x1', 0); axis.setAttribute('x2', 300);
  axis.setAttribute('y1', 50); axis.setAttribute('y2', 50);
  axis.setAttribute('stroke', '#ccc');
  axis.setAttribute('stroke-dasharray', '4 4');
  chart.appendChild(axis);
  const pts = [];
  state.evals.forEach((v, i) => { if (v !== undefined) pts.push((i / n) * 300 + ',' + y(v)); });
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
  const review = state.review;
  if (!review) return;
  review.moves.forEach((m, k) => {
    const v = state.evals[k + 1];
    if (!m.mark || v === undefined) return;
    const dot = document.createElementNS(SVG, 'circle');
    dot.setAttribute('class', 'loss ' + m.mark);
    dot.setAttribute('data-ply', k + 1);
    dot.setAttribute('cx', ((k + 1) / n) * 300);
    dot.setAttribute('cy', y(v));
    dot.setAttribute('r', 3.5);
    const title = document.createElementNS(SVG, 'title');
    title.textContent = (k + 1) + ': ' + m.move + ' ' + m.mark + ', loss ' + m.loss;
    dot.appendChild(title);
    chart.appendChild(dot);
  });
}

// The bar beside the board: the first mover's share of the score at the ply shown (the
// analysis's, the review's, or the engine's own search for the move it played), the first
// mover's colour filling from the bottom.
export function drawEvalBar() {
  const bar = $('eval-bar');
  const on = $('eval-bar-toggle').checked;
  bar.hidden = !on;
  if (!on || !state.st) return;
  const ply = state.viewPly === null ? state.st.moves.length : state.viewPly;
  const v = state.evals[ply];
  const fill = $('eval-bar-fill');
  if (v === undefined) {
    fill.style.height = '50%';
    bar.title = 'no score yet';
    bar.removeAttribute('data-score');
    $('eval-bar-value').textContent = '';
    return;
  }
  const share = 100 / (1 + Math.exp(-0.004 * v));
  fill.style.height = share.toFixed(1) + '%';
  const text = Math.abs(v) >= CLAMP ? (v > 0 ? '+' : '-') + 'won' : (v >= 0 ? '+' : '') + (v / 100).toFixed(2);
  $('eval-bar-value').textContent = text;
  bar.setAttribute('data-score', v);
  bar.title = 'the first mover\'s view: ' + text;
}
