// A game's state on the page: who plays, thinking time, the evaluation graph, the move list, the status line, and
// stepping through the moves.
'use strict';

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
    if (st.clock) {
      el('span', { class: 'clock' + (st.clock.running === k ? ' running' : '') + (st.clock.flag === k ? ' fallen' : ''),
        'data-side': k, title: `time left (${st.clock.time_control})` }, span, clockText(leftMs(st, k)));
    }
  }
}

// Under a time control: a side's time left now, the side to move's counting down from the state's `left_ms`.
function leftMs(st, k) {
  const c = st.clock;
  const ms = c.left_ms[k] - (c.running === k ? performance.now() - (ui.stateAt || performance.now()) : 0);
  return Math.max(0, ms);
}

// A clock's face: `4:59`, `9.7` under ten seconds.
function clockText(ms) {
  if (ms < 10000) return (Math.floor(ms / 100) / 10).toFixed(1);
  const s = Math.floor(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

// Whether the moves of a game in progress may be stepped through (not with hidden information: its record would tell).
const canStep = (st) => !!st.result || !(st.kind && st.kind.hidden);

// Backgammon's move list is numbered by turn, as the game writes it: `2. 6-4 24/18 13/9` (the roll, then its move or
// a double's two halves); other games' by pairs of plies.
function moveLabel(st, i, turn) {
  if (st.board && st.board.tray) return st.chance[i] ? `${turn}. ` : '';
  return i % 2 === 0 ? `${i / 2 + 1}. ` : '';
}

function setState(st) {
  // Viewing an earlier position of this game while it goes on: the view stays where it is as moves come in.
  const keep = ui.state && ui.state.id === st.id && !st.result && ui.review !== null && ui.review !== undefined &&
    ui.review < st.moves.length ? ui.review : null;
  ui.state = st;
  ui.stateAt = performance.now();
  ui.selected = null;
  ui.bg = null;
  ui.review = keep;
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
  let turn = 0;
  st.moves.forEach((m, i) => {
    if (st.chance[i]) turn++;
    const span = el('span', { class: (st.chance[i] ? 'move chance' : 'move') + (canStep(st) ? ' clickable' : '') +
      (keep === i + 1 ? ' current' : ''), 'data-ply': i + 1 }, moves, moveLabel(st, i, turn) + m + ' ');
    // A move shows the position after it: during the game without changing it, once over with hidden moves too.
    if (canStep(st)) span.onclick = () => review(i + 1);
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
  if (st.human_to_move && st.board && st.board.tray && st.legal.some((m) => m.move !== 'pass')) {
    status += ': click a checker, then where it goes (or choose a move below the board)';
  } else if (st.human_to_move && st.legal.length && !st.legal.some((m) => m.to !== null && m.to !== undefined)) {
    status += st.board ? ': choose a move below the board' : ': choose a move below';
  }
  $('status').textContent = status;
  showViewing();
  $('status').dataset.over = st.result ? 'yes' : 'no';
  if (!st.result && !st.human_to_move && st.turn !== 'over') watchEngine(); else stopWatching();
}

// A move's position: once the game is over, the finished game step by step (the result banner's arrows); during the
// game, an earlier position shown without changing the game (the viewing line's arrows, 'Back to the game'), the
// move list and the engine going on meanwhile. The positions come from the game's record, as the Replay tab reads one.
async function review(ply) {
  const st = ui.state;
  if (!st || !canStep(st)) return;
  try {
    if (!ui.reviewed || ui.reviewed.id !== st.id || ui.reviewed.count !== st.moves.length) {
      const record = await (await fetch(`/api/games/${st.id}/record`)).text();
      const r = await api('POST', '/api/replay', { record });
      if (ui.state !== st) {
        // A move came meanwhile: the same ply of the newer state.
        if (ui.state && ui.state.id === st.id) review(ply);
        return;
      }
      ui.reviewed = { id: st.id, count: st.moves.length, positions: r.games[0].positions };
    }
    const n = ui.reviewed.positions.length - 1;
    ply = Math.max(0, Math.min(ply, n));
    if (!st.result && ply >= n) { backToGame(); return; }
    ui.review = ply;
    markCurrent();
    if (st.result) $('review-line').textContent = ply === n ? 'The final position.' : `After move ${ply} of ${n}.`;
    showViewing();
    draw();
  } catch (e) { showError(e); }
}

function markCurrent() {
  for (const m of document.querySelectorAll('#moves .move')) {
    m.classList.toggle('current', Number(m.dataset.ply) === ui.review);
  }
}

// The line above the board while an earlier position of a game in progress is shown; the legal moves wait meanwhile.
function showViewing() {
  const st = ui.state;
  const on = !!(st && !st.result && ui.review !== null && ui.review !== undefined);
  $('viewing').classList.toggle('hidden', !on);
  for (const b of document.querySelectorAll('#legal .legal-move')) b.disabled = on;
  if (on) {
    $('viewing-text').textContent = `Viewing the position after move ${ui.review} of ${st.moves.length} ` +
      '(the game goes on).';
  }
}

function backToGame() {
  ui.review = null;
  markCurrent();
  showViewing();
  draw();
}
