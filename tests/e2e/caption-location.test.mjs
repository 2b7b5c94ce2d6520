// A location-aware scenes model in the Caption view, in headless Chromium with the real trainer and
// image modules: a short location run of scenes trains in the Train view, "Caption" opens it, and
// the view shows where the previous word looked (on the picture and as the grid of the 64 cells),
// the location features (one filter's as the grid, all of them as a strip), the score function
// with its location term, and the formula card's α_{i−1} and f_j columns. Every number shown equals
// the step records of the same run made in node (the trainer module is deterministic) and
// captioned by the image module in node, on the scene the view shows.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadImaging } from '../js/load-imaging.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { launchBrowser, pageScreenshot, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';
import { trainInPage } from './train-page.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const built = existsSync(new URL('../../build/wasm/trainer.js', import.meta.url));
const STEPS = 10;

let server, browser, page;
const consoleErrors = [];

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

describe(
  'a location-aware scenes model in the Caption view',
  { skip: built ? false : 'build/wasm/trainer.js is not built' },
  () => {
    before(async () => {
      [server, browser] = await Promise.all([serveBuild(), launchBrowser()]);
      page = await (await browser.newContext({ viewport: { width: 1440, height: 1000 } })).newPage();
      watchConsole(page, consoleErrors);
    });
    after(async () => {
      await browser?.close();
      await server?.close();
    });

    test(`${STEPS} steps of scenes location open in Caption with the previous weights and location features of its records`, async () => {
      await trainInPage(page, server.url, {
        'tr-task': 'scenes',
        'tr-scores': 'location',
        'tr-steps': String(STEPS),
        'tr-eval': String(STEPS),
      });

      await page.click('[data-testid=run-location-final-caption]');
      await page.waitForFunction(
        (steps) =>
          new RegExp(`^trained-scenes-location-bahdanau-.*-step${steps}$`).test(
            document.querySelector('[data-testid=caption]')?.getAttribute('data-model') ?? '',
          ),
        STEPS,
        { timeout: 60_000 },
      );
      await page.waitForSelector('[data-testid=caption-previous-panel]');
      const key = (await page.locator('[data-testid=caption]').getAttribute('data-scene')) ?? '';
      // the side panel says which model is shown, and no shipped one is picked
      const modelShown = (await page.locator('[data-testid=caption]').getAttribute('data-model')) ?? '';
      assert.ok((await page.textContent('[data-testid=caption-trained]'))?.includes(modelShown));
      assert.equal(await page.locator('[data-testid^=caption-score-]:checked').count(), 0);
      const shownText = await page.locator('[data-testid=caption]').getAttribute('data-text');

      // The same run in node, captioning the scene the view shows (its link form: shape.colour.size.x.y).
      const T = await loadTrainer();
      const run = new T.TrainRun({
        task: 'scenes',
        score: 'location',
        style: 'bahdanau',
        steps: STEPS,
        seed: 1,
      });
      run.step(STEPS);
      const bytes = run.save();
      run.delete();
      const im = await loadImaging();
      const model = im.ImageModel.load(bytes);
      const description = key
        .split('_')
        .map((part) => {
          const [shape, colour, size, x, y] = part.split('.');
          return `${size} ${colour} ${shape} at ${x},${y}`;
        })
        .join('; ');
      const scene = im.scene(description);
      const session = model.caption(scene.pixels, scene.width, scene.height, 3, { topK: 5 });
      const records = session.run();
      const outputText = session.outputText();
      session.delete();
      model.delete();
      assert.equal(shownText, outputText, 'the trained model’s caption');
      assert.ok(records.length >= 3, `a caption of at least three words: “${outputText}”`);
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
      const record = records[2];
      const previous = Array.from(record.previousWeights ?? []);
      assert.deepEqual(previous, Array.from(records[1].weights), 'word 3 reads word 2’s weights');
      assert.deepEqual(await values('caption-previous-'), previous, 'the grid of α_{i−1}');
      assert.deepEqual(await values('caption-previous-scene-cell-'), previous, 'on the picture');
      assert.equal(
        await page.locator('[data-testid=caption-previous-scene]').getAttribute('data-word'),
        records[1].token,
      );
      assert.deepEqual(await values('caption-weight-'), Array.from(record.weights), 'this word’s weights');
      const { data, rows, cols } = record.location ?? { data: [], rows: 0, cols: 0 };
      assert.equal(rows, L);
      assert.ok(cols > 1, 'several filters');
      const strip = await page.locator('[data-testid=caption-features]').getAttribute('data-values');
      assert.deepEqual(strip?.split(',').map(Number), Array.from(data), 'every feature, in the strip');
      const column = (c) => Array.from({ length: L }, (_, j) => data[j * cols + c]);
      assert.deepEqual(await values('caption-feature-'), column(0), 'filter 1 over the cells');
      await page.click(`[data-testid=caption-filter-${cols - 1}]`);
      await page.waitForFunction(
        (c) =>
          document.querySelector(`[data-testid=caption-filter-${c}]`)?.getAttribute('aria-pressed') ===
          'true',
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
      const shoot = async (name) => {
        await pageScreenshot(page, `${shots}caption-location-${name}.png`);
        await panel.scrollIntoViewIfNeeded();
        await panel.screenshot({ path: `${shots}caption-location-panel-${name}.png` });
        const card = page.locator('[data-testid=caption-formula]');
        await card.scrollIntoViewIfNeeded();
        await card.screenshot({ path: `${shots}caption-location-formula-${name}.png` });
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
      assert.equal(await page.locator('[data-testid=caption]').getAttribute('data-text'), outputText);
      assert.deepEqual(await values('caption-previous-'), previous, 'the trained model’s panels stay');
      // no shipped card is marked as the one shown
      assert.equal(await page.locator('[data-testid=caption-compare-panel] figure.chosen').count(), 0);
      await pageScreenshot(page, `${shots}caption-location-compare-1440-en.png`);
      assert.deepEqual(consoleErrors, []);
    });
  },
);
