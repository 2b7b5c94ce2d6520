// The Sandbox view in headless Chromium: for every score function the numbers on the page are the
// engine's (the same wasm module run here in node gives the expected values), edits recompute,
// the URL keeps them, bad input shows the engine's message, τ and scaled cosine's g are shown as
// set and within the engine's range, the wasm's loading and failing say so, and a phone folds the
// editors without scrolling sideways.
import assert from 'node:assert/strict';
import { beforeEach, test } from 'node:test';

import { formatNumber } from '../../web/shared/lib/format.js';
import { exampleQuery, exampleTokens } from '../../web/features/sandbox/example.js';
import { shot, urlSettled } from './browser.mjs';
import { ap, model } from './engine.mjs';
import { useBrowser } from './fixture.mjs';

const fx = useBrowser();
/** Each test's page: 1440 × 1000, in a fresh context. */
let page;
beforeEach(async () => {
  page = await fx.page();
});

const KINDS = ['dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'];
const keys = exampleTokens.map((t) => t.key);
const values = exampleTokens.map((t) => t.value);

/** Opens the Sandbox afresh and waits for its first numbers: dot attention over the example. */
async function openSandbox(p) {
  await p.goto(fx.link('#view=sandbox'));
  await shownStages(p, ap.attend('dot', exampleQuery, keys, values));
}

/**
 * Waits until the page shows every number of `expected` (an ap.attend result), then returns what it
 * shows, having asserted that they are the engine's. All three stages are waited for: the weights do not depend on the values, so an edit of a
 * value shows the new weights' numbers at once and the context's only when its result lands. A page
 * that never gets there is read as it is, so the assertion names what differs.
 */
async function shownStages(p, expected) {
  const want = {
    score: Array.from(expected.scores, String),
    weight: Array.from(expected.weights, String),
    context: Array.from(expected.context, String),
  };
  await p
    .waitForFunction(
      ([kind, stages]) =>
        document.querySelector('[data-testid=stages]')?.dataset.kind === kind &&
        !document.querySelector('[data-testid=error]') &&
        Object.entries(stages).every(([prefix, values]) => {
          const shown = [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)].filter((el) =>
            /^\w+-\d+$/.test(el.dataset.testid),
          );
          return shown.length === values.length && shown.every((el, j) => el.dataset.value === values[j]);
        }),
      [expected.kind, want],
      // generous: other builds may be keeping the 2 cores busy
      { timeout: 20_000 },
    )
    .catch(() => {});
  const shown = await p.evaluate(() => {
    const read = (prefix) =>
      [...document.querySelectorAll(`[data-testid^="${prefix}-"]`)]
        .filter((el) => /^\w+-\d+$/.test(el.dataset.testid))
        .map((el) => ({ value: Number(el.dataset.value), text: el.textContent.trim() }));
    return { scores: read('score'), weights: read('weight'), context: read('context') };
  });
  assertShows(shown, expected);
  return shown;
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

test('loads the engine and starts on dot attention over Tom / chase / Jerry (0.600 / 0.200 / 0.200)', async () => {
  await openSandbox(page);
  const expected = ap.attend('dot', exampleQuery, keys, values);
  const shown = await shownStages(page, expected);
  assert.deepEqual(
    shown.weights.map((w) => w.text),
    ['0.600', '0.200', '0.200'],
  );
  assert.equal(await page.textContent('[data-testid=isa]'), ap.simdIsa());
  assert.equal(await page.textContent('[data-testid=weights-sum]'), '1.000');
});

test('the comparison shows the weights of all six score functions, each the engine result', async () => {
  await openSandbox(page);
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
  await shownStages(page, cosine);
  await page.locator('body').press('1');
});

