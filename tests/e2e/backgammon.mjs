// Backgammon on the page, in a real headless chromium (run.sh starts the server and passes its address): the board has
// its 24 points numbered from the side to move's view, the bar, the borne-off trays and the dice; a human-against-human
// game is played by clicking checkers then their targets (each step of the move's notation, or a checker's whole
// journey), on a desktop (1366x900) and a phone (390x844); the move list is numbered by turn ('2. 6-4 24/18 13/9').
// Then, during an engine-against-engine Breakthrough game, an earlier move is clicked: its position is shown while
// the game goes on, and 'Back to the game' returns. Screenshots under target/e2e/.
import { newGame, start } from './common.mjs';

const { shots, fail, browser, open } = await start('backgammon');

// A move's clicks: each journey's consecutive points (bar = 25, off = 0), repeated for `(n)`; with `whole`, a journey
// written without its landing points is clicked from its start straight to its end.
function clicksOf(text) {
  const out = [];
  for (const tok of text.split(' ')) {
    const m = tok.match(/^(.*?)(?:\((\d)\))?$/);
    const pts = m[1].split('/').map((p) => p.replace('*', '')).map((p) => (p === 'bar' ? 25 : p === 'off' ? 0 : Number(p)));
    for (let k = 0; k < Number(m[2] || 1); k++) for (let i = 1; i < pts.length; i++) out.push([pts[i - 1], pts[i]]);
  }
  return out;
}
const target = (p) => (p === 0 ? '#board g.bg-off' : p === 25 ? '#board g.bg-bar' : `#board g.bg-point[data-point="${p}"]`);

async function playBackgammon(width, height) {
  const { page, errors } = await open(width, height, { game: 'backgammon' });
  await newGame(page, 'backgammon');
  await page.waitForSelector('#board g.bg-point[data-point="24"]');
  let turns = 0, steps = 0;
  for (let k = 0; k < 8; k++) {
    await page.waitForFunction(() => document.querySelectorAll('.legal-move').length > 0 ||
      document.getElementById('status').dataset.over === 'yes', null, { timeout: 20000 });
    if (await page.getAttribute('#status', 'data-over') === 'yes') break;
    // The board: 24 points labelled 1..24, the bar, the trays, the dice still to play.
    const labels = await page.$$eval('#board g.bg-point', (gs) => gs.map((g) => [g.dataset.point, g.querySelector('text.bg-num').textContent]));
    if (labels.length !== 24 || labels.some(([p, t]) => p !== t)) fail(`point labels ${JSON.stringify(labels)}`);
    if (await page.locator('#board g.bg-bar').count() !== 1 || await page.locator('#board g.bg-off rect.bg-tray').count() !== 2) {
      fail('no bar or no trays');
    }
    const dice = await page.locator('#board .bg-dice .die').count();
    if (dice !== 2 && dice !== 4) fail(`${dice} dice shown`);
    // Numbered from the side to move's view: its 24 point on the top right (the first player), its 1 point there for the
    // second player, whose numbers run the other way.
    const mover = Number(await page.getAttribute('#board', 'data-mover'));
    const corner = await page.$$eval('#board g.bg-point polygon', (ps) => {
      const boxes = ps.map((p) => ({ p: p.parentNode.dataset.point, b: p.getBoundingClientRect() }));
      const top = Math.min(...boxes.map((x) => x.b.top));
      const row = boxes.filter((x) => Math.abs(x.b.top - top) < 2);
      return row.sort((a, c) => c.b.left - a.b.left)[0].p;
    });
    if (corner !== (mover === 0 ? '24' : '1')) fail(`the top right point is ${corner} for player ${mover}`);
    const moves = await page.$$eval('.legal-move', (bs) => bs.map((b) => b.dataset.move));
    const before = await page.locator('#moves .move').count();
    const pick = moves[(k * 7) % moves.length];
    if (pick === 'pass') {
      await page.click('.legal-move');
    } else {
      // Every other turn a journey without a hit on the way goes in one click, else step by step.
      const whole = k % 2 === 1 && !pick.includes('*');
      const clicks = whole ? pick.split(' ').flatMap((tok) => {
        const m = tok.match(/^(.*?)(?:\((\d)\))?$/);
        const pts = m[1].split('/').map((p) => (p === 'bar' ? 25 : p === 'off' ? 0 : Number(p)));
        return Array(Number(m[2] || 1)).fill([pts[0], pts[pts.length - 1]]);
      }) : clicksOf(pick);
      for (const [i, [from, to]] of clicks.entries()) {
        await page.click(target(from));
        const lit = await page.locator('#board .bg-tri.target, #board .bg-tray.target').count();
        if (lit === 0) fail(`nothing lit after clicking ${from} for ${pick}`);
        if (k === 0 && i === 0) await page.screenshot({ path: `${shots}/backgammon-select-${width}.png` });
        await page.click(target(to));
        steps += 1;
        if (i < clicks.length - 1 && await page.locator('#moves .move').count() !== before) {
          fail(`${pick} was played before its last step`);
        }
      }
    }
    await page.waitForFunction((n) => document.querySelectorAll('#moves .move').length > n, before, { timeout: 10000 });
    const played = await page.$$eval('#moves .move', (ms) => ms.map((m) => m.textContent.trim()));
    if (!played.some((t, i) => i >= before && t.replace(/^\d+\. /, '') === pick)) {
      fail(`clicked ${pick}, the list says ${played.slice(before).join(' | ')}`);
    }
    turns += 1;
    if (k === 1) await page.screenshot({ path: `${shots}/backgammon-${width}.png` });
  }
  // The move list by turn: each roll numbered 1, 2, 3, ... and the moves after it unnumbered.
  const list = await page.$$eval('#moves .move', (ms) => ms.map((m) => [m.classList.contains('chance'), m.textContent.trim()]));
  let n = 0;
  for (const [chance, text] of list) {
    if (chance) {
      n += 1;
      if (!text.startsWith(`${n}. `) || !/\d-\d$/.test(text)) fail(`roll '${text}' is not numbered turn ${n}`);
    } else if (/^\d+\. /.test(text)) fail(`move '${text}' is numbered as a turn`);
  }
  // No overflow: the board fits the page's width.
  const box = await page.locator('#board').boundingBox();
  if (box.x + box.width > width + 1) fail(`the board is ${box.width} px wide at ${width} px`);
  if (errors.length) fail(errors.join('; '));
  console.log(`backgammon ${width}x${height}: ${turns} turns by ${steps} clicked steps; move list ${list.slice(0, 6).map((x) => x[1]).join(' ')} ...`);
  await page.close();
}

