// The sandbox page in headless Chromium: for every score function the numbers on the page are the
// engine's (the same wasm module run here in node gives the expected values), edits recompute,
// bad input shows a message, the phone layout does not scroll sideways, and the console stays
// free of errors. Screenshots go to test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { formatNumber } from '../../web/lib/format.js';
import { exampleQuery, exampleTokens } from '../../web/state/example.js';
import { launchBrowser } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

const KINDS = ['dot', 'scaled_dot', 'general', 'additive', 'cosine'];
const keys = exampleTokens.map((t) => t.key);
const values = exampleTokens.map((t) => t.value);

let ap, server, browser, page;
const consoleErrors = [];

function watchConsole(p) {
  p.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(message.text());
  });
  p.on('pageerror', (error) => consoleErrors.push(String(error)));
}

before(async () => {
  [ap, server, browser] = await Promise.all([loadEngine(), serveBuild(), launchBrowser()]);
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  watchConsole(page);
  await page.goto(server.url);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** Waits until the page shows `expected` (an ap.attend result), then returns what it shows. */
async function shownStages(p, expected) {
  await p.waitForFunction(
    ([kind, n, weight0]) => {
      const stages = document.querySelector('[data-testid=stages]');
      return (
        stages?.dataset.kind === kind &&
        !document.querySelector('[data-testid=error]') &&
        document.querySelectorAll(
          '[data-testid^=weight-]:not([data-testid=weight-sum]):not([data-testid=weights-sum])',
        ).length >= n &&
        document.querySelector('[data-testid=weight-0]')?.dataset.value === weight0
      );
    },
    [expected.kind, expected.weights.length, String(expected.weights[0])],
    { timeout: 5000 },
  );
  return p.evaluate(() => {
    const read = (prefix) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)]
        .filter((el) => /^\w+-\d+$/.test(el.dataset.testid))
        .map((el) => ({ value: Number(el.dataset.value), text: el.textContent.trim() }));
    return { scores: read('score'), weights: read('weight'), context: read('context') };
  });
}

function assertShows(shown, expected) {
  for (const stage of ['scores', 'weights', 'context']) {
    assert.deepEqual(
      shown[stage].map((x) => x.value),
      Array.from(expected[stage]),
      `${expected.kind} ${stage}: the page's numbers are the engine's`,
    );
    assert.deepEqual(
      shown[stage].map((x) => x.text),
      Array.from(expected[stage], formatNumber),
      `${expected.kind} ${stage}: as written on the page`,
    );
  }
}

