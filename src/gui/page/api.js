// Every request to the server goes through one function, `window.tetradCall`: JSON in, and the
// launch token (the page URL's `token` parameter) in the `X-Tetrad-Token` header.

import { state } from './state.js';

const token = new URLSearchParams(window.location.search).get('token');

export async function tetradCall(action, object = {}) {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers['X-Tetrad-Token'] = token;
  const res = await fetch('/api/' + action, { method: 'POST', headers, body: JSON.stringify(object) });
  const text = await res.text();
  let body = text;
  if ((res.headers.get('Content-Type') || '').includes('json')) {
    try { body = JSON.parse(text); } catch (e) { body = text; }
  }
  return { status: res.status, body };
}
window.tetradCall = tetradCall;

// An action of this tab: its answer, or an Error with the server's reason.
export async function call(action, body = {}) {
  state.pending++;
  let r;
  try {
    r = await tetradCall(action, Object.assign({ tab: state.tab }, body));
  } finally {
    state.pending--;
  }
  if (r.status < 200 || r.status >= 300) {
    throw new Error((r.body && r.body.error) || String(r.body) || 'HTTP ' + r.status);
  }
  return r.body;
}

// The engine process ends with the tab (a beacon cannot carry headers: a keepalive fetch can).
export function closeTab() {
  const headers = { 'Content-Type': 'application/json' };
  if (token) headers['X-Tetrad-Token'] = token;
  try {
    fetch('/api/close', { method: 'POST', headers, body: JSON.stringify({ tab: state.tab }), keepalive: true });
  } catch (e) { /* the page is going anyway */ }
}
