// A clock for each side: base time plus an increment per move; the engine is told its time
// left, and a side whose clock runs out loses.

import { $, state, status, resultText, toMoveIndex } from './state.js';
import { drawBoard } from './board.js';
import { stopPolling } from './analysis.js';

export function startClock() {
  state.flagged = null;
  const base = Math.round(parseFloat($('clock-base').value) * 1000) || 0;
  const inc = Math.round(parseFloat($('clock-inc').value) * 1000) || 0;
  state.clock = base > 0 ? { base, inc, left: [base, base], running: null, since: 0, moves: 0 } : null;
  drawClocks();
}

export function clockLeft(i) {
  const clock = state.clock;
  if (!clock) return Infinity;
  const running = clock.running === i ? performance.now() - clock.since : 0;
  return clock.left[i] - running;
}

// After each state shown: the side that moved is charged its time and given its increment.
export function clockMoved() {
  const { clock, st } = state;
  if (!clock || state.flagged) return;
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
  const { clock, st } = state;
  $('clocks').hidden = !clock;
  if (!clock || !st || !st.layout) return;
  st.layout.sides.forEach((side, i) => {
    const el = $('clock-' + i);
    el.textContent = side.name + ' ' + clockText(clockLeft(i));
    el.classList.toggle('running', clock.running === i);
  });
}

export function tick() {
  const { clock, st } = state;
  if (!clock || clock.running === null || state.flagged) return;
  const i = clock.running;
  if (clockLeft(i) <= 0) {
    // The flag falls: the other side wins on time, whatever the engine is still thinking.
    state.generation++;
    clock.left[i] = 0;
    clock.running = null;
    state.flagged = { outcome: st.layout.sides[1 - i].name, reason: 'time' };
    stopPolling();
    status('game over: ' + resultText(st.layout));
    drawBoard(st.svg, st.layout, true);
  }
  drawClocks();
}
