// Records: the engine writes them (`game_record`, its format and tags are the engine's
// business) and reads them (`load_record`); the page names the players and the day, adds the
// review's marks and comments, and hands over a pasted or chosen file's text.

import { $, state, status, actions } from './state.js';
import { call } from './api.js';
import { annotations } from './review.js';
import { startClock } from './clock.js';

export async function save() {
  const engine = $('engine-side').value;
  const player = (i) => (engine === 'both' || (engine === 'first' && i === 0) || (engine === 'second' && i === 1)) ? 'tetrad' : 'human';
  const d = new Date();
  const date = d.getFullYear() + '.' + String(d.getMonth() + 1).padStart(2, '0') + '.' + String(d.getDate()).padStart(2, '0');
  const body = { players: [player(0), player(1)], date };
  if (state.clock) body.time_control = state.clock.base / 1000 + '+' + state.clock.inc / 1000;
  const notes = annotations();
  if (notes) body.annotations = notes;
  try {
    const r = await call('record', body);
    const a = document.createElement('a');
    a.href = URL.createObjectURL(new Blob([r.text], { type: 'text/plain' }));
    a.download = state.st.game + (notes ? '-review' : '') + '.' + r.extension;
    document.body.appendChild(a);
    a.click();
    a.remove();
    // The test hooks: what was saved last.
    $('save-game').setAttribute('data-record', r.text);
    $('save-game').setAttribute('data-file', a.download);
    $('record').value = r.text;
    status('saved ' + a.download);
  } catch (e) {
    status(e.message, true);
  }
}

// The record in `#record` set up by the engine; the page then stands at its start, to step
// through it (two people at the board: the engine does not move on its own).
export async function loadRecord() {
  const text = $('record').value;
  if (!text.trim()) { status('paste a record, or choose a file', true); return; }
  state.generation++;
  try {
    const s = await call('load_record', { record: text });
    actions.forgetGame();
    $('engine-side').value = 'none';
    startClock();
    if ($('game').value !== s.game) $('game').value = s.game;
    actions.show(s);
    status('loaded ' + s.moves.length + ' moves of ' + s.game);
  } catch (e) {
    status(e.message, true);
  }
}

export function chooseFile(input) {
  const file = input.files && input.files[0];
  if (!file) return;
  file.text().then((text) => { $('record').value = text; loadRecord(); });
}
