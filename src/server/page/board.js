// The board, drawn from the data the game sends (layout, cells, colours), and the pointer input on it.
'use strict';

// An earlier position of the game on show (the board then takes no move).
const viewingEarlier = () => ui.review !== null && ui.review !== undefined;

function draw() {
  if (ui.tab !== 'replay' && ui.review !== null && ui.review !== undefined && ui.reviewed && ui.state &&
      ui.reviewed.id === ui.state.id) {
    const p = ui.reviewed.positions[ui.review];
    if (p) {
      drawBoard(p.board, p.display, {});
      return;
    }
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
  if (board.layout === 'points' && board.tray) { drawBackgammon(svg, board, marks); return; }
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
    const canDrag = ui.tab !== 'replay' && !viewingEarlier() && st && st.human_to_move && st.legal.some((m) => m.from === i);
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
  if (ui.tab === 'replay' || viewingEarlier() || !st || !st.human_to_move) return;
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
