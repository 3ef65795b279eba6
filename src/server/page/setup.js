// The game list, the game's parameters and players (the setup line), the game string, the position analysed.
'use strict';

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
