// A full Breakthrough 5x5 game played by drags and clicks against the engine, in a real headless chromium (run.sh starts the
// server and passes its address). Checks that the thinking panel fills, that the tree view opens and folds, and saves
// screenshots under target/e2e/.
import { newGame, start } from './common.mjs';

const { shots, fail, browser, open } = await start('play');
const { page, errors } = await open(1280, 900, { game: 'breakthrough' });
// The page opens on a prompt, not a blank board.
if (!(await page.isVisible('#prompt')) || !(await page.textContent('#prompt')).includes('New game')) fail('no opening prompt');

// Breakthrough 5x5 (two rows of pawns each), the human White against the engine.
await page.fill('[data-param="rows"]', '5');
await page.fill('[data-param="columns"]', '5');
await page.fill('#player0', 'human');
await page.fill('#player1', 'engine(time=100ms)');
await page.click('#new-game');
await page.waitForSelector('#board g.cell[data-name="a1"]');
await page.screenshot({ path: `${shots}/start.png` });

let clicks = 0, drags = 0, sawThinking = false;
for (let turn = 0; turn < 60; turn++) {
  // Wait until the game is over or a human move is possible.
  await page.waitForFunction(() => {
    const s = document.getElementById('status');
    return s.dataset.over === 'yes' || document.querySelectorAll('.legal-move').length > 0;
  }, null, { timeout: 30000 });
  if (await page.getAttribute('#status', 'data-over') === 'yes') break;
  if (await page.locator('#thinking tbody tr').count() > 0) sawThinking = true;
  // Prefer a move that goes forward with the most advanced pawn: click its square, then a lit target.
  const moves = await page.$$eval('.legal-move', (bs) => bs.map((b) => b.dataset.move));
  const best = moves.slice().sort((a, b) => Number(b[3]) - Number(a[3]) || (a < b ? -1 : 1))[0];
  const from = best.slice(0, 2), to = best.slice(2, 4);
  const before = await page.$$eval('.move', (ms) => ms.length);
  if (turn % 2 === 0) {
    // Every other move by dragging the piece with the mouse (pointer events): its targets light up while it moves.
    const a = await page.locator(`#board g.cell[data-name="${from}"] rect.square`).boundingBox();
    const b = await page.locator(`#board g.cell[data-name="${to}"] rect.square`).boundingBox();
    await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
    await page.mouse.down();
    await page.mouse.move((a.x + b.x) / 2 + a.width / 2, (a.y + b.y) / 2 + a.height / 2, { steps: 4 });
    if (await page.locator('#board rect.target').count() === 0) fail(`no target lit while dragging ${from}`);
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 });
    if (turn === 0) await page.screenshot({ path: `${shots}/drag.png` });
    await page.mouse.up();
    drags += 1;
  } else {
    await page.click(`#board g.cell[data-name="${from}"]`);
    if (await page.locator('#board rect.target').count() === 0) fail(`no target lit after clicking ${from}`);
    await page.click(`#board g.cell[data-name="${to}"]`);
    clicks += 2;
  }
  await page.waitForFunction((n) => document.querySelectorAll('.move').length > n, before, { timeout: 30000 });
}
const status = await page.textContent('#status');
if (!status.startsWith('Game over')) fail(`the game did not end: ${status}`);
if (!sawThinking) fail('the thinking panel never showed an iteration');
if (drags === 0 || clicks === 0) fail(`moves by drag ${drags}, by click ${clicks}: both are needed`);
await page.screenshot({ path: `${shots}/end.png` });
// The evaluation graph: a point per engine move (the engine played about half the moves), within the page's width;
// each side's thinking time used; a point steps to the position after its move.
const playedMoves = await page.locator('#moves .move').count();
const dots = await page.locator('#eval-graph circle.eval-dot').count();
if (!(await page.isVisible('#eval-graph')) || dots < playedMoves / 2 - 1 || dots > playedMoves / 2 + 1) {
  fail(`the evaluation graph shows ${dots} points for ${playedMoves} moves`);
}
const used = await page.$$eval('#sides .used', (us) => us.map((u) => u.textContent));
if (used.length !== 2 || !used.every((u) => /^\d/.test(u))) fail(`thinking times: ${JSON.stringify(used)}`);
const graphBox = await page.locator('#eval-graph').boundingBox();
if (!graphBox || graphBox.x + graphBox.width > 1280) fail('the evaluation graph leaves the page');
const dotPly = await page.getAttribute('#eval-graph circle.eval-dot >> nth=1', 'data-ply');
await page.click('#eval-graph circle.eval-dot >> nth=1', { force: true });
await page.waitForFunction((p) => document.getElementById('review-line').textContent.startsWith(`After move ${p} of`),
  dotPly);
