// Each game's own options (as the engine says which they are), shown with that game only.

import { $, state } from './state.js';

export function buildOptions() {
  const box = $('game-options');
  box.replaceChildren();
  for (const o of state.st.options) {
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
export function showOptions(fresh) {
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

export function gameOptions() {
  const out = {};
  for (const el of document.querySelectorAll('#game-options [data-option]')) {
    if (el.closest('.option').hidden) continue;
    out[el.getAttribute('data-option')] = el.type === 'checkbox' ? String(el.checked) : el.value;
  }
  return out;
}
