// The sandbox page in headless Chromium: for every score function the numbers on the page are the
// engine's (the same wasm module run here in node gives the expected values), edits recompute,
// bad input shows a message, the phone layout does not scroll sideways, and the console stays
// free of errors. Screenshots go to test-output/.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { formatNumber } from '../../web/shared/lib/format.js';
import { exampleQuery, exampleTokens } from '../../web/features/sandbox/example.js';
import { launchBrowser, urlSettled } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });

const KINDS = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'];
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
  await page.goto(`${server.url}#view=sandbox`);
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
        document.querySelectorAll('[data-testid^="weight-"]').length === n &&
        document.querySelector('[data-testid=weight-0]')?.dataset.value === weight0
      );
    },
    [expected.kind, expected.weights.length, String(expected.weights[0])],
    // generous: other builds may be keeping the 2 cores busy
    { timeout: 20_000 },
  );
  return p.evaluate(() => {
    const read = (prefix) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)]
        .filter((el) => /^\w+-\d+$/.test(el.dataset.testid))
        .map((el) => ({ value: Number(el.dataset.value), text: el.textContent.trim() }));
    return { scores: read('score'), weights: read('weight'), context: read('context') };
  });
}

/** Back to the example and dot attention, as a person would: the reset button and key 1. */
async function resetPage(p) {
  await p.click('text=Back to Tom / chase / Jerry');
  await p.locator('body').press('1');
  await shownStages(p, ap.attend('dot', exampleQuery, keys, values));
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

  test('the comparison shows the weights of all six score functions, each the engine result', async () => {
    for (const kind of KINDS) {
      const expected = ap.attend(kind, exampleQuery, keys, values).weights;
      const cells = page.locator(`[data-testid^="compare-${kind}-"]`);
      assert.deepEqual(
        await cells.evaluateAll((tds) => tds.map((td) => Number(td.dataset.value))),
        Array.from(expected),
      );
      assert.deepEqual(await cells.allTextContents(), Array.from(expected, formatNumber));
    }
    await page
      .locator('[data-testid=compare-panel] button', { hasText: 'cosine', hasNotText: 'scaled' })
      .click();
    const cosine = ap.attend('cosine', exampleQuery, keys, values);
    assertShows(await shownStages(page, cosine), cosine);
    await page.locator('body').press('1');
  });

  test('every score function, picked by keys 1–6, shows exactly the engine results', async () => {
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
    // while typing in a vector, digits are text, not score-function shortcuts
    await page.focus('[data-testid=query]');
    await page.keyboard.press('End');
    await page.keyboard.type('2');
    assert.equal(await page.inputValue('[data-testid=query]'), '1, 0, 1, 02');
    const last = KINDS.at(-1); // the score function the loop left chosen
    const typed = ap.attend(last, [1, 0, 1, 2], keys, values);
    assertShows(await shownStages(page, typed), typed);
    await page.keyboard.press('Backspace');
    const back = ap.attend(last, exampleQuery, keys, values);
    assertShows(await shownStages(page, back), back);
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
    // The message goes once the engine has answered; clicking while it goes would hit a moving box.
    await page.waitForSelector('[data-testid=error]', { state: 'detached' });
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

  test('adding and removing tokens keeps 3 to 8 of them, and the new token is computed', async () => {
    await resetPage(page);
    const remove = page.locator('button[aria-label^="remove"]');
    assert.equal(await remove.count(), 3);
    assert.equal(await remove.first().isDisabled(), true, 'no fewer than 3 tokens');
    await page.click('text=+ add a token');
    await page.fill('[data-testid=label-3]', 'cat');
    await page.fill('[data-testid=key-3]', '1, 0, 1, 0');
    await page.fill('[data-testid=value-3]', '0, 0, 0, 1');
    const withCat = ap.attend('dot', exampleQuery, [...keys, [1, 0, 1, 0]], [...values, [0, 0, 0, 1]]);
    assertShows(await shownStages(page, withCat), withCat);
    assert.match(await page.textContent('[data-testid=scores-panel]'), /cat/);
    for (let n = 5; n <= 8; n++) await page.click('text=+ add a token');
    assert.equal(await page.locator('text=+ add a token').isDisabled(), true, 'no more than 8 tokens');
    for (let n = 8; n > 3; n--) await remove.last().click();
    const expected = ap.attend('dot', exampleQuery, keys, values);
    assertShows(await shownStages(page, expected), expected);
  });

  test('the URL keeps the score function, temperature and vectors, and a reload restores them', async () => {
    await resetPage(page);
    await page.click('[data-testid=kind-cosine]', { force: true });
    await page.fill('[data-testid=key-0]', '0.6, 0.2, 0.5, 0.3');
    await page.locator('[data-testid=temperature]').evaluate((slider) => {
      slider.value = '0.5';
      slider.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const edited = [[0.6, 0.2, 0.5, 0.3], ...keys.slice(1)];
    const expected = ap.attend('cosine', exampleQuery, edited, values, { temperature: 0.5 });
    await shownStages(page, expected);
    await urlSettled(page);
    assert.match(page.url(), /kind=cosine/);
    await page.reload();
    assertShows(await shownStages(page, expected), expected);
    assert.equal(await page.inputValue('[data-testid=key-0]'), '0.6, 0.2, 0.5, 0.3');
    assert.equal(await page.textContent('[data-testid=temperature-output]'), '0.50');
  });

  test('a loading indicator shows while the wasm loads', async () => {
    const context = await browser.newContext();
    let release;
    const held = new Promise((resolve) => (release = resolve));
    await context.route('**/*.wasm', async (route) => {
      await held;
      await route.continue();
    });
    const slow = await context.newPage();
    watchConsole(slow);
    await slow.goto(`${server.url}#view=sandbox`);
    await slow.waitForSelector('[data-testid=loading]');
    assert.match(await slow.textContent('[data-testid=loading]'), /Loading the WebAssembly engine/);
    release();
    const expected = ap.attend('dot', exampleQuery, keys, values);
    assertShows(await shownStages(slow, expected), expected);
    assert.equal(await slow.locator('[data-testid=loading]').count(), 0);
    await context.close();
  });

  test('when the wasm cannot be loaded the page says so instead of hanging', async () => {
    const context = await browser.newContext();
    await context.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
    const broken = await context.newPage(); // its console is expected to report the 404
    await broken.goto(`${server.url}#view=sandbox`);
    await broken.waitForSelector('[data-testid=engine-error]');
    assert.match(
      await broken.textContent('[data-testid=engine-error]'),
      /The WebAssembly engine did not load/,
    );
    await context.close();
  });

  test('at phone width (375 px) nothing scrolls sideways', async () => {
    const phone = await browser.newPage({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2 });
    watchConsole(phone);
    await phone.goto(`${server.url}#view=sandbox`);
    await phone.click('[data-testid=settings-summary]'); // the editors fold into one line on a phone
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
