// The what-ifs on the page: a masked source token, a pinned step (one-hot by a click, and weights
// set by dragging a bar), the attention temperature. The numbers the page shows (this step's
// weights, its context vector, the taken token's probability) equal the engine's run in node with
// the same what-ifs, the later steps follow, the link restores the same decode, Compare shows the
// model with and without them, and the fixed-vector baseline in Compare shows no heatmap.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { launchBrowser, pageScreenshot, urlSettled, waitForStep } from './browser.mjs';
import { serveBuild } from './static-server.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
const modelFile = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

const MODEL = 'zh-additive-bahdanau';
const INPUT = 'tom chased jerry in the kitchen';
let server, browser, page, ap, engineModel;
const consoleErrors = [];
const hash = (fields) =>
  `#${new URLSearchParams({ view: 'decode', task: 'zh', lang: 'en', reveal: '1', ...fields })}`;

/**
 * The engine's decode of INPUT in node with `items` applied before their steps, in the order the
 * page's worker applies them (masks, unmasks, pins, temperatures).
 */
function reference(items) {
  const session = engineModel.decode(INPUT, { topK: 5 });
  try {
    const steps = [];
    while (!session.done()) {
      const i = session.length();
      for (const kind of ['mask', 'unmask', 'pin', 'temperature'])
        for (const w of items.filter((w) => w.kind === kind && w.step === i))
          session.whatIf({ [kind]: kind === 'temperature' ? w.tau : (w.weights ?? w.token) });
      steps.push(session.step());
    }
    return steps;
  } finally {
    session.delete();
  }
}

// The link's what-ifs as the reference takes them (the URL is read back by web/shared/text/whatif-link.js).
async function linkedItems() {
  await urlSettled(page);
  const { readWhatIfUrl } = await import('../../web/shared/text/whatif-link.js');
  return readWhatIfUrl(new URL(page.url()).hash);
}

const values = (testid) =>
  page.$eval(`[data-testid=${testid}]`, (el) =>
    /** @type {HTMLElement} */ (el).dataset.values.split(',').map(Number),
  );
const dataValue = (testid) =>
  page.$eval(`[data-testid="${testid}"]`, (el) => Number(/** @type {HTMLElement} */ (el).dataset.value));

/** The shown step's weights, context and taken token's probability equal the engine's record. */
async function assertShows(record) {
  await waitForStep(page, MODEL, record.index);
  for (let j = 0; j < record.weights.length; j++) {
    assert.equal(await dataValue(`weight-${j}`), record.weights[j], `step ${record.index}: weight ${j}`);
    assert.equal(await dataValue(`whatif-value-${j}`), record.weights[j]);
  }
  const context = await values('context');
  assert.equal(context.length, record.context.length);
  context.forEach((c, d) => assert.equal(c, record.context[d], `context[${d}]`));
  const taken = record.top.findIndex((t) => t.id === record.tokenId);
  const prob = await page.$eval(`[data-testid=top-${taken}] .num`, (el) =>
    Number(/** @type {HTMLElement} */ (el).dataset.value),
  );
  assert.equal(prob, record.probs[record.tokenId]);
  assert.equal(
    await page.getAttribute(`[data-testid=output-${record.index}]`, 'data-intervened'),
    String(record.intervened),
  );
}

// A new hash on the same page is a reload by the page itself: from a blank page it is a plain load.
async function open(hashPart) {
  await page.goto('about:blank');
  await page.goto(server.url + hashPart);
}

async function goToStep(i) {
  await page.click(`[data-testid=output-${i}]`);
  await waitForStep(page, MODEL, i);
}

const BASELINE = 'zh-none-bahdanau';

/** The file an export button of Compare downloads. */
async function grab(what) {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.click(`[data-testid=compare-export-${what}]`),
  ]);
  return readFileSync(await download.path()).toString();
}

before(async () => {
  [server, browser, ap] = await Promise.all([serveBuild(), launchBrowser(), loadEngine()]);
  engineModel = ap.Model.load(modelFile(MODEL));
  page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
  page.on('console', (m) => m.type() === 'error' && consoleErrors.push(m.text()));
  page.on('pageerror', (e) => consoleErrors.push(String(e)));
  mkdirSync(shots, { recursive: true });
});
after(async () => {
  engineModel?.delete();
  await browser?.close();
  await server?.close();
});

