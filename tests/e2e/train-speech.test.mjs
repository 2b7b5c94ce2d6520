// The speech task in the Train view, in headless Chromium with the real trainer and audio modules:
// the score functions offered for each task are the ones the engine's task info lists (location
// among them); a short additive run trains with the recipe's audio encoder and "Listen" opens it;
// a location run races an additive one, each in its Worker, and opens in Listen with its
// previous-weights and location-feature panels, whose exports are the engine's numbers. What the
// page shows of each run is what tests/e2e/training_golden.json says the same run gives (the
// trainer module is deterministic): every report each Worker sent, every evaluation, the trained
// model's figures and its step records for the Listen view's utterance.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';

import { loadAudio } from '../js/load-audio.mjs';
import { canonical, digest, linkOf, RUNS } from '../js/training-reference.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { pageScreenshot } from './browser.mjs';
import { useBrowser } from './fixture.mjs';
import { assertRaceAsGolden, openTrain, trainUntilDone } from './train-page.mjs';

const fx = useBrowser();
const golden = JSON.parse(readFileSync(new URL('training_golden.json', import.meta.url), 'utf8'));
let T, au;
before(async () => {
  [T, au] = await Promise.all([loadTrainer(), loadAudio()]);
});

test("each task offers the score functions of the engine's task info, location among them", async () => {
  const page = await fx.page();
  const offered = () =>
    page.$$eval('[data-testid^=train-score-]:is(input)', (inputs) =>
      inputs.map((i) => ({
        name: i.getAttribute('data-testid')?.replace('train-score-', ''),
        disabled: /** @type {HTMLInputElement} */ (i).disabled,
      })),
    );
  await openTrain(page, fx.url);
  // the default race: the six content-based score functions, location offered beside them
  assert.equal(await page.isChecked('[data-testid=train-score-location]'), false);
  assert.equal(await page.locator('[data-testid^=train-score-]:checked').count(), 6);
  const tasks = T.trainTasks('gru');
  for (const task of ['dates', 'zh', 'reverse', 'scenes', 'speech']) {
    const info = tasks.find((t) => t.name === task);
    assert.ok(info, task);
    assert.ok(
      info.scores.some((s) => s.name === 'location'),
      `the engine trains location for ${task}`,
    );
    await page.click(`[data-testid=train-task-${task}]`);
    for (const style of ['bahdanau', 'luong']) {
      await page.click(`[data-testid=train-style-${style}]`);
      assert.deepEqual(
        await offered(),
        [
          ...info.scores.map((s) => ({ name: s.name, disabled: !s.styles.includes(style) })),
          // the Transformer decoder races beside them on the text tasks (it takes no style)
          ...(['dates', 'zh', 'reverse'].includes(task) ? [{ name: 'transformer', disabled: false }] : []),
        ],
        `${task}, ${style}`,
      );
    }
  }
  // a link may ask for location; the default race stays the six content-based ones
  await openTrain(page, fx.url, { 'tr-task': 'dates', 'tr-scores': 'location,additive' });
  assert.equal(await page.isChecked('[data-testid=train-score-location]'), true);
  assert.equal(await page.isChecked('[data-testid=train-score-dot]'), false);
  assert.equal(await page.locator('[data-testid=train-location-hint]').count(), 1);
});

test(`${RUNS.speechAdditive.steps} steps of speech train, and Listen transcribes with the trained model`, async () => {
  const run = RUNS.speechAdditive;
  const want = golden.speechAdditive;
  const page = await fx.page();
  await openTrain(page, fx.url, linkOf(run));
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
  await pageScreenshot(page, 'train-speech-1440');

  await page.click('[data-testid=run-additive-final-listen]');
  await page.waitForFunction(
    () =>
      /^trained-speech-additive-bahdanau-/.test(
        document.querySelector('[data-testid=listen]')?.getAttribute('data-model') ?? '',
      ),
    null,
    { timeout: 60_000 },
  );
  const percent = (x) => `${(100 * x).toFixed(1)} %`;
  const figures = await page.locator('[data-testid=listen-figures]').textContent();
  assert.ok(figures?.includes(`character error rate ${percent(want.heldoutCer)}`), figures ?? '');
  assert.ok(figures?.includes(`monotonicity ${want.monotonicity.toFixed(3)}`), figures ?? '');
  const name = await page.locator('[data-testid=listen]').getAttribute('data-model');
  assert.match(name ?? '', new RegExp(`^trained-speech-additive-bahdanau-.*-step${run.steps}$`));
  assert.equal(await page.locator('[data-testid=listen-trained]').count(), 1);
  await pageScreenshot(page, 'listen-trained-1440');
});

