// plateau's page: plain JavaScript over the JSON API (docs/server.md). No framework, no build step.
'use strict';

const $ = (id) => document.getElementById(id);
const SVG = 'http://www.w3.org/2000/svg';
const ui = {
  games: [], game: null, state: null, flipped: false, selected: null, source: null,
  tab: 'play', drag: null, replay: null, replayGame: 0, replayPly: 0,
};

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers['content-type'] = 'application/json';
    opts.body = JSON.stringify(body);
  }
  const res = await fetch(path, opts);
  const text = await res.text();
  let data;
  try { data = JSON.parse(text); } catch (e) { data = { error: text.split('\n')[0] }; }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function showError(e) { $('error').textContent = e ? String(e.message || e) : ''; }

function el(tag, attrs, parent, text) {
  const ns = ['svg', 'rect', 'circle', 'text', 'polygon', 'polyline', 'line', 'g', 'title', 'path'].includes(tag);
  const node = ns ? document.createElementNS(SVG, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// ---- The game list and the game string ----

async function loadGames() {
  const data = await api('GET', '/api/games');
  ui.games = data.games;
  const sel = $('game');
  for (const g of ui.games) el('option', { value: g.name }, sel, g.name + (g.board ? '' : ' (text)'));
  sel.value = 'breakthrough';
  sel.onchange = gameChanged;
  gameChanged();
}

function gameChanged() {
  const g = ui.games.find((x) => x.name === $('game').value);
  ui.game = g;
  const box = $('params');
  box.textContent = '';
  for (const p of g.parameters) {
    const label = el('label', { title: p.description }, box, p.name + ' ');
    el('input', { 'data-param': p.name, value: p.default, size: Math.max(3, p.default.length) }, label);
  }
  const list = $('players');
  list.textContent = '';
  for (const name of ['human'].concat(g.players)) el('option', { value: name }, list);
  const algos = $('algos');
  algos.textContent = '';
  for (const name of g.players) el('option', { value: name }, algos);
  fitInputs(g);
  clearAnalyses();
}

// The tree, table, chart and verdict of another game or position are not left on show.
function clearAnalyses() {
  cancelVerdict();
  for (const id of ['tree', 'tree-summary', 'cmp-table', 'cmp-chart', 'verdict']) $(id).textContent = '';
  ui.tree = null;
}

// The name of a player or algorithm string: `engine` for `engine(time=500ms)`.
const nameOf = (text) => text.trim().split('(')[0].trim();
// Programs started by the server (`uci(...)`, `ugi(...)`) are left as typed: the server says whether it allows them.
const fits = (g, text) => ['human', 'uci', 'ugi'].concat(g.players).includes(nameOf(text));
// The tree and compare panels take the course's search algorithms: those of the game's players that explore a tree.
const SEARCHING = ['random', 'engine', 'mcts', 'pns', 'smmcts', 'determinize', 'ismcts', 'naive'];

// A new game keeps the players and algorithms typed when the game can use them, else the game's own: the default
// `engine(time=500ms)` cannot play matching pennies (simultaneous moves) nor phantom tic-tac-toe (hidden information).
function fitInputs(g) {
  for (const id of ['player0', 'player1']) {
    if (fits(g, $(id).value)) continue;
    const pick = ['engine', 'mcts', 'smmcts', 'ismcts'].find((p) => g.players.includes(p)) || g.players[0];
    $(id).value = pick === 'engine' || pick === 'mcts' ? `${pick}(time=500ms)` : pick;
  }
  const searching = g.players.filter((p) => !SEARCHING.includes(p));
  const tree = $('tree-algo');
  if (!searching.includes(nameOf(tree.value))) tree.value = searching.includes('alphabeta') ? 'alphabeta' : (searching[0] || '');
  const cmp = $('cmp-algos');
  const typed = splitAlgos(cmp.value);
  if (!typed.length || !typed.every((a) => searching.includes(nameOf(a)))) {
    cmp.value = (searching.includes('alphabeta') ? ['minimax', 'alphabeta', 'pvs', 'mtdf'] : searching.slice(0, 4)).join(',');
  }
  const none = searching.length === 0;
  for (const id of ['tree-go', 'cmp-go']) $(id).disabled = none;
  for (const id of ['tree-none', 'cmp-none']) {
    $(id).textContent = none ? `No search algorithm of the course's catalogue applies to ${g.name} ` +
      `(${describeKind(g.kind)}); its players: ${g.players.join(', ')}.` : '';
  }
}

function describeKind(kind) {
  if (kind.simultaneous) return 'simultaneous moves';
  if (kind.hidden) return 'hidden information';
  return kind.chance ? 'chance' : 'perfect information';
}

function gameString() {
  const g = ui.game;
  const changed = [];
  for (const input of document.querySelectorAll('[data-param]')) {
    const p = g.parameters.find((x) => x.name === input.dataset.param);
    if (p && input.value.trim() !== p.default) changed.push(p.name + '=' + input.value.trim());
  }
  return changed.length ? `${g.name}(${changed.join(',')})` : g.name;
}

// The position the analyses look at: the game on the board, or the chosen game's start.
function here() {
  if (ui.state) return { game: ui.state.game, position: ui.state.start, moves: ui.state.moves };
  return { game: gameString(), moves: [] };
}

// ---- Play ----

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
    setState(await api('POST', '/api/games', { game: gameString(), players }));
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

// A side in the game's own words (`Black`, `X`), with its colour where the name does not say it (`X (red)`).
const COLOUR_WORDS = { crimson: 'red', gold: 'yellow', royalblue: 'blue', saddlebrown: 'brown', darkslateblue: 'blue',
  ivory: 'white' };
function sideName(st, k) {
  const name = st.player_names[k] || (k === 0 ? 'First player' : 'Second player');
  if (!st.board) return name;
  const c = st.board.colours[k];
  const word = COLOUR_WORDS[c] || c;
  return name.toLowerCase().includes(word) ? name : `${name} (${word})`;
}

// A thinking time: `42.0 s`, `3:07`.
function clock(ms) {
  const sec = ms / 1000;
  if (sec < 60) return `${sec.toFixed(1)} s`;
  return `${Math.floor(sec / 60)}:${String(Math.floor(sec % 60)).padStart(2, '0')}`;
}

// Each side's thinking time so far: its moves' times, and the move it is thinking about now (counted from the state's
// `thinking_ms` when it came).
function usedMs(st, k) {
  let ms = 0;
  (st.move_ms || []).forEach((t, i) => { if (st.movers && st.movers[i] === k) ms += t; });
  if (!st.result && st.to_move === k) ms += (st.thinking_ms || 0) + (performance.now() - (ui.stateAt || performance.now()));
  return ms;
}

// The engine's evaluation over the game: the value of each engine move (its search's last iteration) from the first
// player's view, the largest value not a proven win at the top (a proven win or loss on the edge), a point per move;
// once the game is over a point steps to the position after its move.
function drawGraph(st) {
  const svg = $('eval-graph');
  svg.textContent = '';
  const pts = (st.values || []).map((v, i) => [i + 1, v]).filter(([, v]) => v !== null && v !== undefined);
  $('eval-box').classList.toggle('hidden', pts.length === 0);
  if (!pts.length) return;
  const W = 400, H = 120, pad = 8, n = Math.max(st.moves.length, 2);
  const proven = (v) => Math.abs(v) >= 990000;
  const scale = Math.max(1, ...pts.map(([, v]) => v).filter((v) => !proven(v)).map(Math.abs));
  const y = (v) => H / 2 - (proven(v) ? Math.sign(v) : v / scale) * (H / 2 - pad);
  const x = (ply) => pad + ((ply - 1) / (n - 1)) * (W - 2 * pad);
  el('rect', { x: 0, y: 0, width: W, height: H / 2, class: 'eval-first' }, svg);
  el('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, class: 'axis' }, svg);
  el('polyline', { points: pts.map(([p, v]) => `${x(p)},${y(v)}`).join(' '), class: 'eval-line' }, svg);
  for (const [p, v] of pts) {
    const dot = el('circle', { cx: x(p), cy: y(v), r: 3.5, class: 'eval-dot' + (st.result ? ' clickable' : ''),
      'data-ply': p }, svg);
    const who = st.movers && st.movers[p - 1] !== null ? sideName(st, st.movers[p - 1]) : '';
    el('title', {}, dot, `move ${p} (${who}, ${st.moves[p - 1]}): ${describe(v)} for ${sideName(st, 0)}`);
    if (st.result) dot.onclick = () => review(p);
  }
  el('text', { x: 4, y: 12, class: 'tick' }, svg, `${sideName(st, 0)} better`);
  el('text', { x: 4, y: H - 4, class: 'tick' }, svg, `${sideName(st, 1)} better`);
}

// A value in words: `+35`, `win in 7` (the engine's convention, game::describe_score).
function describe(v) {
  if (v >= 990000) return `win in ${1000000 - v}`;
  if (v <= -990000) return `loss in ${1000000 + v}`;
  return (v > 0 ? '+' : '') + v;
}

// Who plays which side: a swatch of its colour, its name in the game's words and the player string.
function drawSides(st) {
  const box = $('sides');
  box.textContent = '';
  for (const k of [0, 1]) {
    const span = el('span', { class: 'side' + (st.to_move === k && !st.result ? ' to-move' : ''), 'data-side': k }, box);
    if (st.board) el('span', { class: 'swatch', style: `background:${st.board.colours[k]}` }, span);
    span.appendChild(document.createTextNode(`${sideName(st, k)}: ${st.players[k]}`));
    if (st.move_ms) el('span', { class: 'used', 'data-side': k, title: 'thinking time used' }, span, clock(usedMs(st, k)));
  }
}

function setState(st) {
  ui.state = st;
  ui.stateAt = performance.now();
  ui.selected = null;
  setAddress(st.id);
  $('prompt').classList.add('hidden');
  $('flip').disabled = !!(st.board && !st.board.flip);
  if (st.board && !st.board.flip) ui.flipped = false;
  drawSides(st);
  drawGraph(st);
  $('record').href = `/api/games/${st.id}/record`;
  if (ui.tab !== 'replay') draw();
  const moves = $('moves');
  moves.textContent = '';
  ui.review = null;
  st.moves.forEach((m, i) => {
    const span = el('span', { class: (st.chance[i] ? 'move chance' : 'move') + (st.result ? ' clickable' : ''),
      'data-ply': i + 1 }, moves, (i % 2 === 0 ? `${i / 2 + 1}. ` : '') + m + ' ');
    // Once the game is over, a move shows the position after it (the whole game is known then, hidden moves too).
    if (st.result) span.onclick = () => review(i + 1);
    // Its thinking time and the engine's value, on hover.
    const ms = st.move_ms ? st.move_ms[i] : null, v = st.values ? st.values[i] : null;
    if (!st.chance[i] && ms !== null && ms !== undefined) {
      span.title = clock(ms) + (v !== null && v !== undefined ? `, ${describe(v)} for ${sideName(st, 0)}` : '');
    }
  });
  $('banner').classList.toggle('hidden', !st.result);
  $('banner-text').textContent = st.result ? `Game over: ${st.result.text}.` : '';
  $('review-line').textContent = st.result && st.moves.length ? 'Click a move to see the position after it.' : '';
  const legal = $('legal');
  legal.textContent = '';
  for (const m of st.legal) {
    const b = el('button', { class: 'legal-move', 'data-move': m.move }, legal, m.move);
    b.onclick = () => play(m.move);
  }
  let status;
  if (st.result) status = `Game over: ${st.result.text}.`;
  else if (st.turn === 'simultaneous') status = 'Both players choose at once';
  else {
    status = `${sideName(st, st.to_move)} to move (${st.players[st.to_move]})`;
  }
  if (st.human_to_move && st.legal.length && !st.legal.some((m) => m.to !== null && m.to !== undefined)) {
    status += st.board ? ': choose a move below the board' : ': choose a move below';
  }
  $('status').textContent = status;
  $('status').dataset.over = st.result ? 'yes' : 'no';
  if (!st.result && !st.human_to_move && st.turn !== 'over') watchEngine(); else stopWatching();
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
async function review(ply) {
  const st = ui.state;
  if (!st || !st.result) return;
  try {
    if (!ui.reviewed || ui.reviewed.id !== st.id || ui.reviewed.count !== st.moves.length) {
      const record = await (await fetch(`/api/games/${st.id}/record`)).text();
      const r = await api('POST', '/api/replay', { record });
      ui.reviewed = { id: st.id, count: st.moves.length, positions: r.games[0].positions };
    }
    const n = ui.reviewed.positions.length - 1;
    ui.review = Math.max(0, Math.min(ply, n));
    for (const m of document.querySelectorAll('#moves .move')) {
      m.classList.toggle('current', Number(m.dataset.ply) === ui.review);
    }
    $('review-line').textContent = ui.review === n ? 'The final position.' : `After move ${ui.review} of ${n}.`;
    draw();
  } catch (e) { showError(e); }
}

// ---- The board, drawn from the data the game sends (layout, cells, colours) ----

function draw() {
  if (ui.tab !== 'replay' && ui.review !== null && ui.review !== undefined && ui.reviewed && ui.state &&
      ui.reviewed.id === ui.state.id) {
    const p = ui.reviewed.positions[ui.review];
    drawBoard(p.board, p.display, {});
    return;
  }
  if (ui.tab === 'replay' && ui.replay) {
    const g = ui.replay.games[ui.replayGame];
    const p = g.positions[ui.replayPly];
    drawBoard(p.board, p.display, {});
    return;
  }
  const st = ui.state;
  if (!st) return;
  const marks = { last: st.last, legal: st.legal, selected: ui.selected };
  drawBoard(st.board, st.display, marks);
  $('notes').textContent = st.board ? st.board.notes.join(' · ') : '';
}

function drawBoard(board, display, marks) {
  const svg = $('board');
  svg.textContent = '';
  $('prompt').classList.toggle('hidden', !!(board || display));
  $('display').textContent = board ? '' : display;
  svg.style.display = board ? '' : 'none';
  if (!board) return;
  const { rows, columns } = board;
  const n = rows * columns;
  const size = 400 / Math.max(rows, columns, board.layout === 'points' ? 12 : 1);
  const width = columns * size, height = rows * size;
  // The coordinates in the game's notation around the board, turned with it.
  const c = board.coords || { left: [], bottom: [], top: [] };
  const rev = (a) => a.slice().reverse();
  const coords = !ui.flipped ? c : {
    left: rev(c.left), bottom: c.top.length ? rev(c.top) : rev(c.bottom), top: c.top.length ? rev(c.bottom) : [],
  };
  const m = Math.min(size * 0.45, 22);
  const left = coords.left.length ? m : 0, top = coords.top.length ? m : 0, bottom = coords.bottom.length ? m : 0;
  svg.setAttribute('viewBox', `${-left} ${-top} ${width + left} ${height + top + bottom}`);
  const font = Math.min(size * 0.32, 15);
  coords.left.forEach((t, r) => el('text', { x: -left / 2, y: r * size + size / 2 + font / 3, 'font-size': font,
    'text-anchor': 'middle', class: 'coord coord-left' }, svg, t));
  coords.bottom.forEach((t, k) => el('text', { x: k * size + size / 2, y: height + bottom / 2 + font / 3,
    'font-size': font, 'text-anchor': 'middle', class: 'coord coord-bottom' }, svg, t));
  coords.top.forEach((t, k) => el('text', { x: k * size + size / 2, y: -top / 2 + font / 3, 'font-size': font,
    'text-anchor': 'middle', class: 'coord coord-top' }, svg, t));
  const targets = new Set(), sources = new Set();
  for (const m of marks.legal || []) {
    if (m.from !== null && m.from !== undefined) sources.add(m.from);
    if (marks.selected !== null && marks.selected !== undefined ? m.from === marks.selected : m.from === null) {
      if (m.to !== null && m.to !== undefined) targets.add(m.to);
    }
  }
  if (board.layout === 'columns') {
    el('rect', { x: 0, y: 0, width, height, fill: '#1f4fa8', rx: size / 6 }, svg);
  }
  for (let shown = 0; shown < n; shown++) {
    const i = ui.flipped ? n - 1 - shown : shown;
    const cell = board.cells[i];
    const r = Math.floor(shown / columns), c = shown % columns;
    const x = c * size, y = r * size;
    const g = el('g', { class: 'cell', 'data-cell': i, 'data-name': cell.name }, svg);
    el('title', {}, g, cell.name || '');
    const colour = cell.owner === null ? null : board.colours[cell.owner];
    let cls = 'square';
    const isLast = marks.last && (marks.last.from === i || marks.last.to === i);
    if (isLast) cls += ' last';
    if (marks.selected === i) cls += ' selected';
    if (targets.has(i)) cls += ' target';
    if ((marks.selected === null || marks.selected === undefined) && sources.has(i)) cls += ' movable';
    if (board.layout === 'grid') {
      el('rect', { x, y, width: size, height: size, class: cls + ((r + c) % 2 ? ' dark' : ' light') }, g);
      if (cell.piece) {
        el('text', { x: x + size / 2, y: y + size * 0.72, 'font-size': size * 0.7, class: 'piece', fill: colour,
          stroke: colour === 'white' || colour === 'ivory' ? '#333' : '#999', 'text-anchor': 'middle' }, g, cell.piece);
      }
    } else if (board.layout === 'columns') {
      el('rect', { x, y, width: size, height: size, class: cls + ' slot' }, g);
      el('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.4, fill: colour || '#f4f4f4', class: 'disc' }, g);
    } else if (board.layout === 'pits') {
      el('rect', { x, y, width: size, height: size, class: cls + ' wood' }, g);
      el('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.4, class: 'pit', stroke: colour }, g);
      el('text', { x: x + size / 2, y: y + size * 0.6, 'font-size': size * 0.35, 'text-anchor': 'middle' }, g, cell.piece);
    } else {
      // Backgammon points: triangles from the top and bottom edges.
      el('rect', { x, y, width: size, height: size, class: cls + ' felt' }, g);
      const tip = r === 0 ? y + size * 0.9 : y + size * 0.1;
      const base = r === 0 ? y : y + size;
      el('polygon', { points: `${x},${base} ${x + size},${base} ${x + size / 2},${tip}`, class: c % 2 ? 'point dark' : 'point light' }, g);
      if (cell.piece) {
        el('circle', { cx: x + size / 2, cy: y + size / 2, r: size * 0.3, fill: colour, stroke: '#555' }, g);
        el('text', { x: x + size / 2, y: y + size * 0.6, 'font-size': size * 0.3, 'text-anchor': 'middle',
          fill: colour === 'black' ? 'white' : 'black' }, g, cell.piece);
      }
    }
    // The last move: a frame; a legal target: a dot. Each a dark core in a white halo (contrast on every colour).
    const w = Math.max(size * 0.06, 2);
    if (isLast) {
      const inset = w * 1.5;
      const frame = { x: x + inset, y: y + inset, width: size - 2 * inset, height: size - 2 * inset };
      el('rect', Object.assign({ class: 'mark-halo', 'stroke-width': w * 2.2 }, frame), g);
      el('rect', Object.assign({ class: 'mark-last', 'stroke-width': w }, frame), g);
    }
    if (targets.has(i)) {
      // On a pit the dot sits under the seed count, elsewhere in the middle of the cell.
      const cy = board.layout === 'pits' ? y + size * 0.86 : y + size / 2;
      el('circle', { cx: x + size / 2, cy, r: size * 0.15, class: 'mark-target', 'stroke-width': w * 0.8 }, g);
    }
  }
  wireDrag(svg, board);
}

// Pointer input on the board (mouse, pen or touch): a press and release on the same cell is a click; a press on a
// piece that can move, then a drag, lights its targets and moves the piece with the pointer; releasing it on a lit
// target plays the move, anywhere else puts it back.
function wireDrag(svg, board) {
  const cellAt = (ev) => {
    const hit = document.elementFromPoint(ev.clientX, ev.clientY);
    const g = hit && hit.closest ? hit.closest('#board g.cell') : null;
    return g ? Number(g.dataset.cell) : null;
  };
  svg.onpointerdown = (ev) => {
    const i = cellAt(ev);
    if (i === null || ev.button > 0) return;
    ev.preventDefault();
    const st = ui.state;
    const canDrag = ui.tab !== 'replay' && st && st.human_to_move && st.legal.some((m) => m.from === i);
    ui.drag = { from: i, x: ev.clientX, y: ev.clientY, moving: false, canDrag };
    svg.setPointerCapture(ev.pointerId);
  };
  svg.onpointermove = (ev) => {
    const d = ui.drag;
    if (!d || !d.canDrag) return;
    if (!d.moving && Math.hypot(ev.clientX - d.x, ev.clientY - d.y) < 6) return;
    if (!d.moving) {
      d.moving = true;
      ui.selected = d.from;
      draw();
    }
    // The dragged piece follows the pointer (in the board's own coordinates).
    const m = svg.getScreenCTM().inverse();
    const p0 = new DOMPoint(d.x, d.y).matrixTransform(m), p1 = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m);
    const g = svg.querySelector(`g.cell[data-cell="${d.from}"]`);
    for (const piece of g ? g.querySelectorAll('text, circle') : []) {
      piece.setAttribute('transform', `translate(${p1.x - p0.x},${p1.y - p0.y})`);
      piece.classList.add('dragged');
    }
    if (g && g !== svg.lastChild) svg.appendChild(g); // drawn last: above the other cells
    const over = cellAt(ev);
    for (const r of svg.querySelectorAll('rect.over')) r.classList.remove('over');
    const cell = over === null ? null : svg.querySelector(`g.cell[data-cell="${over}"] rect.target`);
    if (cell) cell.classList.add('over');
  };
  svg.onpointerup = (ev) => {
    const d = ui.drag;
    ui.drag = null;
    if (!d) return;
    const i = cellAt(ev);
    if (!d.moving) {
      if (i !== null) clicked(i, board);
      return;
    }
    const move = i === null ? null : ui.state.legal.find((m) => m.from === d.from && m.to === i);
    ui.selected = null;
    if (move) play(move.move);
    else draw();
  };
  svg.onpointercancel = () => {
    if (ui.drag && ui.drag.moving) { ui.selected = null; draw(); }
    ui.drag = null;
  };
}

// A click: select a piece that can move (its targets light up), or play the move to the clicked cell.
function clicked(i, board) {
  const st = ui.state;
  if (ui.tab === 'replay' || !st || !st.human_to_move) return;
  const legal = st.legal;
  const column = (k) => k % board.columns;
  let move = null;
  if (ui.selected !== null) move = legal.find((m) => m.from === ui.selected && m.to === i);
  if (!move) move = legal.find((m) => (m.from === null || m.from === undefined) && m.to === i);
  if (!move && board.layout === 'columns') {
    move = legal.find((m) => m.to !== null && m.to !== undefined && column(m.to) === column(i));
  }
  if (move) { ui.selected = null; play(move.move); return; }
  ui.selected = legal.some((m) => m.from === i) && ui.selected !== i ? i : null;
  draw();
}

// ---- Tree ----

// The tree as a drawn picture: nodes laid out by depth (one row per ply), each subtree under its parent, edges
// labelled with their move; cut-off nodes red, pruned moves as a red scissors stub, re-searches dashed. Hover a node
// for its window and value; click a node to fold or expand it.
async function drawTree() {
  showError();
  const box = $('tree');
  box.textContent = 'searching...';
  try {
    const t = await api('POST', '/api/tree', Object.assign(here(), {
      algo: $('tree-algo').value.trim(), depth: Number($('tree-depth').value), max_nodes: 2000,
    }));
    $('tree-summary').textContent = `${t.algo}: value ${t.value}, best ${t.best_move || '-'}; ` +
      `${t.nodes} nodes, ${t.leaves} leaves, ${t.cutoffs} cut-offs, ${t.researches} re-searches`;
    const kids = new Map();
    for (const n of t.tree) {
      if (n.parent !== null) {
        if (!kids.has(n.parent)) kids.set(n.parent, []);
        kids.get(n.parent).push(n);
      }
    }
    // Folded at first below depth 2 (the course's trees stay readable; "Expand all" shows everything).
    const depthOf = new Map();
    for (const n of t.tree) depthOf.set(n.id, n.parent === null ? 0 : depthOf.get(n.parent) + 1);
    ui.tree = { t, kids, folded: new Set(t.tree.filter((n) => depthOf.get(n.id) >= 2 && kids.has(n.id)).map((n) => n.id)) };
    box.textContent = '';
    // The root in the middle of the view (a wide tree scrolls sideways).
    box.scrollLeft = Math.max(0, renderTree() - box.clientWidth / 2);
  } catch (e) { box.textContent = ''; $('tree-summary').textContent = ''; ui.tree = null; showError(e); }
}

function num(v) { return v === null ? '?' : Math.abs(v) > 1000000 ? (v > 0 ? '+∞' : '-∞') : String(v); }

const TREE = { w: 58, h: 34, gapX: 8, rowH: 78, pad: 20 };

function renderTree() {
  const { t, kids, folded } = ui.tree;
  const box = $('tree');
  box.textContent = '';
  // Layout: leaves (and folded nodes) take the next slot left to right; a parent sits above its children's middle.
  const pos = new Map();
  let slot = 0, maxDepth = 0;
  const place = (n, depth) => {
    maxDepth = Math.max(maxDepth, depth);
    const children = folded.has(n.id) ? [] : (kids.get(n.id) || []);
    let x;
    if (children.length === 0) {
      x = slot++;
    } else {
      const xs = children.map((c) => place(c, depth + 1));
      x = (xs[0] + xs[xs.length - 1]) / 2;
    }
    pos.set(n.id, { x, depth });
    return x;
  };
  for (const r of t.roots) place(t.tree[r], 0);
  const W = Math.max(1, slot) * (TREE.w + TREE.gapX) + 2 * TREE.pad;
  const H = (maxDepth + 1) * TREE.rowH + TREE.pad;
  const svg = el('svg', { id: 'tree-svg', width: W, height: H, viewBox: `0 0 ${W} ${H}`,
    'data-nodes': t.tree.length }, box);
  const cx = (p) => TREE.pad + p.x * (TREE.w + TREE.gapX) + TREE.w / 2;
  const cy = (p) => TREE.pad / 2 + p.depth * TREE.rowH + TREE.h / 2;
  const edges = el('g', { class: 'edges' }, svg), nodes = el('g', { class: 'nodes' }, svg);
  for (const n of t.tree) {
    const p = pos.get(n.id);
    if (!p) continue;
    if (n.parent !== null && pos.has(n.parent)) {
      const q = pos.get(n.parent);
      el('line', { x1: cx(q), y1: cy(q) + TREE.h / 2, x2: cx(p), y2: cy(p) - TREE.h / 2,
        class: 'edge' }, edges);
      el('text', { x: (cx(q) + 2 * cx(p)) / 3 + 3, y: (cy(q) + 2 * cy(p)) / 3 - 4, class: 'edge-move' }, edges, n.move || '');
    }
    const children = kids.get(n.id) || [];
    let cls = 'tnode';
    if (n.cutoff) cls += ' cut';
    if (n.leaf) cls += ' leaf';
    if (n.research) cls += ' research';
    if (folded.has(n.id)) cls += ' folded';
    const g = el('g', { class: cls, 'data-node': n.id, 'data-children': children.length }, nodes);
    el('title', {}, g, `${n.move || 'root'}: value ${num(n.value)}, window [${num(n.alpha)}, ${num(n.beta)}]` +
      (n.type ? `, Knuth-Moore type ${n.type}` : '') +
      (n.pruned ? `, ${n.pruned} moves pruned` + (n.pruned_moves && n.pruned_moves.length ? `: ${n.pruned_moves.join(' ')}` : '') : '') +
      (children.length ? (folded.has(n.id) ? ` (click to expand ${children.length} children)` : ' (click to fold)') : ''));
    el('rect', { x: cx(p) - TREE.w / 2, y: cy(p) - TREE.h / 2, width: TREE.w, height: TREE.h, rx: 5 }, g);
    el('text', { x: cx(p), y: cy(p) - 3, 'text-anchor': 'middle', class: 'tvalue' }, g, num(n.value));
    el('text', { x: cx(p), y: cy(p) + 11, 'text-anchor': 'middle', class: 'twindow' }, g,
      `[${num(n.alpha)},${num(n.beta)}]`);
    if (folded.has(n.id)) {
      el('text', { x: cx(p), y: cy(p) + TREE.h / 2 + 12, 'text-anchor': 'middle', class: 'tmore' }, g, `+${children.length}`);
    }
    if (n.pruned) {
      // The moves never searched: a short red stub under the node, with their count.
      const x = cx(p) + TREE.w / 2 - 6, y = cy(p) + TREE.h / 2;
      el('line', { x1: x, y1: y, x2: x + 10, y2: y + 16, class: 'edge pruned' }, g);
      el('text', { x: x + 12, y: y + 20, class: 'tpruned' }, g, `✂${n.pruned}`);
    }
    if (children.length) {
      g.style.cursor = 'pointer';
      g.addEventListener('click', () => {
        if (folded.has(n.id)) folded.delete(n.id); else folded.add(n.id);
        renderTree();
      });
    }
  }
  return t.roots.length ? cx(pos.get(t.tree[t.roots[0]].id)) : 0;
}

function foldTree(fold) {
  if (!ui.tree) return;
  const { t, kids, folded } = ui.tree;
  folded.clear();
  if (fold) for (const r of t.roots) for (const c of kids.get(t.tree[r].id) || []) if (kids.has(c.id)) folded.add(c.id);
  renderTree();
}

// ---- Compare ----

function parseDepths(text) {
  const out = [];
  for (const part of text.split(',')) {
    const m = part.trim().match(/^(\d+)\s*\.\.=?\s*(\d+)$/);
    if (m) for (let d = Number(m[1]); d <= Number(m[2]); d++) out.push(d);
    else if (part.trim()) out.push(Number(part.trim()));
  }
  return out;
}

function splitAlgos(text) {
  const out = [];
  let depth = 0, cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) { out.push(cur.trim()); cur = ''; } else cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

async function compare() {
  showError();
  $('cmp-table').textContent = 'searching...';
  try {
    const algos = splitAlgos($('cmp-algos').value);
    const depths = parseDepths($('cmp-depths').value);
    const r = await api('POST', '/api/compare', Object.assign(here(), { algos, depths }));
    const table = el('table', { class: 'compare' });
    const head = el('tr', {}, el('thead', {}, table));
    for (const h of ['depth', 'algorithm', 'value', 'best', 'nodes', 'leaves', 'cut-offs', 're-searches', 'ms']) el('th', {}, head, h);
    const body = el('tbody', {}, table);
    for (const row of r.rows) {
      const tr = el('tr', {}, body);
      const cells = [row.depth, row.algo, row.score, row.best_move || '-', row.nodes.toLocaleString('en') + (row.stopped ? ' (stopped)' : ''),
        row.leaves.toLocaleString('en'), row.cutoffs, row.researches, (row.seconds * 1000).toFixed(1)];
      for (const c of cells) el('td', {}, tr, String(c));
    }
    $('cmp-table').textContent = '';
    $('cmp-table').appendChild(table);
    if (r.cut_short) el('p', { class: 'note' }, $('cmp-table'), 'cut short: the table has a 30 s ceiling; the cells after it were not searched');
    chart(r.rows, algos, depths);
  } catch (e) { $('cmp-table').textContent = ''; $('cmp-chart').textContent = ''; showError(e); }
}

// Nodes per depth, one line per algorithm, on a log scale.
function chart(rows, algos, depths) {
  const svg = $('cmp-chart');
  svg.textContent = '';
  const W = 520, H = 300, L = 60, B = 30, T = 10, R = 130;
  const max = Math.max(...rows.map((r) => r.nodes), 10);
  const top = Math.ceil(Math.log10(max));
  const x = (d) => L + (depths.length > 1 ? (depths.indexOf(d) / (depths.length - 1)) : 0.5) * (W - L - R);
  const y = (v) => H - B - (Math.log10(Math.max(v, 1)) / top) * (H - B - T);
  el('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, class: 'axis' }, svg);
  el('line', { x1: L, y1: T, x2: L, y2: H - B, class: 'axis' }, svg);
  for (let k = 0; k <= top; k++) el('text', { x: L - 5, y: y(10 ** k) + 4, 'text-anchor': 'end', class: 'tick' }, svg, `1e${k}`);
  for (const d of depths) el('text', { x: x(d), y: H - B + 16, 'text-anchor': 'middle', class: 'tick' }, svg, String(d));
  const colours = ['#d62728', '#1f77b4', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
  algos.forEach((a, k) => {
    const pts = rows.filter((r) => r.algo === a).map((r) => `${x(r.depth)},${y(r.nodes)}`).join(' ');
    el('polyline', { points: pts, fill: 'none', stroke: colours[k % 8], 'stroke-width': 2 }, svg);
    el('text', { x: W - R + 8, y: T + 14 + 16 * k, fill: colours[k % 8], class: 'tick' }, svg, a);
  });
}

// ---- Solver ----

// The solve in progress: its AbortController (Cancel, another position or a new solve abort it: the server's solver
// stops when the stream closes).
const solving = { ctrl: null };

function cancelVerdict() {
  if (solving.ctrl) solving.ctrl.abort();
}

// One move's cell: the move, what was proved (win/loss/draw and the distance in plies when known, Connect Four's
// score), or '?' with the reason in its title.
function verdictCell(grid, m) {
  let cell = grid.querySelector(`[data-move="${CSS.escape(m.move)}"]`);
  if (!cell) cell = el('div', { 'data-move': m.move }, grid);
  cell.textContent = '';
  cell.className = `vcell ${m.result || 'unknown'}`;
  el('span', { class: 'vmove' }, cell, m.move);
  const pending = m.result === 'pending';
  const known = m.result && m.result !== 'unknown' && !pending;
  let text = known ? m.result : pending ? '…' : '?';
  if (known && m.plies !== undefined && m.plies !== null) text += ` ${m.plies}`;
  if (m.score !== undefined && m.score !== null) el('span', { class: 'vscore' }, cell, (m.score > 0 ? '+' : '') + m.score);
  el('span', { class: 'vvalue' }, cell, text);
  const from = { book: 'from the exact opening book', solver: 'solved now', end: 'the game ends',
    mirror: `as its mirror image ${m.mirror_of || ''}` }[m.source] || '';
  cell.title = pending ? `${m.move}: being solved` : known
    ? `${m.move}: ${m.result}` + (m.plies ? ` in ${m.plies} plies` : '') + (from ? ` (${from})` : '')
    : `${m.move}: not proven (${m.why === 'stopped' ? 'the solve was stopped' : 'its budget ran out'})`;
  return cell;
}

// The cells in board order for numbered moves (Connect Four's columns, as Pons's page shows them).
function sortCells(grid) {
  const cells = [...grid.children];
  if (cells.every((c) => /^\d+$/.test(c.dataset.move))) {
    cells.sort((x, y) => Number(x.dataset.move) - Number(y.dataset.move));
    for (const c of cells) grid.appendChild(c);
  }
}

async function verdict() {
  showError();
  cancelVerdict();
  const box = $('verdict');
  box.textContent = '';
  const status = el('p', { class: 'verdict-status' }, box, 'solving...');
  const bar = el('progress', { class: 'verdict-progress', max: 1, value: 0 }, box);
  const grid = el('div', { class: 'verdict-moves' }, box);
  const ctrl = new AbortController();
  solving.ctrl = ctrl;
  $('verdict-cancel').disabled = false;
  const t0 = performance.now();
  const seen = { done: 0, total: 0, stage: '' };
  const show = () => {
    const secs = ((performance.now() - t0) / 1000).toFixed(0);
    status.textContent = `solving... ${seen.total ? `${seen.done} of ${seen.total} moves, ` : ''}${secs} s` +
      (seen.stage ? ` (${seen.stage})` : '');
    if (seen.total) { bar.max = seen.total; bar.value = seen.done; }
  };
  const tick = setInterval(show, 250);
  try {
    const res = await fetch('/api/verdict', {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...here(), stream: true }), signal: ctrl.signal,
    });
    if (!res.ok) {
      const text = await res.text();
      let data;
      try { data = JSON.parse(text); } catch (e) { data = { error: text.split('\n')[0] }; }
      throw new Error(data.error || res.statusText);
    }
    const reader = res.body.getReader();
    const dec = new TextDecoder();
    let buf = '', v = null;
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      buf += dec.decode(value, { stream: true });
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, i).trim();
        buf = buf.slice(i + 1);
        if (!line) continue;
        const e = JSON.parse(line);
        if (e.event === 'queued') seen.stage = `waiting for ${e.ahead} other job(s)`;
        else if (e.event === 'moves') {
          seen.total = e.moves.length;
          for (const m of e.moves) verdictCell(grid, { move: m, result: 'pending' });
          sortCells(grid);
        }
        else if (e.event === 'stage') seen.stage = e.stage;
        else if (e.event === 'move') {
          seen.done = e.done; seen.total = e.total;
          verdictCell(grid, e.cell);
          sortCells(grid);
        } else if (e.event === 'error') throw new Error(e.error);
        else if (e.event === 'verdict') v = e.verdict;
        show();
      }
    }
    if (!v) throw new Error('the solve ended without a verdict');
    bar.remove();
    let words = v.result ? `${v.result}` + (v.score !== undefined && v.score !== null ? ` (score ${v.score})` : '') +
      (v.plies !== undefined && v.plies !== null ? ` in ${v.plies} plies` : '') : 'not decided';
    if (!v.result && v.unknown_moves) {
      words += (v.at_least !== null && v.at_least !== undefined ? `; the position scores at least ${v.at_least}` : '');
    }
    const n = v.moves ? v.moves.length : 0;
    status.textContent = `${v.solver}: ${words}; best move ${v.best_move || '-'}. ${v.decided} of ${n} moves ` +
      `proven in ${v.seconds.toFixed(1)} s` + (v.stopped ? ' (stopped: cancelled or the time ceiling)' : '') + '.';
    grid.textContent = '';
    for (const m of v.moves || []) verdictCell(grid, m);
    sortCells(grid);
  } catch (e) {
    if (e.name === 'AbortError') {
      bar.remove();
      status.textContent = `cancelled after ${((performance.now() - t0) / 1000).toFixed(1)} s: ` +
        `${seen.done} of ${seen.total || '?'} moves were proven (shown below)`;
    } else { box.textContent = ''; showError(e); }
  } finally {
    clearInterval(tick);
    if (solving.ctrl === ctrl) { solving.ctrl = null; $('verdict-cancel').disabled = true; }
  }
}

// ---- Replay ----

async function openReplay() {
  showError();
  try {
    const file = $('replay-file').files[0];
    const text = file ? await file.text() : $('replay-text').value;
    ui.replay = await api('POST', '/api/replay', { record: text });
    const sel = $('replay-game');
    sel.textContent = '';
    ui.replay.games.forEach((g, k) => el('option', { value: k }, sel, `${g.round}: ${g.game} ${g.result}`));
    ui.replayGame = 0;
    replayTo(0);
  } catch (e) { showError(e); }
}

function replayTo(ply) {
  if (!ui.replay) return;
  const g = ui.replay.games[ui.replayGame];
  ui.replayPly = Math.max(0, Math.min(ply, g.moves.length));
  $('replay-ply').max = g.moves.length;
  $('replay-ply').value = ui.replayPly;
  const last = ui.replayPly ? g.moves[ui.replayPly - 1] : 'start';
  $('replay-info').textContent = `ply ${ui.replayPly}/${g.moves.length} (${last}); ${g.result} ${g.termination}`;
  draw();
}

// ---- Tournament: the operator's tournaments (plateau serve --tournament), polled while the tab is open ----

// `pressing`: a pointer is down in the panel; the poll does not redraw it then (a button replaced between the press
// and the release would lose its click).
const tour = { timer: null, pressing: false, shown: null };

async function loadTournaments() {
  try {
    const data = await api('GET', '/api/tournaments');
    const sel = $('tour-pick');
    const keep = sel.value;
    sel.textContent = '';
    for (const t of data.tournaments) {
      el('option', { value: t.id }, sel, `${t.id}: ${t.name}${t.game ? ' (' + t.game + ')' : ''}`);
    }
    if (keep && data.tournaments.some((t) => String(t.id) === keep)) sel.value = keep;
    $('tour-none').textContent = data.tournaments.length ? ''
      : 'No tournament to show: start the server with --tournament RESULTS_FILE,RECORD_FILE (docs/server.md).';
    await showTournament();
  } catch (e) { showError(e); }
}

async function showTournament() {
  const n = $('tour-pick').value;
  if (!n) return;
  try {
    const v = await api('GET', `/api/tournaments/${n}`);
    // Redrawn only when something changed (the buttons stay put once the tournament is over).
    const text = JSON.stringify(v);
    if (!tour.pressing && text !== tour.shown) {
      tour.shown = text;
      renderTournament(v);
    }
  } catch (e) {
    $('tour-head').textContent = String(e.message || e);
  }
}

const signed = (x, digits) => (x === null || x === undefined ? '-' : (x > 0 ? '+' : '') + x.toFixed(digits));

function renderTournament(v) {
  const head = $('tour-head');
  head.textContent = '';
  for (const id of ['tour-ratings', 'tour-playing', 'tour-cross', 'tour-games']) $(id).textContent = '';
  $('tour-progress').value = v.games ? v.finished / v.games : 0;
  if (!v.tournament) {
    head.textContent = 'Waiting for the tournament: its results file is not written yet.';
    return;
  }
  el('div', {}, head, `${v.game}: ${v.schedule} of ${v.players.length} players (${v.time_control}); openings: ${v.openings}`);
  const state = v.running ? `running, ${v.playing.length} in progress`
    : (v.finished === v.games ? 'over' : 'not running (stopped: --resume continues it)');
  el('div', { id: 'tour-count' }, head, `${v.finished} of ${v.games} games finished: ${state}`);
  // Ratings
  const rt = $('tour-ratings');
  const hr = el('tr', {}, el('thead', {}, rt));
  for (const h of ['#', 'name', 'elo', '±95%', 'games', 'points', 'score', 'los', 'failures']) {
    el('th', h === 'name' ? { class: 'name' } : {}, hr, h);
  }
  const rb = el('tbody', {}, rt);
  for (const r of v.standings) {
    const tr = el('tr', {}, rb);
    el('td', {}, tr, r.rank);
    el('td', { class: 'name' }, tr, r.name);
    el('td', {}, tr, signed(r.elo, 1));
    el('td', {}, tr, r.elo_error === null ? '-' : r.elo_error.toFixed(1));
    el('td', {}, tr, r.games);
    el('td', {}, tr, r.points);
    el('td', {}, tr, (100 * r.score).toFixed(1) + '%');
    el('td', {}, tr, r.los_next === null ? '' : (100 * r.los_next).toFixed(1) + '%');
    el('td', {}, tr, r.failures || '');
  }
  // Games in progress
  const pl = $('tour-playing');
  if (!v.playing.length) {
    const why = v.running ? 'None right now.' : (v.finished === v.games ? 'None: the tournament is over.'
      : 'None: the tournament is not running.');
    el('p', { class: 'none' }, pl, why);
  }
  for (const g of v.playing) {
    const last = g.moves.slice(-6).join(' ');
    const b = el('button', { class: 'live', 'data-game': g.id, title: 'its position now, on the board' }, pl,
      `game ${g.id}: ${g.white} - ${g.black}, ${g.moves.length} plies${last ? ': ... ' + last : ''}`);
    b.onclick = () => openTournamentGame(g.id, true);
  }
  // Crosstable, in ranking order
  const names = v.standings.map((r) => r.name);
  const pair = new Map();
  for (const p of v.crosstable) {
    pair.set(p.a + '\t' + p.b, [p.points_a, p.games]);
    pair.set(p.b + '\t' + p.a, [p.games - p.points_a, p.games]);
  }
  const ct = $('tour-cross');
  const ch = el('tr', {}, el('thead', {}, ct));
  el('th', {}, ch, '');
  el('th', { class: 'name' }, ch, '');
  names.forEach((n, k) => el('th', { title: n }, ch, k + 1));
  const cb = el('tbody', {}, ct);
  names.forEach((a, k) => {
    const tr = el('tr', {}, cb);
    el('td', {}, tr, k + 1);
    el('td', { class: 'name' }, tr, a);
    for (const b of names) {
      if (a === b) { el('td', { class: 'self' }, tr, ''); continue; }
      const c = pair.get(a + '\t' + b);
      el('td', { title: `${a} against ${b}` }, tr, c ? `${c[0]}/${c[1]}` : '.');
    }
  });
  // Finished games, the latest first; each replays on the board
  const box = $('tour-games');
  for (const r of v.results.slice().reverse()) {
    const b = el('button', { class: 'tour-game', 'data-game': r.id, title: r.termination }, box,
      `#${r.id} ${r.white} ${r.result} ${r.black}`);
    if (v.replayable) b.onclick = () => openTournamentGame(r.id);
    else b.disabled = true;
  }
}

async function openTournamentGame(id, now) {
  showError();
  try {
    ui.replay = await api('GET', `/api/tournaments/${$('tour-pick').value}/games/${id}`);
    const sel = $('replay-game');
    sel.textContent = '';
    ui.replay.games.forEach((g, k) => el('option', { value: k }, sel, `${g.round}: ${g.game} ${g.result}`));
    ui.replayGame = 0;
    ui.replayPly = 0; // the tab draws at once: not at a ply of the game shown before (which may be longer)
    showTab('replay');
    replayTo(now ? 1e9 : 0);
  } catch (e) { showError(e); }
}

// ---- Wiring ----

function showTab(tab) {
  ui.tab = tab;
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.tab === tab);
  for (const p of document.querySelectorAll('.panel')) p.classList.toggle('hidden', p.id !== 'panel-' + tab);
  clearInterval(tour.timer);
  // The tournament view needs no board nor game setup: its tables take the whole width.
  document.body.classList.toggle('tab-tournament', tab === 'tournament');
  if (tab === 'tournament') {
    tour.shown = null;
    loadTournaments();
    tour.timer = setInterval(() => { if (!document.hidden) showTournament(); }, 1000);
  }
  draw();
}

// The side to move's thinking time, counted on the page between states.
setInterval(() => {
  const st = ui.state;
  if (!st || st.result || st.to_move === null || st.to_move === undefined) return;
  const span = document.querySelector(`#sides .used[data-side="${st.to_move}"]`);
  if (span) span.textContent = clock(usedMs(st, st.to_move));
}, 500);

window.addEventListener('DOMContentLoaded', () => {
  for (const b of document.querySelectorAll('.tab')) b.onclick = () => showTab(b.dataset.tab);
  $('new-game').onclick = newGame;
  $('prompt-new').onclick = newGame;
  $('banner-new').onclick = newGame;
  $('review-prev').onclick = () => review((ui.review ?? (ui.state ? ui.state.moves.length : 0)) - 1);
  $('review-next').onclick = () => review((ui.review ?? 0) + 1);
  $('review-end').onclick = () => { if (ui.state) review(ui.state.moves.length); };
  $('undo').onclick = undo;
  $('stop').onclick = stop;
  $('flip').onclick = () => { ui.flipped = !ui.flipped; draw(); };
  $('tree-go').onclick = drawTree;
  $('tree-open').onclick = () => foldTree(false);
  $('tree-fold').onclick = () => foldTree(true);
  $('cmp-go').onclick = compare;
  $('verdict-go').onclick = verdict;
  $('verdict-cancel').onclick = cancelVerdict;
  $('replay-go').onclick = openReplay;
  $('replay-game').onchange = () => { ui.replayGame = Number($('replay-game').value); replayTo(0); };
  $('replay-first').onclick = () => replayTo(0);
  $('replay-prev').onclick = () => replayTo(ui.replayPly - 1);
  $('replay-next').onclick = () => replayTo(ui.replayPly + 1);
  $('replay-last').onclick = () => replayTo(1e9);
  $('replay-ply').oninput = () => replayTo(Number($('replay-ply').value));
  $('tour-pick').onchange = showTournament;
  $('panel-tournament').addEventListener('pointerdown', () => { tour.pressing = true; });
  window.addEventListener('pointerup', () => { tour.pressing = false; });
  window.addEventListener('pointercancel', () => { tour.pressing = false; });
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refresh(); });
  loadGames().then(() => {
    const id = gameInAddress();
    if (id) return restore(id);
    clearGame();
  }).catch(showError);
});
