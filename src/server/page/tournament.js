// The Tournament view: the operator's tournaments (plateau serve --tournament), polled while the tab is open.
'use strict';

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