await page.locator('#eval-box').screenshot({ path: `${shots}/eval-graph.png` });
await page.click('#review-end');
await page.waitForFunction(() => document.getElementById('review-line').textContent === 'The final position.');
console.log(`evaluation graph: ${dots} points for ${playedMoves} moves; thinking time ${used.join(' / ')}`);
// The result banner; the finished game's moves step through its positions.
if (!(await page.isVisible('#banner')) || !(await page.textContent('#banner-text')).startsWith('Game over')) {
  fail('no result banner');
}
const pieces = () => page.$$eval('#board g.cell text.piece', (ts) => ts.length);
const finalPieces = await pieces();
await page.click('#moves .move >> nth=0');
await page.waitForFunction(() => document.getElementById('review-line').textContent.startsWith('After move 1 of'));
if (await pieces() !== 20) fail(`after move 1 the board shows ${await pieces()} pawns, not 20`);
await page.click('#review-next');
await page.waitForFunction(() => document.getElementById('review-line').textContent.startsWith('After move 2 of'));
await page.screenshot({ path: `${shots}/review.png` });
await page.click('#review-end');
await page.waitForFunction(() => document.getElementById('review-line').textContent === 'The final position.');
if (await pieces() !== finalPieces) fail('the final position is not back');

// Undo goes back to a position where White moves; then the tree view of that position.
await page.click('#undo');
await page.waitForFunction(() => document.getElementById('status').dataset.over === 'no');
await page.click('.tab[data-tab="tree"]');
await page.fill('#tree-algo', 'alphabeta');
await page.fill('#tree-depth', '2');
await page.click('#tree-go');
await page.waitForSelector('#tree svg g.tnode', { timeout: 30000 });
const total = Number(await page.getAttribute('#tree svg', 'data-nodes'));
const shown = await page.locator('#tree svg g.tnode').count();
if (shown < 3) fail(`the tree picture shows ${shown} nodes`);
await page.click('#tree-open');
const nodes = await page.locator('#tree svg g.tnode').count();
if (nodes !== total) fail(`expand all draws ${nodes} of ${total} nodes`);
if (await page.locator('#tree svg line.edge').count() < nodes - 1) fail('the tree picture lacks edges');
// Clicking a node with children folds it: fewer nodes drawn, the node marked folded.
const inner = page.locator('#tree svg g.tnode:not([data-children="0"])').nth(1);
const id = await inner.getAttribute('data-node');
await inner.click();
const afterFold = await page.locator('#tree svg g.tnode').count();
if (afterFold >= nodes) fail(`clicking node ${id} did not fold it (${afterFold} of ${nodes} nodes drawn)`);
if (await page.locator(`#tree svg g.tnode.folded[data-node="${id}"]`).count() !== 1) fail('the folded node is not marked');
await page.click(`#tree svg g.tnode[data-node="${id}"]`);
if (await page.locator('#tree svg g.tnode').count() !== nodes) fail('clicking the folded node did not expand it');
await page.screenshot({ path: `${shots}/tree.png` });

// The compare table and its chart.
await page.click('.tab[data-tab="compare"]');
await page.fill('#cmp-algos', 'minimax,alphabeta');
await page.fill('#cmp-depths', '1..2');
await page.click('#cmp-go');
await page.waitForSelector('table.compare tbody tr', { timeout: 30000 });
if (await page.locator('#cmp-chart polyline').count() !== 2) fail('the chart has no line per algorithm');
await page.screenshot({ path: `${shots}/compare.png` });

// Games that survive. Undo within a second of a 5 s search: the search is cancelled, the human's move taken back,
// the board playable again at once (no error, no hang).
await page.click('.tab[data-tab="play"]');
await page.fill('#player1', 'engine(time=5s)');
await page.click('#new-game');
await page.waitForSelector('.legal-move');
const moveCount = () => page.$$eval('.move', (ms) => ms.length);
await page.click('.legal-move >> nth=0');
await page.waitForFunction(() => document.querySelectorAll('.move').length === 1);
await page.waitForSelector('#thinking tbody tr', { timeout: 10000 });
const t0 = Date.now();
await page.click('#undo');
await page.waitForFunction(() => document.querySelectorAll('.move').length === 0 &&
  document.querySelectorAll('.legal-move').length > 0, null, { timeout: 3000 });
