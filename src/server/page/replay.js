// The Replay panel: a match record opened and stepped through.
'use strict';

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
