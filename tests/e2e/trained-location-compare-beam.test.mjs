// A location-aware dates model trained in the page, in the Compare and Beam views, in headless
// Chromium with the real trainer and page modules: a 20-step location run of dates (kept by the
// page when it finishes) opens in Compare, whose card for it shows the page module's decode of the probe in node with
// the same model (the trainer module is deterministic: the same run made in node gives the same
// bytes), its held-out figure and its weights cell by cell beside the shipped models; then in
// Beam, whose beams, scores and best beam's weights are the page module's beam search in node,
// and whose beams cut by the length limit (ranked after those that ended) are marked cut.
// Kept in the browser, it is still there after a reload. No console errors.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';

import { loadEngine } from '../js/load-engine.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { launchBrowser, pageScreenshot, watchConsole } from './browser.mjs';
import { serveBuild } from './static-server.mjs';
import { trainInPage } from './train-page.mjs';

const shots = new URL('../../test-output/', import.meta.url).pathname;
mkdirSync(shots, { recursive: true });
const built = existsSync(new URL('../../build/wasm/trainer.js', import.meta.url));
const STEPS = 20;
const WIDTH = 3; // the Beam view's default width

let server, browser, page;
const consoleErrors = [];

/** Every heatmap cell `${testid}-${i}-${j}`'s data-value, as rows. */
const heatmap = (testid) =>
  page.$$eval(
    `[data-testid^="${testid}-"]`,
    (els, t) => {
      const rows = [];
      for (const e of els) {
        const m = new RegExp(`^${t}-(\\d+)-(\\d+)$`).exec(e.getAttribute('data-testid') ?? '');
        if (!m) continue;
        (rows[Number(m[1])] ??= [])[Number(m[2])] = Number(e.getAttribute('data-value'));
      }
      return rows;
    },
    testid.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
  );

describe(
  'a trained location model in Compare and Beam',
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

    test(`${STEPS} steps of dates location, kept, show the engine's numbers in Compare and Beam`, async () => {
      await trainInPage(
        page,
        server.url,
        {
          'tr-task': 'dates',
          'tr-scores': 'location',
          'tr-steps': String(STEPS),
          'tr-eval': '10',
          'tr-examples': '20',
        },
        120_000,
      );
      // a finished run is kept in this browser by itself
      await page.waitForSelector('[data-testid=run-location-kept]');

      // The same run in node, decoded and searched by the page module.
      const T = await loadTrainer();
      const run = new T.TrainRun({
        task: 'dates',
        score: 'location',
        style: 'bahdanau',
        steps: STEPS,
        seed: 1,
        evalExamples: 20,
      });
      run.step(STEPS);
      const bytes = run.save();
      run.delete();
      const probe = T.trainTasks('gru').find((t) => t.name === 'dates')?.probe ?? '';
      const ap = await loadEngine();
      const model = ap.Model.load(bytes);
      const info = model.info();
      assert.equal(info.score, 'location');
      const session = model.decode(probe, { topK: 5 });
      const records = session.run();
      const outputText = session.outputText();
      const beams = session.beam(WIDTH);
      session.delete();
      model.delete();

      // Compare: the trained model's card beside the shipped ones.
      await page.click('[data-testid=run-location-final-compare]');
      await page.waitForFunction(() => /trained=/.test(location.hash), null, { timeout: 30_000 });
      const name =
        new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).get('trained') ?? '';
      assert.match(name, new RegExp(`^dates-location-bahdanau-step${STEPS}-`));
      await page.waitForSelector(`[data-testid="output-${name}"]`, { timeout: 30_000 });
      assert.equal(await page.textContent(`[data-testid="output-${name}"]`), outputText);
      assert.equal(
        Number(await page.getAttribute(`[data-testid="accuracy-${name}"]`, 'data-value')),
        info.heldoutExactMatch,
      );
      assert.deepEqual(
        await heatmap(`cmp-${name}`),
        records.map((r) => Array.from(r.weights ?? [])),
        'its weights, step by step',
      );
      // its title names it and is no button choosing the shipped location model (which would drop it)
      assert.equal(
        (await page.textContent(`[data-testid="compare-${name}"] h3`))?.trim(),
        'location · Bahdanau',
      );
      assert.equal(await page.locator(`[data-testid="compare-${name}"] h3 button`).count(), 0);
      // the shipped location model is there too, and its card is not the trained one's
      await page.waitForSelector('[data-testid="output-dates-location-bahdanau"]', { timeout: 30_000 });
      await pageScreenshot(page, `${shots}compare-trained-location-1440-en.png`);

      // Beam: the trained model's beams.
      await page.click('[data-testid=view-beam]');
      await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
      await page.waitForFunction(
        (n) => document.querySelectorAll('[data-testid=beams] li').length === n,
        beams.beams.length,
      );
      for (let b = 0; b < beams.beams.length; b++) {
        const score = await page.getAttribute(`[data-testid=beam-${b}] .score`, 'data-value');
        assert.equal(Number(score), beams.scores[b], `beam ${b}: score`);
        const text = await page.textContent(`[data-testid=beam-${b}] .text`);
        const tokens = beams.beams[b].map((id) => beams.nodes[id].token).filter((t) => t !== '</s>');
        assert.equal(text, tokens.join(''), `beam ${b}: output`);
        // a beam stopped by the length limit without </s> is marked cut (the engine ranks it after
        // every beam that ended, whatever its score)
        const ended = beams.nodes[beams.beams[b].at(-1)].token === '</s>';
        const mark = (await page.textContent(`[data-testid=beam-${b}-cut]`))?.trim();
        assert.equal(mark, ended ? '' : 'cut', `beam ${b}: cut mark`);
      }
      const cut = beams.beams.filter((path) => beams.nodes[path.at(-1)].token !== '</s>').length;
      assert.ok(cut > 0 && cut < beams.beams.length, 'this short run’s beams: some ended, some cut');
      assert.equal(await page.locator('[data-testid=beamview-cut-note]').count(), 1);
      assert.deepEqual(
        await heatmap('beam-heatmap'),
        beams.beams[0].map((id) => Array.from(beams.nodes[id].weights)),
        'the best beam’s weights',
      );
      await pageScreenshot(page, `${shots}beam-trained-location-1440-en.png`);
      await page.click('[data-testid=lang-zh]');
      await page.waitForFunction(() => document.documentElement.lang === 'zh');
      const firstCut = beams.beams.findIndex((path) => beams.nodes[path.at(-1)].token !== '</s>');
      assert.equal((await page.textContent(`[data-testid=beam-${firstCut}-cut]`))?.trim(), '截断');
      await pageScreenshot(page, `${shots}beam-trained-location-1440-zh.png`);
      await page.setViewportSize({ width: 375, height: 800 });
      await pageScreenshot(page, `${shots}beam-trained-location-375-zh.png`);
      await page.click('[data-testid=lang-en]');
      await page.waitForFunction(() => document.documentElement.lang === 'en');
      await pageScreenshot(page, `${shots}beam-trained-location-375-en.png`);
      await page.setViewportSize({ width: 1440, height: 1000 });

      // kept: a reload lists it and the link still names it
      await page.reload();
      await page.waitForSelector('[data-testid=beam-heatmap] svg', { timeout: 30_000 });
      const score0 = await page.getAttribute('[data-testid=beam-0] .score', 'data-value');
      assert.equal(Number(score0), beams.scores[0], 'after a reload: the kept model’s best beam');
      assert.deepEqual(consoleErrors, []);
    });
  },
);
