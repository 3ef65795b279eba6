// The live tournament view (issue 39, point 2) in headless chromium: a 40-player round robin of small built-in players
// on Breakthrough 5x5 (node-limited: 6 random, 2 mcts with 1500 and 30000 playouts, alphabeta/pvs/negamax/mtdf at depths 1-3, mcts with 40..800 playouts) is
// started, shown while it runs (games in progress), killed mid-run, resumed with --resume, and shown at the end:
// every game exactly once, standings and crosstable of 40, a finished game replayed on the board. run.sh starts the
// server with --tournament RESULTS,RECORD and passes: the page's address, the screenshots' folder, the plateau
// binary, the results file and the record file. Screenshots at 1366x900 and 390x844.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { start } from './common.mjs';

const started = Date.now();
const [bin, results, record] = process.argv.slice(4);
const { shots, fail, browser, open } = await start('tournament');

const players = [];
for (let i = 1; i <= 6; i++) players.push(`random${i}=random`);
// Most games last a few milliseconds, less than the live file's 250 ms refresh and the page's 1 s poll: a slow player
// (about 0.1 s a move: its games last most of a second) keeps a game on the board long enough to be seen in progress
// at nearly every poll. With 2000 playouts (7 ms a move) a game was caught in one run and missed in the next.
players.push('slow1500=mcts(playouts=1500)', 'slow30000=mcts(playouts=30000)');
for (const d of [1, 2, 3]) for (const a of ['alphabeta', 'pvs', 'negamax', 'mtdf']) players.push(`${a}${d}=${a}(depth=${d})`);
for (let p = 40; p <= 800; p += 40) players.push(`mcts${p}=mcts(playouts=${p})`);
if (players.length !== 40) fail(`${players.length} players`);
const GAMES = 40 * 39;
const tournament = (resume) => spawn(bin, ['tournament', 'breakthrough(rows=5,columns=5)',
  ...players.flatMap((p) => ['--player', p]), '--concurrency', '2', '--results', results, '--record', record,
  ...(resume ? ['--resume'] : [])], { stdio: ['ignore', 'ignore', 'inherit'] });

const { page, errors } = await open(1366, 900);
await page.click('nav .tab[data-tab="tournament"]');
await page.waitForSelector('#tour-pick option[value="1"]', { state: 'attached' });
const count = async () => {
  const t = (await page.textContent('#tour-count').catch(() => '')) || '';
  const m = t.match(/^(\d+) of (\d+) games/);
  return m ? { done: Number(m[1]), of: Number(m[2]), text: t } : { done: -1, of: -1, text: t };
};

// A game in progress, if the view shows one now: checked, screenshot, opened on the board (at its position now, or at
// its end when it finished meanwhile), back to the tournament. Most games last less than the live file's refresh,
// so the view is watched every 100 ms over both runs until one is caught.
let sawLive = null;
const catchLive = async () => {
  if (sawLive || !(await page.isVisible('#panel-tournament'))) return;
  const t = (await page.textContent('#tour-count').catch(() => '')) || '';
  if (!/running, [1-9]/.test(t) || !(await page.locator('#tour-playing .live').count())) return;
  const live = await page.textContent('#tour-playing .live');
  if (!/^game \d+: \S+ - \S+, \d+ plies/.test(live)) fail(`a game in progress reads '${live}'`);
  await page.screenshot({ path: `${shots}/tournament-running.png`, fullPage: false });
  await page.click('#tour-playing .live >> nth=0');
  await page.waitForFunction(() => document.getElementById('replay-info').textContent.startsWith('ply ') &&
    document.querySelectorAll('#board g.cell text.piece').length > 0, null, { timeout: 10000 })
    .catch(async () => fail(`a game in progress did not open: tab ${await page.$eval('nav .tab.active', (b) => b.dataset.tab)}, `
      + `info '${await page.textContent('#replay-info')}', error '${await page.textContent('#error')}'`));
  sawLive = `${live} -> ${await page.textContent('#replay-info')}`;
  console.log(`a game in progress (${sawLive}) opened on the board`);
  await page.click('nav .tab[data-tab="tournament"]');
};

