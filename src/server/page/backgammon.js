// Backgammon's board: the 24 points numbered from the side to move's view, the bar, the borne-off trays and the dice;
// a move built by clicking a checker, then where it goes, one step (one die) or one checker's whole journey at a time,
// the game's legal moves deciding what may follow. The board comes as a `points` layout with a `tray` (docs/server.md).
'use strict';

// Sizes in the drawing's units: a point's width, the bar's and the tray's widths, a triangle's height, the middle gap,
// the margin for the point numbers.
const BG = { w: 30, bar: 30, tray: 40, tri: 150, gap: 44, num: 18 };

// The checkers in the mover's numbering: `me[p]`, `opp[p]` for points 1..24 (the mover's 24 -> 1), 25 = on the bar,
// 0 = borne off.
function bgCounts(board) {
  const t = board.tray, mover = t.mover;
  const me = new Array(26).fill(0), opp = new Array(26).fill(0);
  board.cells.forEach((cell, i) => {
    if (!cell.piece || cell.owner === null) return;
    const c = i % 12;
    const x = i < 12 ? 13 + c : 12 - c; // the first player's numbering: 13..24 on top, 12..1 below
    (cell.owner === mover ? me : opp)[mover === 0 ? x : 25 - x] = Number(cell.piece);
  });
  me[25] = t.bar[mover];
  opp[25] = t.bar[1 - mover];
  me[0] = t.off[mover];
  opp[0] = t.off[1 - mover];
  return { me, opp };
}

// A move's text (`24/18*/13 6/off`, `13/11(2)`, `bar/22`) as its checkers' journeys: lists of points, bar = 25, off = 0.
function bgJourneys(text) {
  if (text === 'pass') return [];
  const out = [];
  for (const tok of text.trim().split(/\s+/)) {
    const m = tok.match(/^(.*?)(?:\((\d)\))?$/);
    const pts = m[1].split('/').map((part) => {
      const name = part.replace('*', '');
      return name === 'bar' ? 25 : name === 'off' ? 0 : Number(name);
    });
    for (let k = 0; k < Number(m[2] || 1); k++) out.push(pts);
  }
  return out;
}

// The ways to click a legal move, each a list of steps [from, to] in the mover's numbering: a journey written with its
// landing points (a hit on the way) step by step; one without them in one step, or in two by either die when the
// point in between is open (empty of the opponent's checkers); the journeys in any order.
function bgSequences(text, counts, dice) {
  const alts = bgJourneys(text).map((pts) => {
    const f = pts[0], t = pts[pts.length - 1];
    if (pts.length > 2) return [pts.slice(1).map((q, k) => [pts[k], q])];
    const ways = [[[f, t]]];
    const single = dice.includes(f - t) || (t === 0 && dice.some((d) => d > f));
    if (!single) {
      for (const d of new Set(dice)) {
        const mid = f - d;
        const rest = dice.slice();
        rest.splice(rest.indexOf(d), 1);
        const fits = rest.some((e) => mid - e === t || (t === 0 && e >= mid));
        if (mid > t && mid >= 1 && mid < 25 && counts.opp[mid] === 0 && fits) ways.push([[f, mid], [mid, t]]);
      }
    }
    return ways;
  });
  const orders = (list) => (list.length <= 1 ? [list]
    : list.flatMap((x, i) => orders(list.filter((_, j) => j !== i)).map((rest) => [x].concat(rest))));
  const seqs = new Map();
  for (const order of orders(alts.map((_, i) => i))) {
    let partial = [[]];
    for (const i of order) partial = partial.flatMap((p) => alts[i].map((way) => p.concat(way)));
    for (const s of partial) seqs.set(JSON.stringify(s), s);
  }
  return [...seqs.values()];
}

