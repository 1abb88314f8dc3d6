// Game review: every position of the game analysed at the chosen time and depth, each move's
// loss (the mover's score before it minus the score after it, from the mover's view, clamped),
// the marks, an accuracy figure per side, and the better move of each marked move. The
// thresholds are docs/gui.md's ("Game review").

import { $, state, status, sideIndex, actions } from './state.js';
import { call } from './api.js';
import { clamped, CLAMP, drawChart, drawEvalBar, setAnalysing } from './analysis.js';
import { markPoints } from './board.js';

// A move's loss (engine units) from which it is marked.
export const THRESHOLDS = [['blunder', 300], ['mistake', 100], ['inaccuracy', 50]];
const SYMBOL = { inaccuracy: '?!', mistake: '?', blunder: '??' };

// The mover's winning chances (0..100) at a score: the logistic curve lichess uses, in the
// engine's units.
function chances(v) {
  return 100 / (1 + Math.exp(-0.004 * v));
}

// A move's accuracy from the chances it lost (lichess's formula), 0..100.
function moveAccuracy(before, after) {
  const lost = Math.max(0, chances(before) - chances(after));
  return Math.max(0, Math.min(100, 103.1668 * Math.exp(-0.04354 * lost) - 3.1669));
}

function reviewSettings() {
  const movetime = Math.max(1, Math.min(60000, parseInt($('review-time').value, 10) || 200));
  const depth = Math.max(1, Math.min(64, parseInt($('review-depth').value, 10) || 64));
  return { movetime, depth };
}

// The score of a position analysed, from its side to move's view; a finished game's last
// position is scored from its result.
function positionScore(p, layout) {
  if (p.lines.length) return clamped(p.lines[0].score);
  const r = layout.result;
  if (!r || r.outcome === 'draw') return 0;
  return r.outcome === p.to_move ? CLAMP : -CLAMP;
}

export async function runReview() {
  const st = state.st;
  if (!st || state.busy) return;
  if (state.analysing) await setAnalysing(false);
  const mine = ++state.generation;
  const { movetime, depth } = reviewSettings();
  const moves = st.moves.slice();
  const total = moves.length + 1;
  const plies = [];
  const started = performance.now();
  $('review').disabled = true;
  try {
    for (let ply = 0; ply < total; ply++) {
      $('review-progress').textContent = ply + '/' + total;
      const t0 = performance.now();
      const a = await call('analyse', { ply, depth, movetime, multipv: 1 });
      if (mine !== state.generation) { status('review stopped'); return; }
      a.ms = performance.now() - t0;
      plies.push(a);
    }
  } catch (e) {
    status(e.message, true);
    return;
  } finally {
    $('review').disabled = false;
  }
  $('review-progress').textContent = total + '/' + total;
  const seconds = (performance.now() - started) / 1000;
  $('review-progress').setAttribute('data-seconds', seconds.toFixed(2));
  finish(moves, plies);
  status('review done: ' + total + ' positions in ' + seconds.toFixed(1) + ' s');
}

function finish(moves, plies) {
  const layout = state.st.layout;
  const scores = plies.map((p) => positionScore(p, layout));
  const sums = [[0, 0], [0, 0]];
  const out = moves.map((move, k) => {
    const before = plies[k];
    const mover = sideIndex(layout, before.to_move);
    const best = before.lines[0] || null;
    const after = -scores[k + 1];
    // The engine's own choice loses nothing, whatever a deeper look after it says.
    const loss = best && best.move === move ? 0 : Math.max(0, scores[k] - after);
    const found = THRESHOLDS.find(([, t]) => loss >= t);
    sums[mover][0] += moveAccuracy(scores[k], Math.min(scores[k], after));
    sums[mover][1] += 1;
    const input = best && before.legal.find((m) => m.move === best.move);
    return {
      move,
      mover,
      loss,
      mark: found ? found[0] : null,
      best: best ? best.move : null,
      bestScore: best ? best.score : null,
      bestPoints: input ? input.points : [],
      comment: comment(best, before.ms),
    };
  });
  // The chart: the first mover's score at every ply.
  state.evals = plies.map((p, k) => {
    const side = sideIndex(layout, p.to_move);
    return side === 0 ? scores[k] : -scores[k];
  });
  const accuracy = sums.map(([sum, n]) => (n ? (sum / n).toFixed(1) : '-'));
  state.review = { moves: out, accuracy };
  $('accuracy-first').textContent = accuracy[0];
  $('accuracy-second').textContent = accuracy[1];
  $('accuracy').hidden = false;
  actions.drawMoves();
  drawChart();
  drawEvalBar();
}

// What the mover's analysis said, as the arena's records write it: `{+0.35/12 0.512s}`.
function comment(best, ms) {
  const time = (ms / 1000).toFixed(ms < 10000 ? 3 : 2) + 's';
  if (!best) return time;
  const s = best.score;
  const score = s.kind === 'mate'
    ? (s.value > 0 ? '+M' : '-M') + Math.abs(s.value)
    : (s.value > 0 ? '+' : s.value < 0 ? '-' : '') + (Math.abs(s.value) / 100).toFixed(2);
  return score + '/' + best.depth + ' ' + time;
}

// The review's marks on a move of the list (`data-loss`, `data-mark`).
export function moveNote(el, ply) {
  const m = state.review && state.review.moves[ply - 1];
  if (!m || m.move !== el.getAttribute('data-move')) return;
  el.setAttribute('data-loss', m.loss);
  el.title = 'loss ' + m.loss;
  if (!m.mark) return;
  el.setAttribute('data-mark', m.mark);
  el.classList.add(m.mark);
  const sym = document.createElement('span');
  sym.className = 'mark';
  sym.textContent = SYMBOL[m.mark];
  el.appendChild(sym);
}

// A marked move selected: the position before it, with the move the engine preferred.
export async function showBetter(ply) {
  const m = state.review.moves[ply - 1];
  const v = await actions.view(ply - 1);
  if (!v && ply - 1 !== state.st.moves.length) return;
  for (const el of document.querySelectorAll('#moves [data-move]')) {
    el.classList.toggle('viewed', el.getAttribute('data-ply') === String(ply));
  }
  markPoints(m.bestPoints, 'better');
  state.betterShown = ply;
  $('better-move').textContent = m.best || '';
  $('better-move').setAttribute('data-ply', ply);
  status(m.move + ' ' + SYMBOL[m.mark] + ' lost ' + m.loss + ': better was ' + (m.best || '?'));
}

export function clearBetter() {
  if (state.betterShown === null) return;
  state.betterShown = null;
  $('better-move').textContent = '';
  $('better-move').removeAttribute('data-ply');
}

// The review's marks and comments, one per move, for the saved record.
export function annotations() {
  const r = state.review;
  if (!r || r.moves.length !== state.st.moves.length) return null;
  if (r.moves.some((m, k) => m.move !== state.st.moves[k])) return null;
  return r.moves.map((m) => ({ mark: m.mark ? SYMBOL[m.mark] : null, comment: m.comment }));
}
