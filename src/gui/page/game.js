// The game: showing the server's state, the move list (numbered as the engine's records number
// moves), playing, the engine's turns, new games, taking back, looking back.

import { $, state, status, resultText, toMoveIndex, engineToMove, engineSide, actions } from './state.js';
import { call } from './api.js';
import { drawBoard, drawHand, resetSelection } from './board.js';
import { clockMoved, clockLeft, startClock } from './clock.js';
import { analyse, drawChart, drawEvalBar, firstMoverScore } from './analysis.js';
import { moveNote, clearBetter, showBetter } from './review.js';
import { gameOptions } from './options.js';

export function show(s) {
  state.st = s;
  state.viewPly = null;
  if (s.moves.length === 0) state.startMover = toMoveIndex();
  clearBetter();
  clockMoved();
  $('position').value = s.position || '';
  drawBoard(s.svg, s.layout, true);
  drawHand();
  drawMoves();
  resetSelection();
  drawChart();
  drawEvalBar();
  const r = resultText(s.layout);
  if (r) status('game over: ' + r);
  else status(s.layout.to_move + ' to move' + (engineToMove() ? ' (engine thinking)' : ''));
}

// The side whose moves carry the numbers: the one called white where there is one, else the
// first mover, as the engine's records have it.
function numberedSide(layout) {
  const white = layout.sides.findIndex((s) => s.name === 'white');
  return white >= 0 ? white : 0;
}

// `1. c3-d4 f6-e5`: a number before each of the numbered side's moves (`1...` when the other
// side begins), each move an element with `data-move`.
export function drawMoves() {
  const { st } = state;
  const list = $('moves');
  list.replaceChildren();
  const numbered = numberedSide(st.layout);
  let mover = state.startMover;
  let number = 1;
  st.moves.forEach((m, i) => {
    if (mover === numbered || i === 0) {
      const num = document.createElement('span');
      num.className = 'num';
      num.textContent = number + '.';
      list.appendChild(num);
      if (mover !== numbered) {
        const gap = document.createElement('span');
        gap.className = 'gap';
        gap.textContent = '…';
        list.appendChild(gap);
      }
    }
    const el = document.createElement('span');
    el.className = 'move';
    el.textContent = m;
    el.setAttribute('data-move', m);
    el.setAttribute('data-ply', i + 1);
    el.addEventListener('click', () => selectMove(i + 1));
    if (state.viewPly === i + 1) el.classList.add('viewed');
    moveNote(el, i + 1);
    list.appendChild(el);
    if (mover !== numbered) number++;
    mover = 1 - mover;
  });
  list.scrollTop = list.scrollHeight;
}

// A move clicked in the list: the position after it, or, for a move the review marked, the
// position before it with the better move shown.
async function selectMove(ply) {
  const note = state.review && state.review.moves[ply - 1];
  if (note && note.mark) {
    await showBetter(ply);
    return;
  }
  await view(ply);
}

export async function act(action, body = {}) {
  try {
    show(await call(action, body));
    return true;
  } catch (e) {
    status(e.message, true);
    return false;
  }
}

export async function play(move) {
  state.generation++;
  $('choices').replaceChildren();
  if (await act('play', { move })) await engineTurn();
}

export async function engineTurn() {
  const mine = state.generation;
  while (engineToMove() && mine === state.generation) {
    state.busy = true;
    try {
      const movetime = Math.max(1, Math.min(60000, parseInt($('movetime').value, 10) || 500));
      const body = { movetime };
      if (state.clock) body.clock = { left: Math.max(1, Math.round(clockLeft(toMoveIndex()))), base: state.clock.base };
      const mover = toMoveIndex();
      const s = await call('engine', body);
      if (mine !== state.generation) return;
      // The engine's own search scores the position its move leaves, until an analysis does.
      if (s.search) state.evals[s.moves.length] = firstMoverScore(s.search.score, mover);
      show(s);
    } catch (e) {
      status(e.message, true);
      return;
    } finally {
      state.busy = false;
    }
  }
  if (state.analysing) analyse();
}

export function forgetGame() {
  state.evals = [];
  state.review = null;
  $('review-progress').textContent = '';
  $('accuracy-first').textContent = '';
  $('accuracy-second').textContent = '';
  $('better-move').textContent = '';
}

export async function newGame() {
  state.generation++;
  forgetGame();
  const game = $('game').value;
  startClock();
  if (await act('new', { game, options: gameOptions() })) await engineTurn();
}

export async function undo() {
  state.generation++;
  if (state.busy) return;
  // Against the engine, take back to the player's own turn.
  const side = engineSide();
  const times = side === 'none' || side === 'both' ? 1 : 2;
  for (let i = 0; i < times && state.st.moves.length > 0; i++) {
    if (!(await act('undo'))) break;
    if (!engineToMove()) break;
  }
  state.evals.length = Math.min(state.evals.length, state.st.moves.length + 1);
  state.review = null;
  drawMoves();
  drawChart();
  if (state.analysing) analyse();
}

export async function view(ply) {
  const st = state.st;
  if (ply < 0 || ply > st.moves.length) return null;
  clearBetter();
  if (ply === st.moves.length) { show(st); return null; }
  try {
    const v = await call('view', { ply });
    state.viewPly = ply;
    drawBoard(v.svg, v.layout, false);
    $('position').value = v.position;
    drawMoves();
    drawEvalBar();
    status('looking at the position after ' + ply + ' moves (>| returns)');
    return v;
  } catch (e) {
    status(e.message, true);
    return null;
  }
}

Object.assign(actions, { play, view, drawMoves, show, forgetGame });
