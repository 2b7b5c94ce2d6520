// The scenes task in the Train view, in headless Chromium with the real trainer and image
// modules: a 30-step additive run trains, its probe heatmap is caption words × the 64 cells, and
// "Caption" opens the trained model in the Caption view, which captions the scene with it. The
// figures the view states are those of the same run made in node (the trainer module is
// deterministic), so the caption shown is the trained model's and not a shipped one's.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadImaging } from '../js/load-imaging.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { launchBrowser, pageScreenshot, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';
import { openTrain, trainUntilDone } from './train-page.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const built = existsSync(new URL('../../build/wasm/trainer.js', import.meta.url));
const STEPS = 30;

let server, browser, page;
const consoleErrors = [];

describe('scenes in the Train view', { skip: built ? false : 'build/wasm/trainer.js is not built' }, () => {
  before(async () => {
    [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
    watchConsole(page, consoleErrors);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('30 steps of scenes train, the heatmap is words × 64 cells, and Caption shows the trained model', async () => {
    await openTrain(page, server.url, {
      'tr-task': 'scenes',
      'tr-scores': 'additive',
      'tr-steps': String(STEPS),
      'tr-eval': '10',
    });
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
    assert.equal(evaluation.step, STEPS);
    assert.equal(evaluation.cols, 64);
    assert.equal(evaluation.source.length, 64);
    assert.equal(evaluation.rows, evaluation.output.length);
    // the heatmap draws one column per cell
    const heatmap = page.locator('[data-testid=run-additive-heatmap]');
    assert.equal(await heatmap.count(), 1);
    // not kept among the text views' models (their list offers Decode)
    assert.ok(!(await page.locator('body').textContent())?.includes('scenes · additive · bahdanau · step'));
    // a scenes model opens in the Caption view only
    assert.equal(await page.locator('[data-testid=run-additive-final-decode]').count(), 0);
    await pageScreenshot(page, `${shots}train-scenes.png`);

    // The same run in node: its model's held-out figures are what the Caption view must state.
    const T = await loadTrainer();
    const run = new T.TrainRun({
      task: 'scenes',
      score: 'additive',
      style: 'bahdanau',
      steps: STEPS,
      seed: 1,
    });
    run.step(STEPS);
    const im = await loadImaging();
    const model = im.ImageModel.load(run.save());
    const info = model.info();
    run.delete();
    model.delete();
    const percent = (x) => `${(100 * x).toFixed(1)} %`;

    await page.click('[data-testid=run-additive-final-caption]');
    await page.waitForSelector('[data-testid=caption-text]', { timeout: 60_000 });
    const figures = await page.locator('[data-testid=caption-figures]').textContent();
    assert.ok(figures?.includes(`held-out exact match ${percent(info.heldoutExactMatch)}`), figures ?? '');
    assert.ok(
      figures?.includes(`attention on the named object ${percent(info.attentionHits)}`),
      figures ?? '',
    );
    const name = await page.locator('[data-testid=caption]').getAttribute('data-model');
    // the run's model (named by its step), not the shipped scenes-additive-bahdanau
    assert.match(name ?? '', new RegExp(`^trained-scenes-additive-bahdanau-.*-step${STEPS}$`));
    const text = (await page.locator('[data-testid=caption-text]').textContent())?.trim() ?? '';
    assert.ok(text.length > 0);
    await pageScreenshot(page, `${shots}train-scenes-caption.png`);
    assert.deepEqual(consoleErrors, []);
  });
});