test(`${RUNS.speechRace.steps} steps of location-aware speech race additive as the golden runs, open in Listen, and export its numbers`, async () => {
  const run = RUNS.speechRace;
  const want = golden.speechRace;
  const page = await fx.page();
  await openTrain(page, fx.url, linkOf(run));
  assert.equal(await page.isChecked('[data-testid=train-score-location]'), true);
  await trainUntilDone(page, run.scores);
  assert.equal(await page.locator('[data-testid^=run-]:is(article)').count(), 2, 'two runs, side by side');
  await pageScreenshot(page, 'train-location-1440');
  // Each report is the golden run's over the chunk of steps the Worker took; each evaluation its own.
  const sent = await assertRaceAsGolden(page, run, want);
  for (const { evaluations } of sent)
    assert.ok(evaluations[2].weights.length > 100, 'the probe alignment spans the encoder positions');
  assert.notDeepEqual(sent[0].reports.at(-1).loss, sent[1].reports.at(-1).loss, 'two different models');

  // Listen: the trained location model, with its previous weights and location features.
  await page.click('[data-testid=run-location-final-listen]');
  await page.waitForFunction(
    (steps) =>
      new RegExp(`^trained-speech-location-bahdanau-.*-step${steps}$`).test(
        document.querySelector('[data-testid=listen]')?.getAttribute('data-model') ?? '',
      ),
    run.steps,
    { timeout: 60_000 },
  );
  await page.waitForSelector('[data-testid=listen-previous-panel]');
  await page.waitForSelector('[data-testid=listen-features]');
  await page.click('[data-testid=listen-step]');
  await page.waitForFunction(
    () => document.querySelector('[data-testid=listen]')?.getAttribute('data-step') === '1',
  );
  await pageScreenshot(page, 'listen-trained-location-1440');

  const grab = async (what) => {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.click(`[data-testid=listen-export-${what}]`),
    ]);
    return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
  };
  const json = await grab('json');
  assert.match(json.name, /^trained-speech-location-bahdanau-.*\.trace\.json$/);
  const trace = JSON.parse(json.bytes.toString());
  const name = await page.locator('[data-testid=listen]').getAttribute('data-model');
  assert.equal(trace.model, name);
  assert.equal(trace.score, 'location');

  // the utterance is the audio module's in node; the step records the golden run's
  const listened = want.listen;
  assert.deepEqual(trace.input, listened.input);
  const utterance = au.synthesize(trace.input);
  assert.equal(trace.text, utterance.text);
  assert.equal(canonical(trace.frames), canonical(utterance.frames));
  assert.equal(canonical(trace.spans), canonical(utterance.spans));
  assert.equal(trace.reduction, listened.reduction);
  assert.equal(trace.outputText, listened.outputText);
  assert.equal(digest(trace.steps), listened.steps, 'every step record, number for number');
  assert.ok(trace.steps[1].previousWeights.length > 0, 'location records carry the previous weights');
  assert.deepEqual(trace.steps[1].previousWeights, trace.steps[0].weights);

  const csv = await grab('csv');
  assert.match(csv.name, /\.alignment\.csv$/);
  const lines = csv.bytes.toString().trimEnd().split('\n');
  const steps = trace.steps;
  const L = steps[0].weights.length;
  const reduction = trace.reduction;
  assert.equal(lines[0], 'step,letter,position,first_frame,last_frame,weight');
  assert.equal(lines.length, 1 + steps.length * L, 'one cell per letter × encoder position');
  const row = lines[1 + 2 * L + 7].split(',');
  assert.deepEqual(row.slice(0, 5), [
    '2',
    steps[2].token,
    '7',
    String(7 * reduction),
    String(8 * reduction - 1),
  ]);
  assert.equal(Number(row[5]), steps[2].weights[7]);

  const png = await grab('png');
  assert.match(png.name, /\.letter2\.png$/);
  assert.deepEqual([...png.bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10]);
});
