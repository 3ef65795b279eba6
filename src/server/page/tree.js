// The Tree panel: the tree one search algorithm explores, drawn and foldable.
'use strict';

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
