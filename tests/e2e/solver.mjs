// The Solver panel in a real headless chromium (run.sh starts the server and passes its address), on a desktop
// (1366x900) and a phone (390x844): Connect Four after `4` (column 5 takes its mirror column 3's score), a solve
// cancelled while it runs, a small Breakthrough board with every move's cell filled (win/loss and distance), and
// Breakthrough 8x8 whose 22 cells wrap inside the phone's width. Screenshots under target/e2e/.
import { newGame as newGameOf, start } from './common.mjs';

const { shots, fail, browser, open: openAt } = await start('solver');
const open = (width, height) => openAt(width, height, { game: 'connect_four' });

async function newGame(page, game, params) {
  await page.click('.tab[data-tab="play"]');
  await newGameOf(page, game, { params });
  await page.waitForSelector('.legal-move');
}

const cellText = (page) => page.$$eval('.verdict-moves .vcell', (cs) => cs.map((c) => ({
  move: c.dataset.move, cls: c.className, text: c.textContent, title: c.title,
  score: c.querySelector('.vscore')?.textContent, value: c.querySelector('.vvalue')?.textContent,
})));

// ---- Desktop ----
{
  const { page, errors } = await open(1366, 900);
  // The empty board: the seven columns from the start book at once, as Pons's solver scores them.
  await newGame(page, 'connect_four');
  await page.click('.tab[data-tab="verdict"]');
  await page.click('#verdict-go');
  await page.waitForFunction(() => document.querySelector('.verdict-status')?.textContent.includes('proven in'), null,
    { timeout: 60000 });
  const empty = (await cellText(page)).map((c) => `${c.move}:${c.score}`).join(' ');
  if (empty !== '1:-2 2:-1 3:0 4:+1 5:0 6:-1 7:-2') fail(`the empty board: ${empty}`);

  // After 4: column 5 is its mirror column 3 (the book holds 3), at once; the other columns take the solver long in
  // a debug build: cancel, and what was proven stays.
  await page.click('.tab[data-tab="play"]');
  await page.click('.legal-move[data-move="4"]');
  await page.waitForFunction(() => document.querySelectorAll('.move').length === 1);
  await page.click('.tab[data-tab="verdict"]');
  await page.click('#verdict-go');
  await page.waitForSelector('.vcell[data-move="5"]', { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('.verdict-status').textContent.includes('of 7 moves'));
  if (await page.isDisabled('#verdict-cancel')) fail('no Cancel while solving');
  const progress = await page.textContent('.verdict-status');
  await page.screenshot({ path: `${shots}/solver-progress.png` });
  const t0 = Date.now();
  await page.click('#verdict-cancel');
  await page.waitForFunction(() => document.querySelector('.verdict-status').textContent.startsWith('cancelled'),
    null, { timeout: 5000 });
  if (!(await page.isDisabled('#verdict-cancel'))) fail('Cancel stays enabled after the cancel');
  const after4 = await cellText(page);
  const col = (m) => after4.find((c) => c.move === m);
  if (!col('3') || !col('5')) fail(`after 4, columns 3 and 5 missing: ${JSON.stringify(after4)}`);
  if (col('3').score !== '-2' || col('5').score !== '-2' || !col('5').title.includes('mirror image 3')) {
    fail(`after 4, column 5 is not column 3's mirror: ${JSON.stringify(after4)}`);
  }
  // The server stopped: a new solve (a small board) gets its answer though the server has few places.
  console.log(`solver: '${progress}' then cancelled in ${Date.now() - t0} ms; after 4: ` +
    after4.map((c) => `${c.move}:${c.score ?? '?'}`).join(' '));

  // A small Breakthrough board: every cell win or loss with its distance, no '?'.
  await newGame(page, 'breakthrough', { rows: '5', columns: '4', piece_rows: '1' });
  await page.click('.tab[data-tab="verdict"]');
  await page.click('#verdict-go');
  await page.waitForFunction(() => document.querySelector('.verdict-status')?.textContent.includes('proven in'), null,
    { timeout: 60000 });
  const bt = await cellText(page);
  if (bt.length !== 10) fail(`Breakthrough 5x4: ${bt.length} cells`);
  for (const c of bt) {
    if (!/^(win|loss) \d+$/.test(c.value) || !/(win|loss)/.test(c.cls)) fail(`Breakthrough 5x4 cell ${JSON.stringify(c)}`);
  }
  const status = await page.textContent('.verdict-status');
  if (!status.includes('win in') || !status.includes('10 of 10 moves')) fail(`Breakthrough 5x4: ${status}`);
  await page.screenshot({ path: `${shots}/solver-breakthrough.png` });
  console.log(`solver: breakthrough 5x4: ${status}`);
  if (errors.length) fail(errors.join('; '));
  await page.close();
}

// ---- Phone ----
{
  const { page, errors } = await open(390, 844);
  await newGame(page, 'breakthrough');
  await page.click('.tab[data-tab="verdict"]');
  await page.click('#verdict-go');
  await page.waitForTimeout(1500);
  await page.screenshot({ path: `${shots}/solver-phone-progress.png`, fullPage: true });
  await page.click('#verdict-cancel');
  await page.waitForFunction(() => document.querySelector('.verdict-status').textContent.startsWith('cancelled'),
    null, { timeout: 5000 });
  // Solve again: the 22 cells (listed at once, filled as proven) wrap within the phone's width.
  await page.click('#verdict-go');
  await page.waitForFunction(() => document.querySelectorAll('.verdict-moves .vcell').length === 22, null,
    { timeout: 10000 });
  const width = await page.evaluate(() => ({
    doc: document.documentElement.scrollWidth, grid: document.querySelector('.verdict-moves').getBoundingClientRect().right,
  }));
  if (width.doc > 390 || width.grid > 390) fail(`the solver panel is wider than the phone: ${JSON.stringify(width)}`);
  await page.screenshot({ path: `${shots}/solver-phone.png`, fullPage: true });
  await page.click('#verdict-cancel');
  if (errors.length) fail(errors.join('; '));
  await page.close();
}
await browser.close();
console.log('e2e solver: ok');
