// plateau's page: the tabs and the wiring of the buttons to the other scripts (core.js first; index.html lists them).
'use strict';

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

// Under a time control, the running clock counts down; at zero the server is asked (a human's flag falls there; an
// engine's move, coming late, ends the game on time when it comes).
setInterval(() => {
  const st = ui.state;
  if (!st || !st.clock || st.result || st.clock.running === null) return;
  const k = st.clock.running;
  const face = document.querySelector(`#sides .clock[data-side="${k}"]`);
  const left = leftMs(st, k);
  if (face) face.textContent = clockText(left);
  if (left <= 0 && ui.flagAsked !== st) {
    ui.flagAsked = st;
    refresh();
  }
}, 100);

window.addEventListener('DOMContentLoaded', () => {
  for (const b of document.querySelectorAll('.tab')) b.onclick = () => showTab(b.dataset.tab);
  $('new-game').onclick = newGame;
  $('prompt-new').onclick = newGame;
  $('banner-new').onclick = newGame;
  $('review-prev').onclick = () => review((ui.review ?? (ui.state ? ui.state.moves.length : 0)) - 1);
  $('review-next').onclick = () => review((ui.review ?? 0) + 1);
  $('review-end').onclick = () => { if (ui.state) review(ui.state.moves.length); };
  $('view-prev').onclick = () => review((ui.review ?? 1) - 1);
  $('view-next').onclick = () => review((ui.review ?? 0) + 1);
  $('view-back').onclick = backToGame;
  $('undo').onclick = () => { if (!bgTakeBack()) undo(); };
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
