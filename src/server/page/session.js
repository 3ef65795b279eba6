// A game on the server: a new one, the one in the address (reload, another tab), moves, the engine's stream, undo, stop.
'use strict';

// A new game: the old one is deleted first (its search, if any, is cancelled on the server), then the new one's id
// goes into the address (?game=ID), so that a reload or another tab finds it again.
async function newGame() {
  showError();
  stopWatching();
  try {
    const players = [$('player0').value.trim(), $('player1').value.trim()];
    const old = ui.state;
    ui.state = null;
    if (old) await api('DELETE', `/api/games/${old.id}`).catch(() => {});
    $('thinking').querySelector('tbody').textContent = '';
    const body = { game: gameString(), players };
    const tc = $('time-control').value.trim();
    if (tc) body.time_control = tc;
    setState(await api('POST', '/api/games', body));
  } catch (e) { clearGame(true); showError(e); }
}

// The game named in the address (?game=ID or #ID), if any.
function gameInAddress() {
  const q = new URLSearchParams(location.search).get('game') || location.hash.replace(/^#/, '');
  return /^\d+$/.test(q || '') ? q : null;
}

function setAddress(id) {
  const url = new URL(location.href);
  url.hash = '';
  if (id === null) url.searchParams.delete('game'); else url.searchParams.set('game', id);
  if (url.href !== location.href) history.replaceState(null, '', url.href);
}

// A reload or a second tab: the game of the address comes back as the server keeps it (board, moves, status, whose
// turn; a running search is joined, its iterations so far shown), with its game, parameters and players in the form.
async function restore(id) {
  try {
    const st = await api('GET', `/api/games/${id}`);
    const m = st.game.match(/^([^(]+)(?:\((.*)\))?$/);
    if (m && ui.games.some((g) => g.name === m[1])) {
      $('game').value = m[1];
      gameChanged();
      for (const pair of (m[2] || '').split(',')) {
        const [k, v] = pair.split('=');
        const input = document.querySelector(`[data-param="${k}"]`);
        if (input && v !== undefined) input.value = v;
      }
    }
    $('player0').value = st.players[0];
    $('player1').value = st.players[1];
    $('time-control').value = st.clock ? st.clock.time_control : '';
    setState(st);
  } catch (e) {
    setAddress(null);
    showError(e);
  }
}

// Back to a tab after a while: the game as the server has it now (another tab may have moved).
async function refresh() {
  if (!ui.state || ui.source) return;
  try { setState(await api('GET', `/api/games/${ui.state.id}`)); } catch (e) { showError(e); }
}

// No game on the board (the page opens, or a new game was refused): the opening prompt, nothing of a previous game
// clickable.
function clearGame(refused) {
  stopWatching();
  setAddress(null);
  ui.state = null;
  ui.selected = null;
  for (const id of ['moves', 'legal', 'notes', 'display', 'board', 'sides']) $(id).textContent = '';
  $('board').style.display = 'none';
  $('prompt').classList.remove('hidden');
  $('status').textContent = refused ? 'No game: fix the settings above and press New game.' : '';
  $('status').dataset.over = 'no';
  $('record').removeAttribute('href');
}

async function play(move) {
  showError();
  if (!ui.state) return;
  try { setState(await api('POST', `/api/games/${ui.state.id}/move`, { move })); } catch (e) { showError(e); draw(); }
}

function stopWatching() {
  if (ui.source) { ui.source.close(); ui.source = null; }
}

// The engine's move: its iterations as they come, then the new state. While a search runs (a reload, another tab,
// an undo that cancelled the previous one) the same request joins it. The stream ends with the state after the move
// ('done'), the state after an undo or a deletion that cancelled the search ('cancelled'), or an error.
function watchEngine() {
  if (ui.source && ui.source.gameId === ui.state.id) return;
  stopWatching();
  const body = $('thinking').querySelector('tbody');
  body.textContent = '';
  const id = ui.state.id;
  const source = new EventSource(`/api/games/${id}/think`);
  source.gameId = id;
  ui.source = source;
  source.addEventListener('info', (ev) => {
    if (ui.source !== source) return;
    const it = JSON.parse(ev.data);
    const tr = el('tr', { class: 'iteration' });
    for (const v of [it.depth, it.score, it.nodes.toLocaleString('en'), it.nps.toLocaleString('en'), it.pv.join(' ')]) {
      el('td', {}, tr, String(v));
    }
    body.prepend(tr);
  });
  // The server runs a few searches at once (one per core); this one waits its turn, its clock not yet started.
  source.addEventListener('queued', (ev) => {
    if (ui.source !== source) return;
    const q = JSON.parse(ev.data);
    const tr = el('tr', { class: 'queued' });
    el('td', { colspan: '5' }, tr, `waiting for a free core: ${q.ahead} search${q.ahead === 1 ? '' : 'es'} ahead`);
    body.prepend(tr);
  });
  const end = (ev) => {
    source.close();
    if (ui.source !== source) return;
    ui.source = null;
    ui.cuts = 0;
    const st = JSON.parse(ev.data);
    if (ui.state && ui.state.id === st.id) setState(st);
  };
  source.addEventListener('done', end);
  source.addEventListener('cancelled', end);
  source.addEventListener('error', (ev) => {
    source.close();
    if (ui.source !== source) return;
    ui.source = null;
    // The server's one-line error; a stream cut without one (the server went away) leaves the game as it was.
    if (ev.data) showError(JSON.parse(ev.data).error);
    else if ((ui.cuts = (ui.cuts || 0) + 1) <= 3) refresh();
  });
}

// Undo at any moment: while the engine thinks, the server cancels its search and takes back the human's move; the
// stream then ends with 'cancelled' and the board shows the state the undo answered.
async function undo() {
  showError();
  if (!ui.state) return;
  try { setState(await api('POST', `/api/games/${ui.state.id}/undo`)); } catch (e) { showError(e); }
}

async function stop() {
  if (ui.state) api('POST', `/api/games/${ui.state.id}/stop`).catch(showError);
}

// The finished game step by step: its positions from its record (as the Replay tab reads one), kept per game.
