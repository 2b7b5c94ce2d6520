// Location-aware attention in the Train view and the Listen view's exports, in headless Chromium
// with the real trainer and audio modules:
// - the score functions offered for each task are the ones the engine's task info lists (location
//   among them), each enabled exactly when the chosen style is one the engine lists for it;
// - a short location run of speech races an additive one, each in its Worker, and every progress
//   report and evaluation each sent equals the same run made in node (the trainer module, stepped
//   in the same chunks);
// - the location model opens in Listen with the previous-weights and location-feature panels, and Listen's
//   exports are the engine's numbers: the JSON's step records, frames and spans equal the audio
//   module's in node for the same model and utterance, the CSV has one cell per letter × encoder
//   position with the records' weights, the PNG is a PNG;
// - a location run of dates opens in Decode, whose previous-weights bars and location features are
//   the step records of the same model decoded in node.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadAudio } from '../js/load-audio.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { launchBrowser, pageScreenshot, waitForStep, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';
import { openTrain, trainInPage, trainUntilDone } from './train-page.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const built = existsSync(new URL('../../build/wasm/trainer.js', import.meta.url));
const STEPS = 10;
const EXAMPLES = 10;

let server, browser, page, T;
const consoleErrors = [];

// The records as the export writes them: typed arrays as plain arrays (JSON of the same values).
const plain = (value) =>
  JSON.parse(
    JSON.stringify(value, (_, v) => (ArrayBuffer.isView(v) ? Array.from(/** @type {any} */ (v)) : v)),
  );

const offered = () =>
  page.$$eval('[data-testid^=train-score-]:is(input)', (inputs) =>
    inputs.map((i) => ({
      name: i.getAttribute('data-testid')?.replace('train-score-', ''),
      disabled: /** @type {HTMLInputElement} */ (i).disabled,
    })),
  );

