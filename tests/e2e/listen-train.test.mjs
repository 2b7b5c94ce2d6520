// The speech task in the Train view, in headless Chromium with the real trainer and audio modules:
// a short additive run trains (the recipe's audio encoder: the form offers no encoder or sizes),
// its probe heatmap spans the encoder's positions, and "Listen" opens the trained model in the
// Listen view, which transcribes the utterance with it. The figures the view states are those of
// the same run made in node (the trainer module is deterministic), so the transcript shown is the
// trained model's and not the shipped one's.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadAudio } from '../js/load-audio.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { launchBrowser, pageScreenshot, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';
import { openTrain, trainUntilDone } from './train-page.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const built = existsSync(new URL('../../build/wasm/trainer.js', import.meta.url));
const STEPS = 20;
const EXAMPLES = 20;

let server, browser, page;
const consoleErrors = [];

describe('speech in the Train view', { skip: built ? false : 'build/wasm/trainer.js is not built' }, () => {
  before(async () => {
    [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
    page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
    watchConsole(page, consoleErrors);
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test(`${STEPS} steps of speech train, and Listen transcribes with the trained model`, async () => {
    await openTrain(page, server.url, {
      'tr-task': 'speech',
      'tr-scores': 'additive',
      'tr-steps': String(STEPS),
      'tr-eval': '10',
      'tr-examples': String(EXAMPLES),
    });
    assert.equal(await page.locator('[data-testid=train-task-speech]').count(), 1);
    // the recipe fixes the encoder and its sizes: the form offers neither
    assert.equal(await page.locator('[data-testid=train-speech-encoder]').count(), 1);
    assert.equal(await page.locator('[data-testid=train-encoder-transformer]').count(), 0);
    assert.equal(await page.locator('[data-testid=train-embed]').count(), 0);
    assert.equal(await page.locator('[data-testid=train-hidden]').count(), 0);
    await trainUntilDone(page, ['additive']);
    // a speech model opens in the Listen view only, and is not kept among the text models
    assert.equal(await page.locator('[data-testid=run-additive-final-decode]').count(), 0);
    assert.equal(await page.locator('[data-testid=run-additive-keep]').count(), 0);
    await pageScreenshot(page, `${shots}listen-train.png`);

    // The same run in node: its model's figures are what the Listen view must state.
    const T = await loadTrainer();
    const run = new T.TrainRun({
      task: 'speech',
      score: 'additive',
      style: 'bahdanau',
      steps: STEPS,
      seed: 1,
      evalExamples: EXAMPLES,
    });
    run.step(STEPS);
    const au = await loadAudio();
    const model = au.AudioModel.load(run.save());
    const info = model.info();
    run.delete();
    model.delete();
    const percent = (x) => `${(100 * x).toFixed(1)} %`;

    await page.click('[data-testid=run-additive-final-listen]');
    await page.waitForFunction(
      () =>
        /^trained-speech-additive-bahdanau-/.test(
          document.querySelector('[data-testid=listen]')?.getAttribute('data-model') ?? '',
        ),
      null,
      { timeout: 60_000 },
    );
    const figures = await page.locator('[data-testid=listen-figures]').textContent();
    assert.ok(figures?.includes(`character error rate ${percent(info.heldoutCer)}`), figures ?? '');
    assert.ok(figures?.includes(`monotonicity ${info.monotonicity.toFixed(3)}`), figures ?? '');
    const name = await page.locator('[data-testid=listen]').getAttribute('data-model');
    assert.match(name ?? '', new RegExp(`^trained-speech-additive-bahdanau-.*-step${STEPS}$`));
    assert.equal(await page.locator('[data-testid=listen-trained]').count(), 1);
    await pageScreenshot(page, `${shots}listen-trained.png`);
    assert.deepEqual(consoleErrors, []);
  });
});