test('every score function, picked by keys 1–6, shows exactly the engine results', async () => {
  await openSandbox(page);
  for (const [i, kind] of KINDS.entries()) {
    await page.locator('body').press(String(i + 1));
    const expected = ap.attend(kind, exampleQuery, keys, values);
    await shownStages(page, expected);
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
    await shot(page, `sandbox-${kind}-1440`, { fullPage: true });
  }
  // while typing in a vector, digits are text, not score-function shortcuts
  await page.focus('[data-testid=query]');
  await page.keyboard.press('End');
  await page.keyboard.type('2');
  assert.equal(await page.inputValue('[data-testid=query]'), '1, 0, 1, 02');
  const last = KINDS.at(-1); // the score function the loop left chosen
  const typed = ap.attend(last, [1, 0, 1, 2], keys, values);
  await shownStages(page, typed);
  await page.keyboard.press('Backspace');
  const back = ap.attend(last, exampleQuery, keys, values);
  await shownStages(page, back);
  await page.click('[data-testid=kind-dot]', { force: true });
});

test('typing a key, moving the temperature and unticking a token recompute the numbers', async () => {
  await openSandbox(page);
  await page.fill('[data-testid=key-1]', '0.5, 0.5, 0.5, 0.5');
  const edited = keys.map((k, j) => (j === 1 ? [0.5, 0.5, 0.5, 0.5] : k));
  let expected = ap.attend('dot', exampleQuery, edited, values);
  await shownStages(page, expected);
  assert.notEqual(expected.weights[0], ap.attend('dot', exampleQuery, keys, values).weights[0]);

  await page.locator('[data-testid=temperature]').evaluate((slider) => {
    slider.value = '2';
    slider.dispatchEvent(new Event('input', { bubbles: true }));
  });
  expected = ap.attend('dot', exampleQuery, edited, values, { temperature: 2 });
  await shownStages(page, expected);
  assert.equal(await page.textContent('[data-testid=weights-temperature]'), '2');

  await page.uncheck('[data-testid=attend-2]');
  expected = ap.attend('dot', exampleQuery, edited, values, { temperature: 2, mask: [1, 1, 0] });
  await shownStages(page, expected);
  assert.equal(expected.weights[2], 0);
  await shot(page, 'sandbox-edited-1440', { fullPage: true });

  await page.click('text=Back to Tom / chase / Jerry');
  expected = ap.attend('dot', exampleQuery, keys, values);
  await shownStages(page, expected);
});

test('a bad input shows the engine message in the page, and fixing it brings the numbers back', async () => {
  await openSandbox(page);
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
  await shot(page, 'sandbox-error-1440', { fullPage: true });

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
  await shownStages(page, expected);
  assert.deepEqual(Array.from(expected.weights), [1, 0, 0]);
});

test('adding and removing tokens keeps 3 to 8 of them, and the new token is computed', async () => {
  await openSandbox(page);
  const remove = page.locator('button[aria-label^="remove"]');
  assert.equal(await remove.count(), 3);
  assert.equal(await remove.first().isDisabled(), true, 'no fewer than 3 tokens');
  await page.click('text=+ add a token');
  await page.fill('[data-testid=label-3]', 'cat');
  await page.fill('[data-testid=key-3]', '1, 0, 1, 0');
  await page.fill('[data-testid=value-3]', '0, 0, 0, 1');
  const withCat = ap.attend('dot', exampleQuery, [...keys, [1, 0, 1, 0]], [...values, [0, 0, 0, 1]]);
  await shownStages(page, withCat);
  assert.match(await page.textContent('[data-testid=scores-panel]'), /cat/);
  for (let n = 5; n <= 8; n++) await page.click('text=+ add a token');
  assert.equal(await page.locator('text=+ add a token').isDisabled(), true, 'no more than 8 tokens');
  for (let n = 8; n > 3; n--) await remove.last().click();
  const expected = ap.attend('dot', exampleQuery, keys, values);
  await shownStages(page, expected);
});

test('the URL keeps the score function, temperature and vectors, and a reload restores them', async () => {
  await openSandbox(page);
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
  await shownStages(page, expected);
  assert.equal(await page.inputValue('[data-testid=key-0]'), '0.6, 0.2, 0.5, 0.3');
  assert.equal(await page.textContent('[data-testid=temperature-output]'), '0.50');
});