// First run: seen while it runs (live file fresh, 40 games or more finished), then killed.
let run = tournament(false);
for (let waited = 0; ; waited += 100) {
  if (waited > 60000) fail('the view never showed the running tournament');
  await catchLive();
  const c = await count();
  if (/running/.test(c.text) && c.done >= (sawLive ? 40 : 400)) break;
  await new Promise((r) => setTimeout(r, 100));
}
run.kill('SIGKILL');
await new Promise((r) => run.on('exit', r));
const killedAt = (await count()).done;
if (killedAt >= GAMES) fail('the tournament ended before it was killed: make its players slower');
console.log(`tournament killed after ${killedAt} of ${GAMES} games shown`);

// Resumed: runs on to the end; the view follows it.
run = tournament(true);
const exit = new Promise((r) => run.on('exit', (code) => r(code)));
for (let waited = 0; ; waited += 100) {
  if (waited > 120000) fail(`the view never showed the end: ${(await count()).text}`);
  await catchLive();
  if ((await count()).text.startsWith(`${GAMES} of ${GAMES} games finished: over`)) break;
  await new Promise((r) => setTimeout(r, 100));
}
if (!sawLive) fail('no game was ever shown in progress');
if ((await exit) !== 0) fail('the resumed tournament failed');

// Every game exactly once in the results file, and in the view.
const lines = readFileSync(results, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
const ids = new Set(lines.map((r) => r.id));
if (lines.length !== GAMES || ids.size !== GAMES) fail(`results file: ${lines.length} lines, ${ids.size} games`);
const rows = await page.$$eval('#tour-ratings tbody tr', (trs) => trs.length);
const crossRows = await page.$$eval('#tour-cross tbody tr', (trs) => trs.length);
const crossCells = await page.$$eval('#tour-cross tbody tr:first-child td', (tds) => tds.length);
const buttons = await page.$$eval('#tour-games button.tour-game', (bs) => bs.length);
if (rows !== 40 || crossRows !== 40 || crossCells !== 42) fail(`ratings ${rows} rows, crosstable ${crossRows}x${crossCells}`);
if (buttons !== GAMES) fail(`${buttons} finished games listed`);
const games = await page.$$eval('#tour-ratings tbody tr td:nth-child(5)', (tds) => tds.map((t) => Number(t.textContent)));
if (games.some((g) => g !== 78)) fail(`games per player: ${games.join(',')}`);
await page.screenshot({ path: `${shots}/tournament-end.png`, fullPage: false });

// A finished game replays on the board: its first position, then its last.
await page.click('#tour-games button.tour-game >> nth=3');
await page.waitForFunction(() => document.getElementById('replay-info').textContent.startsWith('ply 0/'), null,
  { timeout: 10000 }).catch(async () => fail(`a finished game did not open: tab `
    + `${await page.$eval('nav .tab.active', (b) => b.dataset.tab)}, info '${await page.textContent('#replay-info')}', `
    + `error '${await page.textContent('#error')}'`));
if (!(await page.isVisible('#panel-replay'))) fail('the replay panel is not shown');
const pieces = await page.$$eval('#board g.cell text.piece', (ts) => ts.length);
if (pieces !== 20) fail(`the replayed game starts with ${pieces} pieces, not Breakthrough 5x5's 20`);
await page.click('#replay-last');
const info = await page.textContent('#replay-info');
if (!/^ply [1-9]\d*\/\d+ .*(1-0|0-1|1\/2-1\/2)/.test(info)) fail(`replay reads '${info}'`);
await page.screenshot({ path: `${shots}/tournament-replay.png` });

// The phone's width: the tournament view fits (its wide tables scroll inside their box).
const { page: phone } = await open(390, 844, { errors });
await phone.click('nav .tab[data-tab="tournament"]');
await phone.waitForFunction((n) => (document.getElementById('tour-count') || {}).textContent?.startsWith(`${n} of`), GAMES);
const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
if (overflow > 0) fail(`the page is ${overflow} px wider than the phone`);
await phone.screenshot({ path: `${shots}/tournament-phone.png` });
await phone.locator('#tour-cross').scrollIntoViewIfNeeded();
await phone.screenshot({ path: `${shots}/tournament-phone-cross.png` });

if (errors.length) fail('page errors: ' + errors.join('; '));
await browser.close();
const secs = ((Date.now() - started) / 1000).toFixed(1);
console.log(`e2e tournament ok: 40 players, ${GAMES} games each once after a kill and --resume, ${secs} s`);
