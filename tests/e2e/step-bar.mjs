// The step bar Decode, Caption and Listen share (« start ◀ back step ▶ end »), checked the same way
// in each view's file: the same marks, names without them, the focus kept at the ends, the words
// and names in Chinese, and a phone's marks alone.
import assert from 'node:assert/strict';

/**
 * @param {ReturnType<typeof import('./fixture.mjs').useBrowser>} fx
 * @param {{ view: string, prefix: string, play: string, names: string[] }} v the view, its testids'
 *   prefix, its play button's testid and the buttons' accessible names
 */
export async function checkStepBar(fx, v) {
  const page = await fx.open({ view: v.view, lang: 'en' });
  const root = page.locator(`[data-testid=${v.view}][data-step="0"]`);
  await root.waitFor({ timeout: 90_000 });
  const ids = ['start', 'back', 'step', 'end'].map((n) => `${v.prefix}${n}`);
  const texts = () =>
    Promise.all(ids.map(async (id) => (await page.locator(`[data-testid=${id}]`).innerText()).trim()));
  assert.deepEqual(await texts(), ['« start', '◀ back', 'step ▶', 'end »']);
  for (const [i, id] of ids.entries())
    assert.equal(
      await page.getByRole('button', { name: v.names[i], exact: true }).getAttribute('data-testid'),
      id,
    );
  // a name holds the word shown (label-content-name-mismatch), the title the key
  assert.equal(
    await page.locator(`[data-testid=${ids[0]}]`).getAttribute('title'),
    `${v.names[0].replace(/^start \((.*)\)$/, '$1')} (Home)`,
  );
  const play = page.locator(`[data-testid=${v.play}]`);
  assert.equal(await play.getAttribute('aria-pressed'), 'false');
  assert.match(await play.innerText(), /^▶ play/);
  assert.equal((await page.locator(`[data-testid=${v.prefix}step-number]`).innerText()).trim(), '1');

  // end pressed from the keyboard disables itself: the focus goes to back, and start's to step
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
  await page.focus(`[data-testid=${ids[3]}]`);
  await page.keyboard.press('Enter');
  await page.locator(`[data-testid=${ids[3]}]:disabled`).waitFor();
  assert.equal(await focused(), ids[1]);
  await page.focus(`[data-testid=${ids[0]}]`);
  await page.keyboard.press('Enter');
  await root.waitFor();
  assert.equal(await focused(), ids[2]);

  // in Chinese: each button shows a Chinese word, and its name holds that word
  await page.click('[data-testid=lang-zh]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh');
  for (const id of [...ids, v.play]) {
    const button = page.locator(`[data-testid=${id}]`);
    const word = (await button.innerText()).replace(/[«»◀▶⏸\s]/g, '');
    assert.match(word, /^[\u4e00-\u9fff]+$/, `${id} shows “${word}”`);
    const name = (await button.getAttribute('aria-label')) ?? (await button.innerText());
    assert.ok(name.includes(word), `${id}: the name “${name}” holds “${word}”`);
  }
  await page.click('[data-testid=lang-en]');

  await page.setViewportSize({ width: 375, height: 800 });
  assert.deepEqual(await texts(), ['«', '◀', '▶', '»']);
  assert.equal(await page.getByRole('button', { name: v.names[3], exact: true }).count(), 1);
}