if (await page.textContent('#error')) fail('undo while thinking: ' + await page.textContent('#error'));
const undoMs = Date.now() - t0;
// Stop while it thinks: the engine's move arrives at once.
await page.click('.legal-move >> nth=0');
await page.waitForSelector('#thinking tbody tr', { timeout: 10000 });
await page.click('#stop');
await page.waitForFunction(() => document.querySelectorAll('.move').length === 2, null, { timeout: 4000 });
// A reload while the engine thinks: the game comes back from the address (?game=ID) and the engine's move arrives.
await page.fill('#player1', 'engine(time=1500ms)');
const before = page.url();
await page.click('#new-game');
// The new game's id in the address (the previous game's board and legal moves stay until the server answers).
await page.waitForFunction((old) => location.href !== old && document.querySelectorAll('.move').length === 0 &&
  document.querySelectorAll('.legal-move').length > 0, before);
const url = page.url();
if (!/[?&]game=\d+/.test(url)) fail(`the game is not in the address: ${url}`);
await page.click('.legal-move >> nth=0');
await page.waitForFunction(() => document.querySelectorAll('.move').length === 1);
await page.reload();
await page.waitForFunction(() => document.querySelectorAll('.move').length === 2, null, { timeout: 10000 });
if (page.url() !== url) fail(`the reload changed the address: ${page.url()}`);
if (await page.inputValue('[data-param="rows"]') !== '5') fail('the restored game lost its parameters');
if (await page.inputValue('#player1') !== 'engine(time=1500ms)') fail('the restored game lost its players');
const restoredStatus = await page.textContent('#status');
if (!/to move/.test(restoredStatus)) fail(`restored status: ${restoredStatus}`);
if (await page.locator('#board g.cell[data-name="a1"]').count() !== 1) fail('the restored board is not drawn');
// A second tab on the same address shows the same game.
const tab = await browser.newPage({ viewport: { width: 1280, height: 900 } });
await tab.goto(url);
await tab.waitForFunction(() => document.querySelectorAll('.move').length === 2, null, { timeout: 10000 });
if (await tab.textContent('#status') !== restoredStatus) fail('the second tab shows another status');
await tab.close();
await page.screenshot({ path: `${shots}/restored.png` });
console.log(`undo while thinking: ${undoMs} ms; reload and a second tab restored the game`);

// The solver panel on the empty Connect Four board: all seven columns scored at once (the embedded start book), as
// Pascal Pons's solver scores them.
await page.click('.tab[data-tab="play"]');
await page.selectOption('#game', 'connect_four');
await page.click('#new-game');
await page.waitForSelector('#board g.cell');
await page.click('.tab[data-tab="verdict"]');
await page.click('#verdict-go');
await page.waitForFunction(() => document.querySelector('.verdict-status')?.textContent.includes('proven in'), null,
  { timeout: 30000 });
const scores = await page.$$eval('.verdict-moves .vcell', (ts) => ts.map((t) => `${t.dataset.move}:${t.querySelector('.vscore')?.textContent}`));
if (scores.join(' ') !== '1:-2 2:-1 3:0 4:+1 5:0 6:-1 7:-2') fail(`Connect Four's empty board: ${scores.join(' ')}`);
await page.screenshot({ path: `${shots}/verdict.png` });

// Another kind of game: the default engine cannot play matching pennies (simultaneous moves), so choosing it puts
// its own player in the box; the tree and compare panels say that no catalogue algorithm applies.
await page.click('.tab[data-tab="play"]');
await page.selectOption('#game', 'matching_pennies');
if (!(await page.inputValue('#player1')).startsWith('smmcts')) fail('the second player does not fit matching pennies');
if (!(await page.isDisabled('#tree-go')) || !(await page.textContent('#tree-none')).includes('No search algorithm')) {
  fail('the tree panel offers a search on matching pennies');
}
await page.click('#new-game');
await page.waitForSelector('.legal-move[data-move="h"]', { timeout: 30000 });
if (await page.textContent('#error')) fail('matching pennies: ' + await page.textContent('#error'));
// A refused new game leaves nothing of the previous one to click.
await page.fill('[data-param="rounds"]', 'banana');
await page.click('#new-game');
await page.waitForFunction(() => document.getElementById('error').textContent.includes('banana'));
if (await page.locator('.legal-move').count() !== 0) fail('a refused new game left the old moves clickable');
// From a game with no catalogue search to a dice game: the compare list becomes the dice game's algorithms.
await page.selectOption('#game', 'backgammon');
if (await page.inputValue('#cmp-algos') !== 'expectimax,star1,star2') fail('compare list for backgammon: ' + await page.inputValue('#cmp-algos'));
if (await page.isDisabled('#cmp-go')) fail('compare stays disabled on backgammon');
// Boards people know, on a phone (390 px) and a wide screen: coordinates in the notation, the sides in the game's
// words, marks with a contrast of 3:1 or more (WCAG AA for graphics) against the cell under them, no sideways scroll.
const lum = (css) => {
  const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => v / 255)
    .map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const contrast = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
