// The page knows no game: the board is the engine's SVG picture, the clickable points come from
// its board layout, and a move is whatever the engine's legal-move list says the clicks spell.
// The modules share one state object (state.js); this one opens the tab and wires the controls
// (main.js loads it last).

import { $, state, status, toMoveIndex } from './state.js';
import { call, closeTab } from './api.js';
import { uprightText, clickPoint } from './board.js';
import { show, act, engineTurn, newGame, undo, view, forgetGame } from './game.js';
import { setAnalysing, hint, drawEvalBar } from './analysis.js';
import { runReview } from './review.js';
import { save, loadRecord, chooseFile } from './records.js';
import { startClock, tick } from './clock.js';
import { buildOptions, showOptions } from './options.js';

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

async function start() {
  try {
    const s = await call('open');
    state.tab = s.tab;
    for (const g of s.games) $('game').add(new Option(g, g, false, g === s.game));
    state.st = s;
    buildOptions();
    show(s);
  } catch (e) {
    status('cannot start: ' + e.message, true);
    return;
  }
  const on = (id, f) => $(id).addEventListener('click', f);
  $('game').addEventListener('change', () => { showOptions(true); newGame(); });
  on('new-game', newGame);
  on('undo', undo);
  on('flip', () => { $('board').classList.toggle('flipped'); $('eval-bar').classList.toggle('flipped'); uprightText(); });
  $('engine-side').addEventListener('change', () => { state.generation++; engineTurn(); });
  on('nav-first', () => view(0));
  on('nav-prev', () => view((state.viewPly === null ? state.st.moves.length : state.viewPly) - 1));
  on('nav-next', () => { if (state.viewPly !== null) view(state.viewPly + 1); });
  on('nav-last', () => view(state.st.moves.length));
  on('analyse', () => setAnalysing(!state.analysing));
  on('hint', hint);
  on('review', runReview);
  $('eval-bar-toggle').addEventListener('change', drawEvalBar);
  on('load-position', async () => {
    state.generation++;
    forgetGame();
    startClock();
    if (await act('position', { position: $('position').value })) await engineTurn();
  });
  on('copy-position', copyPosition);
  on('save-game', save);
  on('load-record', loadRecord);
  $('record-file').addEventListener('change', () => chooseFile($('record-file')));
  setInterval(tick, 100);
  window.addEventListener('pagehide', closeTab);
}

// For tests that drive the page (docs/gui.md, "Test hooks"): the state, and whether the page
// has stopped waiting for answers.
window.tetrad = {
  state,
  idle: () => state.st !== null && !state.busy && state.pending === 0,
  toMoveIndex,
  clickPoint,
};

start();