describe('what-ifs in Decode', () => {
  test('a masked source token: weight 0 from this step on, struck, and the later steps follow', async () => {
    await open(hash({ model: 'additive-bahdanau', input: INPUT, reveal: '1' }));
    await waitForStep(page, MODEL, 0);
    const plain = reference([]);
    await assertShows(plain[0]);
    await goToStep(1);
    await page.click('[data-testid=whatif-mask-2]');
    const expected = reference([{ kind: 'mask', step: 1, token: 2 }]);
    assert.deepEqual(await linkedItems(), [{ kind: 'mask', step: 1, token: 2 }]);
    await assertShows(expected[1]);
    assert.equal(expected[1].weights[2], 0);
    assert.match(await page.textContent('[data-testid=weights-panel-mark]'), /masked: “jerry”/);
    assert.match(await page.getAttribute('[data-testid=source-2]', 'class'), /masked/);
    // Step 1 is before the mask: the model's own.
    await goToStep(0);
    await assertShows(expected[0]);
    assert.equal(await page.locator('[data-testid=weights-panel-mark]').count(), 0);
    const last = expected.length - 1;
    await goToStep(last);
    await assertShows(expected[last]);
    const output = await page.$$eval('[data-testid=output-tokens] button', (b) =>
      b.map((x) => x.textContent),
    );
    assert.deepEqual(
      output,
      expected.map((s) => s.token),
    );
    // At a later step the same control takes the mask back from there on.
    await goToStep(3);
    await page.click('[data-testid=whatif-mask-2]');
    const unmasked = [
      { kind: 'mask', step: 1, token: 2 },
      { kind: 'unmask', step: 3, token: 2 },
    ];
    assert.deepEqual(await linkedItems(), unmasked);
    const back = reference(unmasked);
    await assertShows(back[3]);
    assert.equal(back[3].masked, null);
    assert.equal(back[2].weights[2], 0);
    await goToStep(2);
    await assertShows(back[2]);
    await page.click('[data-testid=whatif-clear]');
    await assertShows(plain[2]);
    assert.equal(await page.locator('[data-testid=whatif-items]').count(), 0);
  });

  test('a pinned step: one-hot by a click, then weights set by dragging a bar, renormalised by the engine', async () => {
    await open(hash({ model: 'additive-bahdanau', input: INPUT, step: '2' }));
    await waitForStep(page, MODEL, 2);
    await page.click('[data-testid=whatif-pin-0]');
    let items = [{ kind: 'pin', step: 2, token: 0 }];
    assert.deepEqual(await linkedItems(), items);
    let expected = reference(items);
    assert.deepEqual(Array.from(expected[2].weights.slice(0, 2)), [1, 0]);
    await assertShows(expected[2]);
    assert.match(await page.textContent('[data-testid=context-panel-mark]'), /pinned on “tom”/);
    // Token 0's bar let go at 0.5: the weights sent are [0.5, 0, …], which the engine makes
    // [1, 0, …] again; the bar shows the engine's 1, not where it was let go.
    await page.$eval('[data-testid=whatif-weight-0]', (el) => {
      const input = /** @type {HTMLInputElement} */ (el);
      input.value = '0.5';
      input.dispatchEvent(new Event('input', { bubbles: true }));
      input.dispatchEvent(new Event('change', { bubbles: true }));
    });
    items = await linkedItems();
    assert.deepEqual(items, [{ kind: 'pin', step: 2, weights: [0.5, 0, 0, 0, 0, 0] }]);
    await assertShows(reference(items)[2]);
    assert.equal(await page.inputValue('[data-testid=whatif-weight-0]'), '1');
    // Drag the bar of token 1 to about 0.8 of its track: the page sends the weights as set.
    await page.locator('[data-testid=whatif-weight-1]').scrollIntoViewIfNeeded();
    const bar = await page.locator('[data-testid=whatif-weight-1]').boundingBox();
    assert.ok(bar);
    await page.mouse.move(bar.x + 6, bar.y + bar.height / 2);
    await page.mouse.down();
    await page.mouse.move(bar.x + bar.width * 0.5, bar.y + bar.height / 2, { steps: 5 });
    await page.mouse.move(bar.x + bar.width * 0.8, bar.y + bar.height / 2, { steps: 5 });
    await page.mouse.up();
    items = await linkedItems();
    assert.equal(items.length, 1);
    const [pin] = items;
    assert.ok(pin.kind === 'pin' && 'weights' in pin, JSON.stringify(pin));
    assert.equal(pin.weights[0], 1, 'token 0 keeps the engine’s 1');
    assert.ok(pin.weights[1] > 0.6 && pin.weights[1] < 0.95, `dragged to ${pin.weights[1]}`);
    expected = reference(items);
    const sum = pin.weights.reduce((a, b) => a + b);
    assert.ok(Math.abs(expected[2].weights[1] - pin.weights[1] / sum) < 1e-6);
    await assertShows(expected[2]);
    assert.equal(expected[2].pin, 'weights');
    // The step after the pin is the model's own attention again, from the pinned step's state.
    await goToStep(3);
    await assertShows(expected[3]);
    assert.equal(expected[3].intervened, 0);
    await pageScreenshot(page, `${shots}whatif-pin-1440.png`);
  });

  test('the attention temperature from this step on, in the engine’s range', async () => {
    await open(hash({ model: 'additive-bahdanau', input: INPUT, step: '1' }));
    await waitForStep(page, MODEL, 1);
    const limits = ap.limits();
    const slider = page.locator('[data-testid=whatif-temperature]');
    assert.equal(Number(await slider.getAttribute('min')), Math.log10(limits.minTemperature));
    assert.equal(Number(await slider.getAttribute('max')), Math.log10(limits.maxTemperature));
    // log10 τ = 0.3: τ = 2 (the slider's value rounded to 3 digits)
    await slider.focus();
    for (let k = 0; k < 30; k++) await page.keyboard.press('ArrowRight');
    const items = await linkedItems();
    assert.deepEqual(items, [{ kind: 'temperature', step: 1, tau: 2 }]);
    const expected = reference(items);
    for (const i of [1, 2]) {
      await goToStep(i);
      await assertShows(expected[i]);
      assert.equal(await page.textContent('[data-testid=weights-temperature]'), '2');
      assert.match(await page.textContent('[data-testid=scores-panel-mark]'), /τ\s=\s2/);
    }
    await goToStep(0);
    assert.equal(await page.textContent('[data-testid=weights-temperature]'), '1');
    assert.deepEqual(consoleErrors, []);
  });

  test('a link restores the same decode, and a malformed or refused what-if is noted', async () => {
    const items = [
      { kind: 'mask', step: 1, token: 2 },
      { kind: 'pin', step: 3, weights: [1, 3, 0, 0, 0, 0] },
      { kind: 'temperature', step: 2, tau: 0.5 },
    ];
    const expected = reference(items);
    await page.goto(
      server.url +
        hash({ model: 'additive-bahdanau', input: INPUT, step: '3', wi: 'm2@1,p1/3/0/0/0/0@3,t0.5@2' }),
    );
    await assertShows(expected[3]);
    assert.deepEqual(await linkedItems(), items);
    assert.match(await page.textContent('[data-testid=formula-whatif]'), /pinned weights/);
    await pageScreenshot(page, `${shots}whatif-decode-1440.png`);
    await page.reload();
    await assertShows(expected[3]);
    await goToStep(2);
    await assertShows(expected[2]);
    // A malformed item is left out with a note; a mask past the input is the engine's to refuse.
    await page.goto(
      server.url + hash({ model: 'additive-bahdanau', input: INPUT, step: '1', wi: 'm2@1,zz' }),
    );
    await assertShows(reference([{ kind: 'mask', step: 1, token: 2 }])[1]);
    assert.match(await page.textContent('body'), /“zz”.*the others are kept/);
    await open(hash({ model: 'additive-bahdanau', input: INPUT, step: '1', wi: 'm40@1' }));
    await assertShows(reference([])[1]);
    assert.match(await page.textContent('body'), /The engine refused the what-ifs/);
    await urlSettled(page);
    assert.equal(new URL(page.url()).hash.includes('wi='), false);
    assert.deepEqual(consoleErrors, []);
  });
});

