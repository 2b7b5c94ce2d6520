// The scenes task in the Train view, in headless Chromium with the real trainer and image modules:
// a short additive run trains (the recipe's conv encoder: the form offers no encoder or sizes), its
// probe heatmap is caption words × the 64 cells, and "Caption" opens the trained model in the
// Caption view; a short location run opens there with where the previous word looked and the
// location features. What the view shows of each trained model is what
// tests/e2e/training_golden.json says the same run gives (the trainer module is deterministic), so
// it is the trained model's and not a shipped one's.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';

import { linkOf, RUNS } from '../js/training-reference.mjs';
import { pageScreenshot, shot } from './browser.mjs';
import { useBrowser } from './fixture.mjs';
import { openTrain, trainInPage, trainUntilDone } from './train-page.mjs';

const fx = useBrowser();
const golden = JSON.parse(readFileSync(new URL('training_golden.json', import.meta.url), 'utf8'));
const percent = (x) => `${(100 * x).toFixed(1)} %`;

test(`${RUNS.scenesAdditive.steps} steps of scenes train, the heatmap is words × 64 cells, and Caption shows the trained model`, async () => {
  const run = RUNS.scenesAdditive;
  const page = await fx.page();
  await openTrain(page, fx.url, linkOf(run));
  assert.equal(await page.locator('[data-testid=train-task-scenes]').count(), 1);
  // the recipe fixes the encoder and its sizes: the form offers neither
  assert.equal(await page.locator('[data-testid=train-scenes-encoder]').count(), 1);
  assert.equal(await page.locator('[data-testid=train-encoder-transformer]').count(), 0);
  assert.equal(await page.locator('[data-testid=train-embed]').count(), 0);
  assert.equal(await page.locator('[data-testid=train-hidden]').count(), 0);
  await trainUntilDone(page, ['additive']);
  const evaluation = await page.evaluate(() => {
    const d = [...globalThis.trainRunData.values()][0];
    const e = d.evaluations[d.evaluations.length - 1];
    return {
      step: e.step,
      rows: e.probe.rows,
      cols: e.probe.cols,
      source: e.probe.source,
      output: e.probe.output,
    };
  });
  assert.equal(evaluation.step, run.steps);
  assert.equal(evaluation.cols, 64);
  assert.equal(evaluation.source.length, 64);
  assert.equal(evaluation.rows, evaluation.output.length);
  // the heatmap draws one column per cell
  assert.equal(await page.locator('[data-testid=run-additive-heatmap]').count(), 1);
  // not kept among the text views' models (their list offers Decode)
  assert.ok(!(await page.locator('body').textContent())?.includes('scenes · additive · bahdanau · step'));
  // a scenes model opens in the Caption view only
  assert.equal(await page.locator('[data-testid=run-additive-final-decode]').count(), 0);
  await pageScreenshot(page, 'train-scenes-1440');

  await page.click('[data-testid=run-additive-final-caption]');
  // at the first word the whole caption is still to come: shown on request, as Decode's output
  await page.waitForSelector('[data-testid=caption-text-reveal]', { timeout: 60_000 });
  assert.equal(await page.locator('[data-testid=caption-text]').count(), 0);
  await page.click('[data-testid=caption-text-reveal]');
  await page.waitForSelector('[data-testid=caption-text]');
  const figures = await page.locator('[data-testid=caption-figures]').textContent();
  const want = golden.scenesAdditive;
  assert.ok(figures?.includes(`held-out exact match ${percent(want.heldoutExactMatch)}`), figures ?? '');
  assert.ok(figures?.includes(`attention on the named object ${percent(want.attentionHits)}`), figures ?? '');
  const name = await page.locator('[data-testid=caption]').getAttribute('data-model');
  // the run's model (named by its step), not the shipped scenes-additive-bahdanau
  assert.match(name ?? '', new RegExp(`^trained-scenes-additive-bahdanau-.*-step${run.steps}$`));
  const text = (await page.locator('[data-testid=caption-text]').textContent())?.trim() ?? '';
  assert.ok(text.length > 0);
  await pageScreenshot(page, 'caption-trained-1440');
});