const BOARDS = [
  ['breakthrough', ['a', 'h', '1', '8'], ['White', 'Black']],
  ['chess', ['a', 'h', '1', '8'], ['White', 'Black']],
  ['othello', ['a', 'h', '1', '8'], ['Black', 'White']],
  ['connect_four', ['1', '7'], ['X (red)', 'O (yellow)']],
  ['oware', ['A', 'F', 'a', 'f'], ['South (brown)', 'North (blue)']],
];
let checkedMarks = 0;
for (const [w, h] of [[390, 844], [1366, 900]]) {
  await page.setViewportSize({ width: w, height: h });
  for (const [game, labels, sides] of BOARDS) {
    await newGame(page, game);
    // The new game's board (the previous one stays until the server answers).
    await page.waitForFunction((g) => {
      const st = document.getElementById('status').textContent;
      return location.search.includes('game=') && document.querySelectorAll('.move').length === 0 &&
        st.includes('to move') && document.getElementById('game').value === g && !document.getElementById('banner').offsetParent;
    }, game);
    await page.waitForFunction((n) => document.getElementById('sides').textContent.includes(n), sides[0]);
    const coords = await page.$$eval('#board text.coord', (ts) => ts.map((t) => t.textContent));
    for (const l of labels) if (!coords.includes(l)) fail(`${game}: coordinate ${l} missing (${coords.join(' ')})`);
    const said = await page.textContent('#sides');
    for (const name of sides) if (!said.includes(name)) fail(`${game}: side '${name}' not named (${said})`);
    if (!(await page.textContent('#status')).startsWith(sides[0])) fail(`${game}: status ${await page.textContent('#status')}`);
    if ((await page.isDisabled('#flip')) !== (game === 'connect_four')) fail(`${game}: the Flip button`);
    // One move (the last-move frame), then the targets of the second player's first piece that can move.
    await page.click('.legal-move >> nth=0');
    await page.waitForFunction(() => document.querySelectorAll('.move').length === 1);
    const from = await page.$$eval('.legal-move', (bs) => bs.length);
    if (from && game !== 'connect_four' && game !== 'oware' && game !== 'othello') {
      const src = await page.$eval('#board rect.movable', (r) => r.parentNode.dataset.name);
      await page.click(`#board g.cell[data-name="${src}"]`);
    }
    const pairs = await page.$$eval('#board .mark-last, #board .mark-target', (ms) => ms.map((m) => {
      const under = m.parentNode.querySelector('rect.square');
      const disc = m.parentNode.querySelector('circle.disc');
      const bg = getComputedStyle(disc || under).fill;
      const core = m.classList.contains('mark-last') ? getComputedStyle(m).stroke : getComputedStyle(m).fill;
      return [m.getAttribute('class'), core, bg === 'none' || bg.includes('0, 0, 0, 0') ? 'rgb(31, 79, 168)' : bg];
    }));
    if (!pairs.some((p) => p[0] === 'mark-last')) fail(`${game}: no last-move mark`);
    if (!pairs.some((p) => p[0] === 'mark-target')) fail(`${game}: no legal target marked`);
    for (const [cls, core, bg] of pairs) {
      // The dark core, or the white halo around it, stands out from the cell by 3:1.
      const best = Math.max(contrast(core, bg), contrast('rgb(255, 255, 255)', bg));
      if (best < 3) fail(`${game}: ${cls} ${core} on ${bg}: contrast ${best.toFixed(2)}`);
      checkedMarks += 1;
    }
    const over = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    if (over > 0) fail(`${game} at ${w} px: ${over} px of horizontal scroll`);
    const box = await page.locator('#board').boundingBox();
    if (box.width > w || box.width < Math.min(w - 60, 300)) fail(`${game} at ${w} px: a board ${box.width} px wide`);
    await page.screenshot({ path: `${shots}/board-${game}-${w}.png`, fullPage: w < 400 });
  }
}
console.log(`boards: coordinates, side names, ${checkedMarks} marks with contrast >= 3:1, no overflow at 390 px`);
if (errors.length) fail('errors in the page: ' + errors.join('; '));
console.log(`e2e ok: ${drags} drags, ${clicks} clicks, game over (${status.trim()}), ${nodes} tree nodes, Connect Four's 7 columns, matching pennies; screenshots in ${shots}/`);
await browser.close();