describe(
  'location-aware attention in the Train view',
  { skip: built ? false : 'build/wasm/trainer.js is not built' },
  () => {
    before(async () => {
      [server, browser, T] = await Promise.all([serveBuild(), launchBrowser(), loadTrainer()]);
      page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
      watchConsole(page, consoleErrors);
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    test("each task offers the score functions of the engine's task info, location among them", async () => {
      await openTrain(page, server.url);
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
            info.scores.map((s) => ({ name: s.name, disabled: !s.styles.includes(style) })),
            `${task}, ${style}`,
          );
        }
      }
      // a link may ask for location; the default race stays the six content-based ones
      await openTrain(page, server.url, { 'tr-task': 'dates', 'tr-scores': 'location,additive' });
      assert.equal(await page.isChecked('[data-testid=train-score-location]'), true);
      assert.equal(await page.isChecked('[data-testid=train-score-dot]'), false);
      assert.equal(await page.locator('[data-testid=train-location-hint]').count(), 1);
    });

    test(`${STEPS} steps of location-aware speech race additive as in node, open in Listen, and export its numbers`, async () => {
      await openTrain(page, server.url, {
        'tr-task': 'speech',
        'tr-scores': 'additive,location',
        'tr-steps': String(STEPS),
        'tr-eval': '5',
        'tr-examples': String(EXAMPLES),
      });
      assert.equal(await page.isChecked('[data-testid=train-score-location]'), true);
      await trainUntilDone(page, ['additive', 'location']);
      assert.equal(
        await page.locator('[data-testid^=run-]:is(article)').count(),
        2,
        'two runs, side by side',
      );
      await pageScreenshot(page, `${shots}train-location.png`);
      const sent = await page.evaluate(() =>
        [...globalThis.trainRunData.values()].map((d) => ({
          reports: d.reports,
          evaluations: d.evaluations.map((e) => ({
            step: e.step,
            heldoutExactMatch: e.heldoutExactMatch,
            examples: e.examples,
            source: e.probe.source,
            output: e.probe.output,
            weights: Array.from(e.probe.weights),
          })),
        })),
      );
      assert.equal(sent.length, 2);

      // The same runs in node, stepped in the chunks each Worker took: each report is the node run's.
      const fields = ['step', 'sequences', 'loss', 'tokenAccuracy', 'gradNorm', 'learningRate', 'done'];
      const pick = (p) => Object.fromEntries(fields.map((f) => [f, p[f]]));
      let saved = new Uint8Array(0);
      for (const [k, score] of ['additive', 'location'].entries()) {
        const { reports, evaluations } = sent[k];
        assert.equal(reports.at(-1).step, STEPS);
        assert.deepEqual(
          evaluations.map((e) => e.step),
          [0, 5, 10],
        );
        const run = new T.TrainRun({
          task: 'speech',
          score,
          style: 'bahdanau',
          steps: STEPS,
          seed: 1,
          evalExamples: EXAMPLES,
        });
        let at = 0;
        const expected = [];
        const evaluate = () => {
          const e = run.evaluate(EXAMPLES);
          expected.push({
            step: e.step,
            heldoutExactMatch: e.heldoutExactMatch,
            examples: e.examples,
            source: e.probe.source,
            output: e.probe.output,
            weights: Array.from(e.probe.weights),
          });
        };
        evaluate();
        for (const report of reports) {
          const p = run.step(report.step - at);
          at = report.step;
          assert.deepEqual(pick(report), pick(p), `${score}: the report at step ${at}`);
          if (at % 5 === 0) evaluate();
        }
        assert.deepEqual(evaluations, expected, score);
        assert.ok(evaluations[2].weights.length > 100, 'the probe alignment spans the encoder positions');
        const shown = await page.locator(`[data-testid=run-${score}-loss]`).getAttribute('data-value');
        assert.equal(Number(shown), reports.at(-1).loss);
        if (score === 'location') saved = run.save();
        run.delete();
      }
      assert.notDeepEqual(sent[0].reports.at(-1).loss, sent[1].reports.at(-1).loss, 'two different models');
      const au = await loadAudio();
      const model = au.AudioModel.load(saved);

      // Listen: the trained location model, with its previous weights and location features.
      await page.click('[data-testid=run-location-final-listen]');
      await page.waitForFunction(
        () =>
          /^trained-speech-location-bahdanau-.*-step10$/.test(
            document.querySelector('[data-testid=listen]')?.getAttribute('data-model') ?? '',
          ),
        null,
        { timeout: 60_000 },
      );
      await page.waitForSelector('[data-testid=listen-previous-panel]');
      await page.waitForSelector('[data-testid=listen-features]');
      await page.click('[data-testid=listen-step]');
      await page.waitForFunction(
        () => document.querySelector('[data-testid=listen]')?.getAttribute('data-step') === '1',
      );
      await pageScreenshot(page, `${shots}listen-train-location.png`);

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

      // the audio module in node: the same utterance through the same model
      const utterance = au.synthesize(trace.input);
      const session = model.listen(utterance.frames, { topK: 5 });
      const steps = session.run();
      const reduction = session.reduction();
      const outputText = session.outputText();
      session.delete();
      model.delete();
      assert.equal(trace.text, utterance.text);
      assert.deepEqual(trace.frames, plain(utterance.frames));
      assert.deepEqual(trace.spans, plain(utterance.spans));
      assert.equal(trace.reduction, reduction);
      assert.equal(trace.outputText, outputText);
      assert.deepEqual(trace.steps, plain(steps));
      assert.ok(trace.steps[1].previousWeights.length > 0, 'location records carry the previous weights');
      assert.deepEqual(trace.steps[1].previousWeights, plain(steps[0].weights));

      const csv = await grab('csv');
      assert.match(csv.name, /\.alignment\.csv$/);
      const lines = csv.bytes.toString().trimEnd().split('\n');
      const L = steps[0].weights.length;
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
      assert.deepEqual(consoleErrors, []);
    });
    test('a location run of dates opens in Decode with the previous weights and location features of its records', async () => {
      await trainInPage(
        page,
        server.url,
        {
          'tr-task': 'dates',
          'tr-scores': 'location',
          'tr-steps': '20',
          'tr-eval': '10',
          'tr-examples': '20',
        },
        120_000,
      );
      const run = new T.TrainRun({
        task: 'dates',
        score: 'location',
        style: 'bahdanau',
        steps: 20,
        seed: 1,
        evalExamples: 20,
      });
      run.step(20);
      const model = T.Model.load(run.save());
      run.delete();
      const probe = T.trainTasks('gru').find((t) => t.name === 'dates')?.probe ?? '';
      const session = model.decode(probe);
      const records = session.run();
      session.delete();
      model.delete();

      await page.click('[data-testid=run-location-final-decode]');
      await page.waitForFunction(
        () =>
          /location/.test(document.querySelector('[data-testid=decode]')?.getAttribute('data-model') ?? ''),
        null,
        { timeout: 30_000 },
      );
      const name = (await page.locator('[data-testid=decode]').getAttribute('data-model')) ?? '';
      await waitForStep(page, name, 0);
      await page.click('[data-testid=step]');
      await page.click('[data-testid=step]');
      await waitForStep(page, name, 2);
      await page.waitForSelector('[data-testid=previous-panel]');
      const previous = records[2].previousWeights ?? new Float32Array(0);
      assert.ok(previous.length > 10, 'the probe has its tokens');
      assert.deepEqual(
        Array.from(previous),
        Array.from(records[1].weights ?? []),
        "step 2 reads step 1's weights",
      );
      const bars = await page.$$eval('[data-testid^=previous-weights-]', (els) =>
        els.map((e) => Number(e.getAttribute('data-value'))),
      );
      assert.deepEqual(bars, Array.from(previous));
      const features = await page.locator('[data-testid=location-features]').getAttribute('data-values');
      assert.deepEqual(features?.split(',').map(Number), Array.from(records[2].location?.data ?? []));
      await pageScreenshot(page, `${shots}decode-train-location.png`);
      assert.deepEqual(consoleErrors, []);
    });
  },
);