test(`${RUNS.scenesLocation.steps} steps of scenes location open in Caption with the previous weights and location features of its records`, async () => {
  const run = RUNS.scenesLocation;
  const want = golden.scenesLocation;
  const page = await fx.page();
  /** The data-value of every element whose testid is `prefix` and a number, in that number's order. */
  const values = (prefix) =>
    page.$$eval(
      `[data-testid^="${prefix}"]`,
      (els, p) => {
        const out = [];
        for (const e of els) {
          const rest = e.getAttribute('data-testid')?.slice(p.length) ?? '';
          if (/^\d+$/.test(rest)) out[Number(rest)] = Number(e.getAttribute('data-value'));
        }
        return out;
      },
      prefix,
    );
  await trainInPage(page, fx.url, linkOf(run));

  await page.click('[data-testid=run-location-final-caption]');
  await page.waitForFunction(
    (steps) =>
      new RegExp(`^trained-scenes-location-bahdanau-.*-step${steps}$`).test(
        document.querySelector('[data-testid=caption]')?.getAttribute('data-model') ?? '',
      ),
    run.steps,
    { timeout: 60_000 },
  );
  await page.waitForSelector('[data-testid=caption-previous-panel]');
  // the scene the golden records caption: the view's own when the link names none
  assert.equal(await page.locator('[data-testid=caption]').getAttribute('data-scene'), want.scene);
  // the side panel says which model is shown, and no shipped one is picked
  const modelShown = (await page.locator('[data-testid=caption]').getAttribute('data-model')) ?? '';
  assert.ok((await page.textContent('[data-testid=caption-trained]'))?.includes(modelShown));
  assert.equal(await page.locator('[data-testid^=caption-score-]:checked').count(), 0);
  assert.equal(
    await page.locator('[data-testid=caption]').getAttribute('data-text'),
    want.outputText,
    'the trained model’s caption',
  );
  assert.ok(want.tokens.length >= 3, `a caption of at least three words: “${want.outputText}”`);
  const L = 64;

  // the first word: the engine starts with all the weight on a1
  assert.deepEqual(
    await values('caption-previous-'),
    Array.from({ length: L }, (_, j) => (j === 0 ? 1 : 0)),
  );

  await page.click('[data-testid=caption-step]');
  await page.click('[data-testid=caption-step]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=caption]')?.getAttribute('data-step') === '2',
  );
  const record = want.step2;
  const previous = record.previousWeights;
  assert.deepEqual(previous, want.weights1, 'word 3 reads word 2’s weights');
  assert.deepEqual(await values('caption-previous-'), previous, 'the grid of α_{i−1}');
  assert.deepEqual(await values('caption-previous-scene-cell-'), previous, 'on the picture');
  assert.equal(
    await page.locator('[data-testid=caption-previous-scene]').getAttribute('data-word'),
    want.tokens[1],
  );
  assert.deepEqual(await values('caption-weight-'), record.weights, 'this word’s weights');
  const { data, rows, cols } = record.location;
  assert.equal(rows, L);
  assert.ok(cols > 1, 'several filters');
  const strip = await page.locator('[data-testid=caption-features]').getAttribute('data-values');
  assert.deepEqual(strip?.split(',').map(Number), data, 'every feature, in the strip');
  const column = (c) => Array.from({ length: L }, (_, j) => data[j * cols + c]);
  assert.deepEqual(await values('caption-feature-'), column(0), 'filter 1 over the cells');
  await page.click(`[data-testid=caption-filter-${cols - 1}]`);
  await page.waitForFunction(
    (c) =>
      document.querySelector(`[data-testid=caption-filter-${c}]`)?.getAttribute('aria-pressed') === 'true',
    cols - 1,
  );
  assert.deepEqual(await values('caption-feature-'), column(cols - 1), 'the last filter over the cells');

  // the score function with its location term, in the stage and in the formula card
  const tex = (selector) =>
    page.$$eval(`${selector} [data-tex]`, (els) => els.map((e) => e.getAttribute('data-tex') ?? ''));
  assert.ok((await tex('[data-testid=caption-scores-panel]')).some((t) => t.includes('W_f')));
  await page.locator('[data-testid=caption-formula]').scrollIntoViewIfNeeded();
  await page.waitForSelector('[data-testid=caption-location-note]');
  assert.ok((await tex('[data-testid=caption-formula]')).some((t) => t.includes('W_f')));
  const top = await page.$$eval('[data-testid^=caption-formula-previous-]', (els) =>
    els.map((e) => [
      Number(e.getAttribute('data-testid')?.split('-').pop()),
      Number(e.getAttribute('data-value')),
    ]),
  );
  assert.ok(top.length >= 3, 'the formula card writes out its top cells');
  for (const [j, v] of top) assert.equal(v, previous[j], `α_{i−1} at cell ${j}`);

  // the whole page, the location panel and the formula card, at 1440 and 375 px, in English and Chinese
  const panel = page.locator('[data-testid=caption-previous-panel]');
  const card = page.locator('[data-testid=caption-formula]');
  const shoot = async (name) => {
    await pageScreenshot(page, `caption-location-${name}`);
    await shot(panel, `caption-location-panel-${name}`);
    await shot(card, `caption-location-formula-${name}`);
  };
  await shoot('1440-en');
  await page.click('[data-testid=lang-zh]');
  await page.waitForFunction(() => document.documentElement.lang === 'zh');
  await shoot('1440-zh');
  await page.setViewportSize({ width: 375, height: 800 });
  await shoot('375-zh');
  await page.click('[data-testid=lang-en]');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  await shoot('375-en');
  // nothing wider than the phone's screen
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
  assert.ok(overflow <= 0, `the page is ${overflow} px wider than the screen`);
  // compare every score function: the shipped models' captions beside the trained one, still shown
  await page.setViewportSize({ width: 1440, height: 1000 });
  await page.check('[data-testid=caption-compare]');
  await page.waitForSelector('[data-testid=caption-compare-panel] [data-testid=compare-additive-text]', {
    timeout: 60_000,
  });
  assert.equal(await page.locator('[data-testid=caption]').getAttribute('data-model'), modelShown);
  assert.equal(await page.locator('[data-testid=caption]').getAttribute('data-text'), want.outputText);
  assert.deepEqual(await values('caption-previous-'), previous, 'the trained model’s panels stay');
  // no shipped card is marked as the one shown
  assert.equal(await page.locator('[data-testid=caption-compare-panel] figure.chosen').count(), 0);
  await pageScreenshot(page, 'caption-location-compare-1440-en');
});
