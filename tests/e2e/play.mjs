// A full Breakthrough 5x5 game played by clicks against the engine, in a real headless chromium (run.sh starts the
// server and passes its address). Checks that the thinking panel fills, that the tree view opens and folds, and saves
// screenshots under target/e2e/.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

const base = process.argv[2];
const shots = process.argv[3] || 'target/e2e';
mkdirSync(shots, { recursive: true });
const fail = (msg) => { console.error('e2e FAILED: ' + msg); process.exit(1); };

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const errors = [];
page.on('pageerror', (e) => errors.push(String(e)));
await page.goto(base);
await page.waitForSelector('#game option[value="breakthrough"]', { state: 'attached' });

// Breakthrough 5x5 (two rows of pawns each), the human White against the engine.
await page.fill('[data-param="rows"]', '5');
await page.fill('[data-param="columns"]', '5');
await page.fill('#player0', 'human');
await page.fill('#player1', 'engine(time=100ms)');
await page.click('#new-game');
await page.waitForSelector('#board g.cell[data-name="a1"]');
await page.screenshot({ path: `${shots}/start.png` });

let clicks = 0, sawThinking = false;
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
  await page.click(`#board g.cell[data-name="${from}"]`);
  if (await page.locator('#board rect.target').count() === 0) fail(`no target lit after clicking ${from}`);
  await page.click(`#board g.cell[data-name="${to}"]`);
  clicks += 2;
  await page.waitForFunction((n) => document.querySelectorAll('.move').length > n, before, { timeout: 30000 });
}
const status = await page.textContent('#status');
if (!status.startsWith('Game over')) fail(`the game did not end: ${status}`);
if (!sawThinking) fail('the thinking panel never showed an iteration');
await page.screenshot({ path: `${shots}/end.png` });

// Undo goes back to a position where White moves; then the tree view of that position.
await page.click('#undo');
await page.waitForFunction(() => document.getElementById('status').dataset.over === 'no');
await page.click('.tab[data-tab="tree"]');
await page.fill('#tree-algo', 'alphabeta');
await page.fill('#tree-depth', '2');
await page.click('#tree-go');
await page.waitForSelector('#tree li.node .box', { timeout: 30000 });
const nodes = await page.locator('#tree .box').count();
if (nodes < 3) fail(`the tree shows ${nodes} nodes`);
await page.click('#tree-open');
const visible = await page.locator('#tree .box:visible').count();
if (visible !== nodes) fail(`expand all shows ${visible} of ${nodes} nodes`);
await page.screenshot({ path: `${shots}/tree.png` });

// The compare table and its chart.
await page.click('.tab[data-tab="compare"]');
await page.fill('#cmp-algos', 'minimax,alphabeta');
await page.fill('#cmp-depths', '1..2');
await page.click('#cmp-go');
await page.waitForSelector('table.compare tbody tr', { timeout: 30000 });
if (await page.locator('#cmp-chart polyline').count() !== 2) fail('the chart has no line per algorithm');
await page.screenshot({ path: `${shots}/compare.png` });
if (errors.length) fail('errors in the page: ' + errors.join('; '));
console.log(`e2e ok: ${clicks} clicks, game over (${status.trim()}), ${nodes} tree nodes; screenshots in ${shots}/`);
await browser.close();
