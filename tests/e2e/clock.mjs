// Clocks on the page, in a real headless chromium (run.sh starts the server and passes its address): a Breakthrough
// 5x5 game under the time control 4s+1s, the human against the engine, at 1366x900 and 390x844: both clocks shown,
// the human's counting down while it thinks, the engine's taking its real thinking time, then the human's flag falls:
// the banner says the game was lost on time. Screenshots clock-WIDTH.png and clock-flag-WIDTH.png under target/e2e/.
import { newGame, start } from './common.mjs';

const { shots, fail, browser, open } = await start('clock');
const secs = (t) => (t.includes(':') ? Number(t.split(':')[0]) * 60 + Number(t.split(':')[1]) : Number(t));

for (const [width, height] of [[1366, 900], [390, 844]]) {
  const { page, errors } = await open(width, height, { game: 'breakthrough' });
  await newGame(page, 'breakthrough', {
    params: { rows: '5', columns: '5' }, players: ['human', 'engine'], timeControl: '4s+1s',
  });
  await page.waitForSelector('#sides .clock[data-side="0"].running');
  const face = (k) => page.textContent(`#sides .clock[data-side="${k}"]`);
  const t0 = secs(await face(0));
  await page.waitForTimeout(600);
  const t1 = secs(await face(0));
  if (!(t1 < t0 && t0 <= 4)) fail(`the human's clock does not run: ${t0} then ${t1}`);
  if (secs(await face(1)) !== 4) fail(`the engine's clock moved before its turn: ${await face(1)}`);
  // A move: the human's clock stops with its increment added; the engine's runs, then takes its thinking time.
  await page.click('.legal-move');
  await page.waitForFunction(() => document.querySelectorAll('#moves .move').length >= 2 &&
    document.querySelector('#sides .clock[data-side="0"]').classList.contains('running'), null, { timeout: 15000 });
  const state = await page.evaluate(() => ui.state.clock);
  if (!(state.left_ms[1] < 5000 && state.left_ms[1] > 0)) fail(`the engine's clock after its move: ${JSON.stringify(state)}`);
  if (!(state.left_ms[0] > 3000)) fail(`the human's increment: ${JSON.stringify(state)}`);
  await page.screenshot({ path: `${shots}/clock-${width}.png` });
  // The human waits: its flag falls, the game is over on time.
  await page.waitForFunction(() => document.getElementById('status').dataset.over === 'yes', null, { timeout: 15000 });
  const banner = await page.textContent('#banner-text');
  if (!banner.includes('on time')) fail(`the banner says '${banner}'`);
  if (await face(0) !== '0.0' || !(await page.getAttribute('#sides .clock[data-side="0"]', 'class')).includes('fallen')) {
    fail(`the fallen clock shows ${await face(0)}`);
  }
  if (await page.locator('.legal-move').count() !== 0) fail('moves left to click after the flag fell');
  await page.screenshot({ path: `${shots}/clock-flag-${width}.png` });
  if (errors.length) fail(errors.join('; '));
  console.log(`clock ${width}x${height}: ${t0} -> ${t1} s while thinking; engine left ${state.left_ms[1]} ms; '${banner}'`);
  await page.close();
}
await browser.close();
console.log('e2e clock: ok');