test('a loading indicator shows while the wasm loads', async () => {
  const context = await fx.context();
  let release;
  const held = new Promise((resolve) => (release = resolve));
  await context.route('**/*.wasm', async (route) => {
    await held;
    await route.continue();
  });
  const slow = await context.newPage();
  await slow.goto(fx.link('#view=sandbox'));
  await slow.waitForSelector('[data-testid=loading]');
  assert.match(await slow.textContent('[data-testid=loading]'), /Loading the WebAssembly engine/);
  release();
  const expected = ap.attend('dot', exampleQuery, keys, values);
  await shownStages(slow, expected);
  assert.equal(await slow.locator('[data-testid=loading]').count(), 0);
});

test('when the wasm cannot be loaded the page says so instead of hanging', async () => {
  // its console reports the 404 and the failed load
  const context = await fx.context({}, { expected: /404|did not load|Failed to load|WebAssembly/ });
  await context.route('**/*.wasm', (route) => route.fulfill({ status: 404, body: 'gone' }));
  const broken = await context.newPage();
  await broken.goto(fx.link('#view=sandbox'));
  await broken.waitForSelector('[data-testid=engine-error]');
  assert.match(await broken.textContent('[data-testid=engine-error]'), /The WebAssembly engine did not load/);
});

test('at phone width (375 px) nothing scrolls sideways', async () => {
  const phone = await fx.page({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2 });
  await phone.goto(fx.link('#view=sandbox'));
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
    await shot(phone, `sandbox-${kind}-375`, { fullPage: true });
  }
});

test('it opens from its tab', async () => {
  await page.goto(fx.link('#view=decode&task=dates&model=additive-bahdanau&input=29+november+2026'));
  await page.waitForSelector('[data-testid=decode]', { timeout: 20_000 });
  await page.click('[data-testid=view-sandbox]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=weight-0]')?.textContent.trim() === '0.600',
  );
  await urlSettled(page);
  assert.match(page.url(), /view=sandbox/);
});

test('it writes τ as set, and says the float32 range for a number it cannot hold', async () => {
  await page.goto(fx.link('#view=sandbox&kind=dot&t=0.1'));
  await page.waitForSelector('[data-testid=weights-temperature]', { timeout: 20_000 });
  assert.equal(await page.textContent('[data-testid=weights-temperature]'), '0.1');
  await page.fill('[data-testid=query]', '1e308, 0, 0, 0');
  const error = page.locator('[data-testid=error]');
  await error.waitFor();
  const text = await error.textContent();
  assert.match(text, /query\[0\] = 1\.000e308 is too large/);
  assert.match(text, /between −3\.403e38 and 3\.403e38/, 'it says the range');
  assert.doesNotMatch(text, /not a finite number/);
  // what float32 holds is taken: the error goes
  await page.fill('[data-testid=query]', '1e-30, 0, 1, 0');
  await error.waitFor({ state: 'detached' });
});