// The position after the steps clicked so far (a checker landing on a lone opposing one sends it to the bar).
function bgAfter(counts, steps) {
  const me = counts.me.slice(), opp = counts.opp.slice();
  for (const [f, t] of steps) {
    me[f]--;
    me[t]++;
    if (t >= 1 && t <= 24 && opp[t] === 1) { opp[t] = 0; opp[25]++; }
  }
  return { me, opp };
}

// Which of the dice the steps clicked so far used (a step of one die, a bearing off by a larger one, or a journey of
// two dice).
function bgUsed(dice, steps) {
  const used = dice.map(() => false);
  const take = (ok) => {
    const k = dice.findIndex((d, i) => !used[i] && ok(d));
    if (k >= 0) used[k] = true;
    return k >= 0;
  };
  for (const [f, t] of steps) {
    const dist = f - t;
    if (take((d) => d === dist)) continue;
    if (t === 0 && take((d) => d > f)) continue;
    const k = dice.findIndex((d, i) => !used[i] && dice.some((e, j) => j !== i && !used[j] && (d + e === dist ||
      (t === 0 && d + e > f))));
    if (k >= 0) { used[k] = true; take((e) => e === dist - dice[k] || (t === 0 && dice[k] + e > f)); }
  }
  return used;
}

// The move being clicked: the steps so far and the selected point, for the state on the board.
function bgPending(st) {
  if (!ui.bg || ui.bg.id !== st.id || ui.bg.ply !== st.moves.length) {
    ui.bg = { id: st.id, ply: st.moves.length, steps: [], selected: null };
  }
  return ui.bg;
}

