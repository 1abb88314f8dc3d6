// The page's one state object: everything that changes lives here, so that each module reads
// and writes the same picture of the game. Nothing here knows a game: the engine says it all.

export const $ = (id) => document.getElementById(id);
export const SVG = 'http://www.w3.org/2000/svg';

export const state = {
  tab: null,          // the server's id for this tab
  st: null,           // the last state from the server
  sel: { piece: null, points: [] }, // the clicks so far of a move being entered
  viewPly: null,      // a past ply being looked at, or null for the current position
  generation: 0,      // bumped by every user action, so stale engine replies are dropped
  busy: false,        // the engine is making a move
  pending: 0,         // requests under way
  analysing: false,   // the streaming analysis is on
  evals: [],          // per ply: the first mover's score (engine units, clamped), from analyses
  startMover: 0,      // index of the side to move at the start of the record
  streamTimer: null,  // polls the engine's streaming analysis while it runs
  polling: false,
  clock: null,        // {base, inc, left: [ms, ms], running: side index or null, since, moves}
  flagged: null,      // {outcome, reason} once a clock has run out
  review: null,       // the last review: {plies, moves, ...} (review.js)
  betterShown: null,  // the ply whose better move the board shows
};

// The game's actions, filled in by game.js: the modules below it call them through here, so
// that the module graph has no cycle (a browser may stall loading a cyclic graph).
export const actions = {};

export function status(text, error = false) {
  $('status').textContent = text;
  $('status').classList.toggle('error', error);
}

export function sideIndex(layout, name) {
  return Math.max(0, layout.sides.findIndex((s) => s.name === name));
}

export function result(layout) {
  return (layout && layout.result) || state.flagged;
}

// The result as the board's caption words it: who won and why.
export function resultText(layout) {
  const r = result(layout);
  if (!r) return null;
  return r.outcome === 'draw' ? 'draw (' + r.reason + ')' : r.outcome + ' wins (' + r.reason + ')';
}

export function toMoveIndex() {
  const st = state.st;
  return st && st.layout ? sideIndex(st.layout, st.layout.to_move) : 0;
}

export function engineSide() {
  return $('engine-side').value;
}

export function engineToMove() {
  const st = state.st;
  if (!st || !st.layout || result(st.layout)) return false;
  const side = engineSide();
  const i = toMoveIndex();
  return side === 'both' || (side === 'first' && i === 0) || (side === 'second' && i === 1);
}

export function humanToMove() {
  const st = state.st;
  return st && state.viewPly === null && !state.busy && !engineToMove() && !result(st.layout);
}