await playBackgammon(1366, 900);
await playBackgammon(390, 844);

// Stepping through a game in progress: engine against engine on Breakthrough 5x5.
async function stepDuringGame(width, height) {
  const { page, errors } = await open(width, height, { game: 'breakthrough' });
  await newGame(page, 'breakthrough', {
    params: { rows: '5', columns: '5' }, players: ['engine(time=400ms)', 'engine(time=400ms)'],
  });
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length >= 3, null, { timeout: 20000 });
  const pieces = () => page.$$eval('#board g.cell', (gs) => gs.map((g) => (g.querySelector('text.piece') || {}).textContent || '.').join(''));
  await page.click('#moves .move[data-ply="1"]');
  await page.waitForSelector('#viewing:not(.hidden)');
  const viewed = await pieces();
  const seen = await page.locator('#moves .move').count();
  // Moves keep coming in; the view stays on move 1.
  await page.waitForFunction((n) => document.querySelectorAll('#moves .move').length > n, seen + 1, { timeout: 20000 });
  if (await pieces() !== viewed) fail('the viewed position changed as moves came in');
  if (!(await page.textContent('#viewing-text')).includes('after move 1 of')) fail('the viewing line lost its move');
  if (await page.locator('#moves .move.current[data-ply="1"]').count() !== 1) fail('move 1 is not marked current');
  await page.screenshot({ path: `${shots}/viewing-${width}.png` });
  await page.click('#view-next');
  await page.waitForFunction(() => document.getElementById('viewing-text').textContent.includes('after move 2 of'));
  await page.click('#view-back');
  if (await page.isVisible('#viewing')) fail('Back to the game left the viewing line');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move.current').length === 0);
  // The live board: the position after the last move (unless a move is arriving right now).
  const live = await pieces();
  if (live === viewed) fail('back to the game shows the viewed position');
  await page.waitForFunction(() => document.getElementById('status').dataset.over === 'yes', null, { timeout: 60000 });
  if (errors.length) fail(errors.join('; '));
  console.log(`stepping ${width}x${height}: viewed move 1 while ${seen} -> more moves came; back to the game`);
  await page.close();
}

await stepDuringGame(1366, 900);
await stepDuringGame(390, 844);
await browser.close();
console.log('e2e backgammon and stepping: ok');