describe('sandbox page', () => {
  test('loads the engine and starts on dot attention over Tom / chase / Jerry (0.600 / 0.200 / 0.200)', async () => {
    const expected = ap.attend('dot', exampleQuery, keys, values);
    const shown = await shownStages(page, expected);
    assertShows(shown, expected);
    assert.deepEqual(
      shown.weights.map((w) => w.text),
      ['0.600', '0.200', '0.200'],
    );
    assert.equal(await page.textContent('[data-testid=isa]'), ap.simdIsa());
    assert.equal(await page.textContent('[data-testid=weights-sum]'), '1.000');
  });

  test('every score function, picked by keys 1–5, shows exactly the engine results', async () => {
    for (const [i, kind] of KINDS.entries()) {
      await page.locator('body').press(String(i + 1));
      const expected = ap.attend(kind, exampleQuery, keys, values);
      assertShows(await shownStages(page, expected), expected);
      if (kind === 'additive') {
        const hidden = await page.$$eval('[data-testid=hidden] td', (cells) =>
          cells.map((c) => Number(c.dataset.value)),
        );
        assert.deepEqual(hidden, Array.from(expected.hidden.data));
      }
      if (kind === 'general') {
        const w = await page.$$eval('[data-testid=param-w] td', (cells) =>
          cells.map((c) => Number(c.dataset.value)),
        );
        assert.deepEqual(w, Array.from(expected.params.w.data));
      }
      await page.screenshot({ path: `${shots}sandbox-desktop-${kind}.png`, fullPage: true });
    }
    await page.click('[data-testid=kind-dot]', { force: true });
  });

  test('typing a key, moving the temperature and unticking a token recompute the numbers', async () => {
    await page.fill('[data-testid=key-1]', '0.5, 0.5, 0.5, 0.5');
    const edited = keys.map((k, j) => (j === 1 ? [0.5, 0.5, 0.5, 0.5] : k));
    let expected = ap.attend('dot', exampleQuery, edited, values);
    assertShows(await shownStages(page, expected), expected);
    assert.notEqual(expected.weights[0], ap.attend('dot', exampleQuery, keys, values).weights[0]);

    await page.locator('[data-testid=temperature]').evaluate((slider) => {
      slider.value = '2';
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expected = ap.attend('dot', exampleQuery, edited, values, { temperature: 2 });
    assertShows(await shownStages(page, expected), expected);
    assert.equal(await page.textContent('[data-testid=weights-temperature]'), '2');

    await page.uncheck('[data-testid=attend-2]');
    expected = ap.attend('dot', exampleQuery, edited, values, { temperature: 2, mask: [1, 1, 0] });
    assertShows(await shownStages(page, expected), expected);
    assert.equal(expected.weights[2], 0);
    await page.screenshot({ path: `${shots}sandbox-edited.png`, fullPage: true });

    await page.click('text=Back to Tom / chase / Jerry');
    expected = ap.attend('dot', exampleQuery, keys, values);
    assertShows(await shownStages(page, expected), expected);
  });

  test('a bad input shows the engine message in the page, and fixing it brings the numbers back', async () => {
    await page.fill('[data-testid=query]', '1, 0, 1');
    const message = (() => {
      try {
        ap.attend('dot', [1, 0, 1], keys, values);
      } catch (error) {
        return error.message;
      }
    })();
    assert.match(message, /query of 3 and keys of 4/);
    await page.waitForSelector('[data-testid=error]');
    assert.match(
      await page.textContent('[data-testid=error]'),
      new RegExp(message.replace(/[()[\]]/g, '\\$&')),
    );
    await page.screenshot({ path: `${shots}sandbox-error.png`, fullPage: true });

    await page.fill('[data-testid=query]', '1, 0, 1, zero');
    await page.waitForFunction(() =>
      /query\[3\] is not a finite number/.test(
        document.querySelector('[data-testid=error]')?.textContent ?? '',
      ),
    );

    await page.fill('[data-testid=query]', '1, 0, 1, 0');
    for (const j of [0, 1, 2]) await page.uncheck(`[data-testid=attend-${j}]`);
    await page.waitForFunction(() =>
      /every one of the 3 keys is masked/.test(
        document.querySelector('[data-testid=error]')?.textContent ?? '',
      ),
    );
    await page.check('[data-testid=attend-0]');
    const expected = ap.attend('dot', exampleQuery, keys, values, { mask: [1, 0, 0] });
    assertShows(await shownStages(page, expected), expected);
    assert.deepEqual(Array.from(expected.weights), [1, 0, 0]);
  });

  test('at phone width (375 px) nothing scrolls sideways', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2 });
    watchConsole(phone);
    await phone.goto(server.url);
    for (const kind of ['dot', 'additive']) {
      await phone.click(`[data-testid=kind-${kind}]`, { force: true });
      await shownStages(phone, ap.attend(kind, exampleQuery, keys, values));
      const { scrollWidth, innerWidth } = await phone.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      assert.ok(
        scrollWidth <= innerWidth,
        `${kind}: page is ${scrollWidth} px wide in a ${innerWidth} px window`,
      );
      await phone.screenshot({ path: `${shots}sandbox-phone-${kind}.png`, fullPage: true });
    }
    await phone.close();
  });

  test('no console errors on the way', () => {
    assert.deepEqual(consoleErrors, []);
  });
});
