// The step bar of Decode, Caption and Listen (web/components/StepBar.svelte) in headless Chromium:
// the same buttons with the same marks in all three, named without the marks; a button that
// disables itself hands the focus to the one leading the other way; on a phone the row keeps the
// marks alone and the buttons keep their names.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { launchBrowser } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

let server, browser;
const consoleErrors = [];

// each view's root (its data-step is the step shown) and its buttons' data-testid prefix
const VIEWS = [
  {
    view: 'decode',
    root: 'decode',
    prefix: '',
    play: 'play',
    names: ['Step 1', 'Back', 'Step', 'Last step'],
  },
  {
    view: 'caption',
    root: 'caption',
    prefix: 'caption-',
    play: 'caption-play',
    names: ['First word', 'Back', 'Step', 'Last word'],
  },
  {
    view: 'listen',
    root: 'listen',
    prefix: 'listen-',
    play: 'listen-autoplay',
    names: ['First letter', 'Back', 'Step', 'Last letter'],
  },
];

async function open(view, width) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  await page.goto(`${server.url}#view=${view.view}&lang=en`);
  await page.locator(`[data-testid=${view.root}][data-step="0"]`).waitFor({ timeout: 90_000 });
  return page;
}

const text = async (page, id) => ((await page.locator(`[data-testid=${id}]`).innerText()) ?? '').trim();

describe('the step bar', () => {
  before(async () => {
    [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  for (const v of VIEWS) {
    test(`${v.view}: « ◀ ▶ ▶ » with words, names without marks, the focus kept at the ends`, async () => {
      const page = await open(v, 1440);
      const ids = ['start', 'back', 'step', 'end'].map((n) => `${v.prefix}${n}`);
      assert.deepEqual(await Promise.all(ids.map((id) => text(page, id))), [
        '« start',
        '◀ back',
        'step ▶',
        'end »',
      ]);
      for (const [i, id] of ids.entries())
        assert.equal(
          await page.getByRole('button', { name: v.names[i], exact: true }).getAttribute('data-testid'),
          id,
        );
      const play = page.locator(`[data-testid=${v.play}]`);
      assert.equal(await play.getAttribute('aria-pressed'), 'false');
      assert.match(await play.innerText(), /^▶ play/);
      assert.match((await play.getAttribute('title')) ?? '', /\(space\)/);
      assert.equal(
        await page.locator(`[data-testid=${v.prefix}start]`).getAttribute('title'),
        `${v.names[0]} (Home)`,
      );
      assert.equal(await text(page, `${v.prefix}step-number`), '1');
      assert.ok(await page.locator(`[data-testid=${v.prefix}back]`).isDisabled(), 'back on the first step');

      // end from the keyboard disables itself: the focus goes to back, start's to step
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-testid'));
      await page.focus(`[data-testid=${v.prefix}end]`);
      await page.keyboard.press('Enter');
      await page.locator(`[data-testid=${v.prefix}end]:disabled`).waitFor();
      assert.equal(await focused(), `${v.prefix}back`);
      await page.focus(`[data-testid=${v.prefix}start]`);
      await page.keyboard.press('Enter');
      await page.locator(`[data-testid=${v.root}][data-step="0"]`).waitFor();
      assert.equal(await focused(), `${v.prefix}step`);
      await page.close();
    });

    test(`${v.view} on a phone: the marks alone, the names kept`, async () => {
      const page = await open(v, 375);
      assert.deepEqual(
        await Promise.all(['start', 'back', 'step', 'end'].map((n) => text(page, `${v.prefix}${n}`))),
        ['«', '◀', '▶', '»'],
      );
      assert.equal(await page.getByRole('button', { name: v.names[3], exact: true }).count(), 1);
      await page.close();
    });
  }

  test('no console errors', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