function drawBackgammon(svg, board, marks) {
  const t = board.tray, mover = t.mover;
  const st = ui.state;
  const live = !!(marks.legal && st && st.human_to_move && ui.tab !== 'replay');
  const counts = bgCounts(board);
  const pending = live ? bgPending(st) : { steps: [], selected: null };
  const shown = bgAfter(counts, pending.steps);
  // The legal moves still possible after the steps clicked, and what may be clicked next.
  const h = pending.steps.length;
  const key = (s) => JSON.stringify(s);
  const seqs = live ? st.legal.flatMap((m) => bgSequences(m.move, counts, t.dice).map((s) => ({ move: m.move, s })))
    .filter(({ s }) => s.length > h && key(s.slice(0, h)) === key(pending.steps)) : [];
  const sources = new Set(seqs.map(({ s }) => s[h][0]));
  const targets = new Set(seqs.filter(({ s }) => s[h][0] === pending.selected).map(({ s }) => s[h][1]));
  const W = 12 * BG.w + BG.bar + BG.tray, H = 2 * BG.tri + BG.gap + 2 * BG.num;
  svg.setAttribute('viewBox', `0 0 ${W} ${H}`);
  svg.dataset.mover = mover;
  svg.dataset.steps = key(pending.steps);
  const flip = ui.flipped;
  const r = BG.w / 2 - 1;
  const yTop = BG.num, yBottom = BG.num + 2 * BG.tri + BG.gap;
  el('rect', { x: 0, y: BG.num, width: 12 * BG.w + BG.bar, height: 2 * BG.tri + BG.gap, class: 'bg-felt' }, svg);
  // The point of the mover's number m: its column and whether it hangs from the top edge.
  const place = (m) => {
    const x = mover === 0 ? m : 25 - m;
    const col = x >= 13 ? x - 13 : 12 - x;
    return { left: col * BG.w + (col >= 6 ? BG.bar : 0), top: (x >= 13) !== flip };
  };
  const pick = (m) => () => bgClicked(m);
  const stack = (g, cx, edge, down, n, colour) => {
    for (let k = 0; k < Math.min(n, 5); k++) {
      const cy = edge + (down ? 1 : -1) * (r + 1 + 2 * r * k);
      el('circle', { cx, cy, r, fill: colour, class: 'checker' }, g);
      if (k === 4 && n > 5) {
        el('text', { x: cx, y: cy + 4, 'text-anchor': 'middle', class: 'checker-count',
          fill: colour === 'black' ? 'white' : 'black' }, g, String(n));
      }
    }
  };
  for (let m = 1; m <= 24; m++) {
    const { left, top } = place(m);
    const cx = left + BG.w / 2;
    const g = el('g', { class: 'bg-point', 'data-point': m }, svg);
    el('title', {}, g, `point ${m}`);
    el('rect', { x: left, y: top ? yTop : yTop + BG.tri + BG.gap, width: BG.w, height: BG.tri, class: 'bg-hit' }, g);
    const base = top ? yTop : yBottom, tip = top ? yTop + BG.tri - 10 : yBottom - BG.tri + 10;
    let cls = `bg-tri ${m % 2 ? 'odd' : 'even'}`;
    if (targets.has(m)) cls += ' target';
    if (pending.selected === m) cls += ' selected';
    else if (sources.has(m) && pending.selected === null) cls += ' movable';
    el('polygon', { points: `${left},${base} ${left + BG.w},${base} ${cx},${tip}`, class: cls }, g);
    el('text', { x: cx, y: top ? BG.num - 5 : H - 5, 'text-anchor': 'middle', class: 'bg-num' }, g, String(m));
    const mine = shown.me[m], theirs = shown.opp[m];
    if (mine) stack(g, cx, base, top, mine, board.colours[mover]);
    if (theirs) stack(g, cx, base, top, theirs, board.colours[1 - mover]);
    if (targets.has(m)) el('circle', { cx, cy: top ? base + BG.tri * 0.75 : base - BG.tri * 0.75, r: 5, class: 'mark-target' }, g);
    if (live) g.onclick = pick(m);
  }
  // The bar between the halves: each side's checkers there, the first player's on the upper half.
  const barX = 6 * BG.w;
  const bar = el('g', { class: 'bg-bar', 'data-point': 25 }, svg);
  el('title', {}, bar, 'the bar');
  el('rect', { x: barX, y: BG.num, width: BG.bar, height: 2 * BG.tri + BG.gap, class: 'bg-barwood' +
    (pending.selected === 25 ? ' selected' : sources.has(25) && pending.selected === null ? ' movable' : '') }, bar);
  const mid = BG.num + BG.tri + BG.gap / 2;
  for (const side of [0, 1]) {
    const n = side === mover ? shown.me[25] : shown.opp[25];
    if (!n) continue;
    const up = (side === 0) !== flip;
    const cy0 = up ? mid - BG.gap / 2 - r - 1 : mid + BG.gap / 2 + r + 1;
    for (let k = 0; k < Math.min(n, 4); k++) {
      el('circle', { cx: barX + BG.bar / 2, cy: cy0 + (up ? -1 : 1) * 2 * r * k, r, fill: board.colours[side],
        class: 'checker' }, bar);
    }
    el('text', { x: barX + BG.bar / 2, y: cy0 + 4, 'text-anchor': 'middle', class: 'checker-count', 'data-side': side,
      fill: board.colours[side] === 'black' ? 'white' : 'black' }, bar, String(n));
  }
  el('text', { x: barX + BG.bar / 2, y: mid + 4, 'text-anchor': 'middle', class: 'bg-label' }, bar, 'bar');
  if (live) bar.onclick = pick(25);
  // The trays on the right: the checkers borne off, each side's where its home is (the first player's below).
  const trayX = 12 * BG.w + BG.bar + 4;
  const off = el('g', { class: 'bg-off', 'data-point': 0 }, svg);
  el('title', {}, off, 'borne off');
  for (const side of [0, 1]) {
    const low = (side === 0) !== flip;
    const y0 = low ? yTop + BG.tri + BG.gap : yTop;
    el('rect', { x: trayX, y: y0, width: BG.tray - 6, height: BG.tri, class: 'bg-tray' + (targets.has(0) && side === mover ? ' target' : '') }, off);
    const n = side === mover ? shown.me[0] : shown.opp[0];
    for (let k = 0; k < n; k++) {
      const y = low ? y0 + BG.tri - 4 - 9 * k - 7 : y0 + 4 + 9 * k;
      el('rect', { x: trayX + 3, y, width: BG.tray - 12, height: 7, rx: 2, fill: board.colours[side], class: 'checker' }, off);
    }
    el('text', { x: trayX + (BG.tray - 6) / 2, y: low ? y0 - 6 : y0 + BG.tri + 14, 'text-anchor': 'middle',
      class: 'bg-label', 'data-side': side }, off, `${side === 0 ? 'X' : 'O'} off ${n}`);
  }
  if (live) off.onclick = pick(0);
  // The dice in the middle of the mover's half (greyed once a step clicked uses one).
  const dice = t.dice.length ? t.dice : [];
  const used = bgUsed(dice, pending.steps);
  const size = 22;
  const dx0 = 6 * BG.w + BG.bar + (6 * BG.w - dice.length * (size + 6)) / 2;
  const dg = el('g', { class: 'bg-dice' }, svg);
  dice.forEach((d, k) => {
    const x = dx0 + k * (size + 6), y = mid - size / 2;
    const die = el('g', { class: 'die' + (used[k] ? ' used' : ''), 'data-die': d }, dg);
    el('rect', { x, y, width: size, height: size, rx: 4, class: 'die-face' }, die);
    const pipsAt = { 1: [[1, 1]], 2: [[0, 0], [2, 2]], 3: [[0, 0], [1, 1], [2, 2]], 4: [[0, 0], [2, 0], [0, 2], [2, 2]],
      5: [[0, 0], [2, 0], [1, 1], [0, 2], [2, 2]], 6: [[0, 0], [0, 1], [0, 2], [2, 0], [2, 1], [2, 2]] }[d] || [];
    for (const [a, b] of pipsAt) el('circle', { cx: x + 5 + a * 6, cy: y + 5 + b * 6, r: 2.2, class: 'pip' }, die);
  });
  const colour = board.colours[mover];
  const who = `${mover === 0 ? 'X' : 'O'} (${COLOUR_WORDS[colour] || colour})`;
  el('text', { x: 3 * BG.w, y: mid + 4, 'text-anchor': 'middle', class: 'bg-label' }, svg,
    t.dice.length ? `${who} to play` : `${who} to roll`);
  svg.onpointerdown = svg.onpointermove = svg.onpointerup = svg.onpointercancel = null;
}