describe('what-ifs and the baseline in Compare', () => {
  test('the chosen model with and without the what-ifs, and the baseline without a heatmap', async () => {
    const items = [{ kind: 'mask', step: 1, token: 2 }];
    const withIt = reference(items);
    const without = reference([]);
    const baselineModel = ap.Model.load(modelFile(BASELINE));
    const baselineSession = baselineModel.decode(INPUT);
    baselineSession.run();
    const baselineText = baselineSession.outputText();
    baselineSession.delete();
    baselineModel.delete();
    await page.goto(
      server.url + hash({ view: 'compare', model: 'additive-bahdanau', input: INPUT, wi: 'm2@1' }),
    );
    const whatIfName = `${MODEL}~whatif`;
    await page.locator(`[data-testid="output-${whatIfName}"]`).waitFor({ timeout: 20_000 });
    const text = (steps) =>
      steps
        .filter((s) => s.token !== '</s>')
        .map((s) => s.token)
        .join(' ');
    assert.equal(await page.textContent(`[data-testid="output-${whatIfName}"]`), text(withIt));
    assert.match(await page.textContent(`[data-testid="whatif-tag-${whatIfName}"]`), /with what-ifs/);
    assert.match(
      await page.textContent(`[data-testid="whatif-list-${whatIfName}"]`),
      /mask “jerry” from step 2/,
    );
    // The heatmap cells are the engine's weights with the what-if: 0 on the masked token from step 2.
    for (const i of [0, 1, 2])
      for (const j of [1, 2]) {
        const cell = Number(
          await page.getAttribute(`[data-testid="cmp-${whatIfName}-${i}-${j}"]`, 'data-value'),
        );
        assert.equal(cell, withIt[i].weights[j], `with: step ${i}, token ${j}`);
        const plain = Number(await page.getAttribute(`[data-testid="cmp-${MODEL}-${i}-${j}"]`, 'data-value'));
        assert.equal(plain, without[i].weights[j], `without: step ${i}, token ${j}`);
      }
    // Where the what-if moved the weights most: the engine's weightDifference of the two decodes.
    const diff = ap.weightDifference(
      without.map((s) => s.weights),
      withIt.map((s) => s.weights),
    );
    await page.locator(`[data-testid="diff-${whatIfName}"]`).waitFor();
    assert.equal(
      Number(await page.getAttribute(`[data-testid="diff-${whatIfName}"]`, 'data-value')),
      diff.value,
    );

    // The baseline: its output, the note in place of a heatmap.
    await page.locator(`[data-testid="output-${BASELINE}"]`).waitFor();
    assert.equal(await page.textContent(`[data-testid="output-${BASELINE}"]`), baselineText);
    assert.match(
      await page.textContent(`[data-testid="cmp-${BASELINE}"]`),
      /no attention: one fixed context for every step/,
    );
    assert.equal(await page.locator(`[data-testid="cmp-${BASELINE}-0-0"]`).count(), 0);

    const json = JSON.parse(await grab('json'));
    const baseline = json.models.find((m) => m.name === BASELINE);
    assert.equal(baseline.outputText, baselineText);
    assert.ok(baseline.steps.every((s) => s.weights === null && s.scores === null));
    const withEntry = json.models.find((m) => m.name === whatIfName);
    assert.deepEqual(withEntry.whatIfs, items);
    assert.deepEqual(withEntry.steps[1].weights, Array.from(withIt[1].weights));
    const csv = (await grab('csv')).trimEnd().split('\n');
    const baselineRows = csv.filter((line) => line.startsWith(`${BASELINE},`));
    assert.ok(baselineRows.length > 0);
    for (const row of baselineRows) assert.match(row, /,,$/, 'no score, no weight');
    const svg = await grab('svg');
    assert.match(svg, /no attention: one fixed context for every step/);
    assert.match(svg, new RegExp(`${whatIfName}`));
    await pageScreenshot(page, `${shots}whatif-compare-1440.png`);
    await page.setViewportSize({ width: 375, height: 800 });
    await pageScreenshot(page, `${shots}whatif-compare-375.png`);
    assert.deepEqual(consoleErrors, []);
  });

  test('the what-if controls on a phone, in Chinese', async () => {
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(
      server.url +
        hash({ model: 'additive-bahdanau', input: INPUT, step: '3', lang: 'zh', wi: 'm2@1,p0@3,t0.5@2' }),
    );
    await waitForStep(page, MODEL, 3);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `the page is ${overflow}px wider than the screen`);
    await page.locator('[data-testid=whatif-panel]').scrollIntoViewIfNeeded();
    assert.equal(await page.textContent('#whatif-title'), '假如……');
    assert.match(await page.textContent('[data-testid=whatif-items]'), /从第 2 步起屏蔽“jerry”/);
    await page.screenshot({ path: `${shots}whatif-375.png` });
    assert.deepEqual(consoleErrors, []);
  });
});