test('scaled cosine: a control for g within the engine’s range, and the bound with it', async () => {
  // the learned g of the shipped dates model, where one key takes nearly all the weight
  const session = model('dates-scaled_cosine-bahdanau').decode('may 3');
  const learned = session.step().scale;
  session.delete();
  const attend = (scale) =>
    ap.attend('scaled_cosine', exampleQuery, keys, values, scale === null ? {} : { params: { scale } });
  const max = ap.limits().maxCosineScale;
  const bound = page.locator('[data-testid=cosine-bound]');
  const settled = (g) =>
    page.waitForFunction(
      (g) => document.querySelector('[data-testid=cosine-bound]')?.getAttribute('data-scale') === String(g),
      g,
      { timeout: 20_000 },
    );
  const weights = () =>
    page.$$eval('[data-testid=weights-panel] [data-testid^=weight-]', (els) =>
      els.filter((e) => e.dataset.value !== undefined).map((e) => Number(e.dataset.value)),
    );

  await page.goto(fx.link('#view=sandbox&kind=scaled_cosine&t=1'));
  await bound.waitFor({ timeout: 20_000 });
  // no g chosen: the engine's default √dk = 2 for keys of size 4
  const byDefault = attend(null);
  assert.equal(byDefault.scale, 2);
  await settled(2);
  assert.equal(Number(await bound.getAttribute('data-value')), ap.cosineWeightBound(3, 2));
  assert.equal(await page.textContent('[data-testid=scale-output]'), '2.000');
  assert.deepEqual(await weights(), Array.from(byDefault.weights));
  const number = page.locator('[data-testid=scale-number]');
  assert.equal(await number.getAttribute('min'), String(-max));
  assert.equal(await number.getAttribute('max'), String(max));
  assert.match((await page.textContent('.inputs')) ?? '', /takes g from −1000 to 1000/);

  // the slider: one step right is g = 2.1 (a float32 in the engine)
  await page.focus('[data-testid=scale]');
  await page.keyboard.press('ArrowRight');
  const g21 = attend(2.1).scale;
  assert.equal(g21, Math.fround(2.1));
  await settled(g21);
  assert.equal(Number(await bound.getAttribute('data-value')), ap.cosineWeightBound(3, g21));
  assert.deepEqual(await weights(), Array.from(attend(2.1).weights));

  // the box: the model's learned g, where one key takes nearly all the weight
  await number.fill(String(learned));
  await settled(learned);
  assert.equal(Number(await bound.getAttribute('data-value')), ap.cosineWeightBound(3, learned));
  assert.equal(await page.textContent('[data-testid=cosine-bound-scale]'), formatNumber(learned));
  assert.equal(await page.textContent('[data-testid=cosine-bound-value]'), '1.000');
  assert.match((await bound.textContent()) ?? '', /The scale g lifts the cosine bound/);
  assert.deepEqual(await weights(), Array.from(attend(learned).weights));
  const tex = await page.locator('[data-testid=scores-panel] .tex').getAttribute('data-tex');
  assert.ok(tex?.startsWith(`e_j = \\underset{g}{${formatNumber(learned)}}\\,`), tex ?? '');
  // τ divides the scores: the bound of g/τ
  await page.fill('[data-testid=temperature]', '2');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=temperature-output]')?.textContent === '2.00',
  );
  await page.waitForFunction(
    (v) => document.querySelector('[data-testid=cosine-bound]')?.getAttribute('data-value') === String(v),
    ap.cosineWeightBound(3, learned / 2),
    { timeout: 20_000 },
  );
  await shot(page, 'sandbox-scaled-cosine-1440');

  // kept in the link: a reload restores g
  await urlSettled(page);
  assert.equal(new URL(page.url()).hash.match(/[#&]g=([^&]*)/)?.[1], String(learned));
  await page.reload();
  await settled(learned);

  // outside the engine's range: its message, and the last result greyed out
  await number.fill(String(2 * max));
  await page.waitForSelector('[data-testid=error]');
  assert.match(
    (await page.textContent('[data-testid=error]')) ?? '',
    /options\.params\.scale: expected a number from -1000 to 1000, got 2000/,
  );
  assert.throws(() => attend(2 * max), { code: 'bad_argument' });
});

test('scaled cosine on a phone (375 × 800): the folded settings say g, and the control opens with them', async () => {
  const phone = await fx.open('#view=sandbox&kind=scaled_cosine&t=1&g=8', {
    viewport: { width: 375, height: 800 },
  });
  await phone.waitForFunction(
    () => document.querySelector('[data-testid=cosine-bound]')?.getAttribute('data-scale') === '8',
    null,
    { timeout: 20_000 },
  );
  assert.match(
    (await phone.textContent('[data-testid=settings-summary]')) ?? '',
    /scaled cosine · g = 8\.000 · τ/,
  );
  assert.equal(
    Number(await phone.getAttribute('[data-testid=cosine-bound]', 'data-value')),
    ap.cosineWeightBound(3, 8),
  );
  await phone.click('[data-testid=settings-summary]');
  await phone.locator('[data-testid=scale]').scrollIntoViewIfNeeded();
  assert.equal(await phone.inputValue('[data-testid=scale-number]'), '8');
  await shot(phone, 'sandbox-scaled-cosine-375');
  const width = await phone.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `no sideways scroll (${width}px)`);
});
