// The Compare panel: nodes, leaves, cut-offs and time per algorithm and depth, as a table and a chart.
'use strict';

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
