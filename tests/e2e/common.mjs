// The setup every end-to-end file shares (run.sh starts the server and runs each file with the page's address and the
// screenshots' folder as its first two arguments): those arguments, a `fail` that prints one line and exits with 1,
// Debian's chromium headless (or $CHROMIUM), and pages opened on the address with the page's errors collected.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

// `name` labels the failures ('e2e NAME FAILED: ...'). Returns { base, shots, fail, browser, open }:
// open(width, height, { game, errors }) -> { page, errors }: a page of that viewport on the address, its errors pushed
// to `errors` (a new list unless given), ready once the game list holds `game` (when given).
export async function start(name) {
  const base = process.argv[2];
  const shots = process.argv[3] || 'target/e2e';
  mkdirSync(shots, { recursive: true });
  const fail = (msg) => { console.error(`e2e ${name} FAILED: ${msg}`); process.exit(1); };
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  async function open(width, height, { game, errors = [] } = {}) {
    const page = await browser.newPage({ viewport: { width, height } });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(base);
    if (game) await page.waitForSelector(`#game option[value="${game}"]`, { state: 'attached' });
    return { page, errors };
  }
  return { base, shots, fail, browser, open };
}

// A new game from the Play panel's form: `game` chosen, its parameters (`{rows: '5'}`) and the two players filled in,
// the time control when given, then 'New game' clicked (the caller waits for what it needs next).
export async function newGame(page, game, { params = {}, players = ['human', 'human'], timeControl } = {}) {
  await page.selectOption('#game', game);
  for (const [k, v] of Object.entries(params)) await page.fill(`[data-param="${k}"]`, v);
  await page.fill('#player0', players[0]);
  await page.fill('#player1', players[1]);
  if (timeControl !== undefined) await page.fill('#time-control', timeControl);
  await page.click('#new-game');
}