// A click on a point (1..24), the bar (25) or the trays (0) of the mover's numbering: select a checker that may move,
// or move the selected one there; once the steps make a whole legal move, it is played.
function bgClicked(m) {
  const st = ui.state;
  if (!st || !st.human_to_move || !st.board || !st.board.tray) return;
  const p = bgPending(st);
  const counts = bgCounts(st.board);
  const h = p.steps.length;
  const key = (s) => JSON.stringify(s);
  const seqs = st.legal.flatMap((mv) => bgSequences(mv.move, counts, st.board.tray.dice).map((s) => ({ move: mv.move, s })))
    .filter(({ s }) => s.length > h && key(s.slice(0, h)) === key(p.steps));
  if (p.selected !== null && p.selected !== m) {
    const step = [p.selected, m];
    const next = seqs.filter(({ s }) => key(s[h]) === key(step));
    if (next.length) {
      p.steps.push(step);
      p.selected = null;
      const done = next.find(({ s }) => s.length === h + 1);
      if (done) { ui.bg = null; play(done.move); return; }
      draw();
      return;
    }
  }
  p.selected = p.selected !== m && seqs.some(({ s }) => s[h][0] === m) ? m : null;
  draw();
}

// Take back the steps clicked so far (before the move is sent): true when there were some.
function bgTakeBack() {
  if (!ui.bg || !ui.state || ui.bg.id !== ui.state.id || !(ui.bg.steps.length || ui.bg.selected !== null)) return false;
  ui.bg = null;
  draw();
  return true;
}
