// The Solver panel: a streamed solve of the position, each move's cell as soon as it is proved, Cancel.
'use strict';

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
