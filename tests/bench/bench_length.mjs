// Accuracy by source length in the page's Worker, against the built page (build/web, served in this
// process) in headless Chromium. A benchmark, not a test: it reports, it does not judge. For each
// task it opens #view=length&task=… and prints
//   per model: the Worker's time for the 1,000 held-out pairs (accuracyByLength over slices of 50,
//     progress reported after each; budget 1 s), the fetch and load of the checkpoint not counted
//   the task's total: from opening the view to the last model's result on screen (the trainer
//     module's load, the held-out pairs and every checkpoint's fetch included)
// and, for comparison, the same loop (web/length/evaluate.js) under node with the same trainer.wasm.
//
// usage: node tests/bench/bench_length.mjs [impl]
import { readFileSync } from 'node:fs';
import { launchBrowser } from '../e2e/browser.mjs';
import { serveBuild } from '../e2e/static-server.mjs';
import { loadTrainer } from '../js/trainer-fixture.mjs';
import { lengthAccuracy } from '../../web/features/length/evaluate.js';
import { emit } from './timer.mjs';

const section = 'accuracy by length, 1,000 held-out pairs (Worker in Chromium)';
const SCORES = ['none', 'dot', 'scaled_dot', 'general', 'additive', 'cosine', 'scaled_cosine'];
const checkpoint = (name) =>
  new Uint8Array(readFileSync(new URL(`../../web/models/${name}.safetensors`, import.meta.url)));

const server = await serveBuild();
const browser = await launchBrowser();
try {
  for (const task of ['reverse', 'dates', 'zh']) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    const opened = Date.now();
    await page.goto(`${server.url}#view=length&task=${task}`);
    await page.locator('[data-testid=length-summary]').waitFor({ timeout: 120_000 });
    const wall = (Date.now() - opened) / 1000;
    const seconds = await page.$$eval('[data-testid^=length-progress-][data-seconds]', (els) =>
      els.map((el) => [el.dataset.testid.replace('length-progress-', ''), Number(el.dataset.seconds)]),
    );
    for (const [score, s] of seconds) {
      emit(section, `${task} ${score} (Worker)`, 'wasm', s * 1e9, 0);
      console.error(`length: ${task} ${score}: ${s.toFixed(3)} s in the Worker (budget 1 s)`);
    }
    const sum = seconds.reduce((a, [, s]) => a + s, 0);
    emit(section, `${task}: ${seconds.length} models, open → chart`, 'wasm', wall * 1e9, 0);
    console.error(
      `length: ${task}: ${seconds.length} models, ${sum.toFixed(2)} s decoding in the Worker, ${wall.toFixed(2)} s from opening the view to the chart`,
    );
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}

// The same loop under node, one model per task, for the Worker's overhead.
const trainer = await loadTrainer();
for (const task of ['reverse', 'dates', 'zh']) {
  for (const score of ['none', 'additive']) {
    const name = `${task}-${score}-bahdanau`;
    let seconds = 0;
    await lengthAccuracy(
      trainer,
      { task, bucketWidth: 4, models: [{ name, bytes: checkpoint(name) }] },
      { report: (r) => void (r.kind === 'model' && (seconds = r.result.seconds)) },
    );
    emit(section, `${task} ${score} (node)`, 'wasm', seconds * 1e9, 0);
    console.error(`length: ${task} ${score}: ${seconds.toFixed(3)} s under node`);
  }
}
