// Training in the browser, against the built page (build/web, served in this process) in headless
// Chromium. A benchmark, not a test: it reports, it does not judge. It prints
//   train in Chromium: dates additive bahdanau reached 99% in X s (N sequences)
//     from pressing Train to the first evaluation at ≥ 99% held-out exact match (budget 10 s),
//     the page's default recipe (evaluations every 25 steps included)
//   Worker throughput vs node: the engine's sequences/s of the same run in the page's Worker and in
//     node with the same trainer.wasm (budget ≥ 90 %)
//   five runs side by side: their total sequences per wall second vs one run's (budget ≥ 1.7× on 2 cores)
//   a Decode step click → painted frame while a run trains (median, budget 16 ms)
//   the sizes of playground.wasm and trainer.wasm as the page ships them
// Every number of the runs is the engine's report (sequences, sequences/s); the wall times are the
// page's (performance.now() from the Train click).
//
// usage: node tests/bench/bench_train_page.mjs [impl]
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/browser.mjs';
import { serveBuild } from '../e2e/static-server.mjs';
import { emit } from './timer.mjs';

const section = 'training in Chromium (dates, BiGRU recipe)';
const wasmDir = fileURLToPath(new URL('../../build/wasm/', import.meta.url));
const assets = fileURLToPath(new URL('../../build/web/assets/', import.meta.url));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const trainHash = (fields) => `#${new URLSearchParams({ view: 'train', ...fields })}`;
const STEPS = 400;

// The engine's sequences/s for `steps` steps of dates additive Bahdanau under node (same wasm).
async function nodeThroughput(steps) {
  globalThis.__dirname ??= wasmDir;
  globalThis.require ??= createRequire(import.meta.url);
  const { default: createTrainer } = await import(new URL('trainer.js', `file://${wasmDir}`).href);
  const T = await createTrainer({ wasmBinary: readFileSync(`${wasmDir}trainer.wasm`) });
  const run = new T.TrainRun({ task: 'dates', score: 'additive', style: 'bahdanau', seed: 1, steps });
  let p;
  do p = run.step(25);
  while (!p.done);
  run.delete();
  return p.sequencesPerSecond;
}

async function startRuns(page, fields) {
  await page.goto('about:blank');
  await page.goto(server.url + trainHash(fields));
  await page.waitForSelector('[data-testid=train-start]:not([disabled])', { timeout: 60_000 });
  await page.click('[data-testid=train-start]');
}
const runsFinished = (page, n, timeout = 300_000) =>
  page.waitForFunction(
    (n) => document.querySelectorAll('[data-testid^=run-][data-status=done]').length >= n,
    n,
    { timeout, polling: 100 },
  );
const server = await serveBuild();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });

  // 1. From pressing Train to 99% held-out exact match (the default recipe, 500 steps).
  await startRuns(page, { 'tr-scores': 'additive' });
  await page.waitForFunction(() => document.querySelector('[data-testid=run-additive-reached]'), null, {
    timeout: 300_000,
  });
  const reached = await page.locator('[data-testid=run-additive-reached]').textContent();
  const seconds = Number(/([\d.]+) s/.exec(reached ?? '')?.[1]);
  const step = Number(/step (\d+)/.exec(reached ?? '')?.[1]);
  // The sequences are the engine's, at the step of that evaluation.
  const sequences = await page.evaluate(
    (step) => [...globalThis.trainRunData.values()][0].reports.find((r) => r.step >= step)?.sequences,
    step,
  );
  console.error(
    `train in Chromium: dates additive bahdanau reached 99% in ${seconds.toFixed(1)} s (${sequences} sequences)`,
  );
  emit(section, 'press Train to 99% held-out exact match (additive Bahdanau)', 'wasm', seconds * 1e9, 0);
  await runsFinished(page, 1);

  // 2. One run's throughput in the Worker vs node (node's best of a run before and one after, as
  // the machine's other load comes and goes).
  const nodeBefore = await nodeThroughput(STEPS);
  await startRuns(page, { 'tr-scores': 'additive', 'tr-steps': String(STEPS) });
  await runsFinished(page, 1);
  const [one] = await page.evaluate(() =>
    [...globalThis.trainRunData.values()].map((d) => ({
      last: d.reports.at(-1),
      first: d.evaluations[0].at,
      end: d.evaluations.at(-1).at,
    })),
  );
  const inNode = Math.max(nodeBefore, await nodeThroughput(STEPS));
  const inWorker = one.last.sequencesPerSecond;
  console.error(
    `train Worker throughput: ${inWorker.toFixed(0)} sequences/s in Chromium's Worker vs ${inNode.toFixed(0)} in node: ${((100 * inWorker) / inNode).toFixed(0)}% (budget ≥ 90%)`,
  );
  emit(section, 'one run: sequences/s in the Worker (engine report)', 'wasm', 1e9 / inWorker, 0);
  emit(section, 'one run: sequences/s under node, same wasm (engine report)', 'wasm', 1e9 / inNode, 0);
  // One run per wall second (evaluations included), the denominator of the race's speed-up.
  const oneWall = one.last.sequences / ((one.end - one.first) / 1000);

  // 3. Five runs side by side: total sequences per wall second vs one run's.
  await startRuns(page, { 'tr-scores': 'dot,scaled_dot,general,additive,cosine', 'tr-steps': String(STEPS) });
  await runsFinished(page, 5, 600_000);
  const five = await page.evaluate(() => {
    const data = [...globalThis.trainRunData.values()];
    const start = Math.min(...data.map((d) => d.evaluations[0].at));
    const end = Math.max(...data.map((d) => d.evaluations.at(-1).at));
    return {
      sequences: data.reduce((s, d) => s + d.reports.at(-1).sequences, 0),
      seconds: (end - start) / 1000,
    };
  });
  const fiveWall = five.sequences / five.seconds;
  console.error(
    `train race: five runs side by side ${fiveWall.toFixed(0)} sequences/s in all vs one run ${oneWall.toFixed(0)}: ${(fiveWall / oneWall).toFixed(2)}× (budget ≥ 1.7× on 2 cores)`,
  );
  emit(section, 'five runs side by side: wall ns per sequence, all runs', 'wasm', 1e9 / fiveWall, 0);
  emit(section, 'one run alone: wall ns per sequence', 'wasm', 1e9 / oneWall, 0);

  // 4. A Decode step click → painted frame, first with nothing training (the same machine's
  // baseline), then while a run trains in its Worker.
  async function stepClicks() {
    await page.waitForFunction(() => {
      const d = document.querySelector('[data-testid=decode]');
      return d && d.dataset.step !== undefined && !d.classList.contains('stale');
    });
    const clicks = [];
    for (let i = 0; i < 43; i++) {
      if (await page.locator('[data-testid=step]').isDisabled()) {
        await page.locator('[data-testid=reset]').click();
        await page.waitForFunction(
          () => document.querySelector('[data-testid=decode]')?.dataset.step === '0',
        );
      }
      await page.evaluate(() => {
        globalThis.__painted = new Promise((resolve) =>
          document.addEventListener(
            'click',
            (event) =>
              requestAnimationFrame(() => {
                const channel = new MessageChannel();
                channel.port1.onmessage = () => resolve(performance.now() - event.timeStamp);
                channel.port2.postMessage(0);
              }),
            { capture: true, once: true },
          ),
        );
      });
      await page.locator('[data-testid=step]').click();
      const ms = await page.evaluate(() => globalThis.__painted);
      if (i >= 3) clicks.push(ms); // three warm-up clicks
      await page.waitForTimeout(50);
    }
    return clicks;
  }
  await page.goto('about:blank');
  await page.goto(
    server.url + '#view=decode&task=dates&model=additive-bahdanau&input=sunday%2C+29+nov.+2026',
  );
  const idle = await stepClicks();
  await startRuns(page, { 'tr-scores': 'additive', 'tr-steps': '100000' });
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid=run-additive-step]')?.textContent?.split(' ')[0]) > 0,
  );
  await page.click('[data-testid=view-decode]');
  const clicks = await stepClicks();
  const still = await page.evaluate(() => [...globalThis.trainRunData.values()][0].reports.at(-1).step);
  console.error(
    `train while decoding: step click → painted median ${median(clicks).toFixed(1)} ms, worst ${Math.max(...clicks).toFixed(1)} ms of ${clicks.length} clicks while a run trained (at step ${still}; budget ≤ 16 ms median); with nothing training: median ${median(idle).toFixed(1)} ms, worst ${Math.max(...idle).toFixed(1)} ms`,
  );
  emit(
    section,
    `decode step click to painted, nothing training (median of ${idle.length})`,
    'wasm',
    median(idle) * 1e6,
    0,
  );
  emit(
    section,
    `decode step click to painted while training (median of ${clicks.length})`,
    'wasm',
    median(clicks) * 1e6,
    0,
  );

  // 5. Sizes.
  for (const f of readdirSync(assets).filter((f) => f.endsWith('.wasm'))) {
    const bytes = statSync(`${assets}${f}`).size;
    console.error(
      `size: ${f} is ${bytes} bytes${/^playground/.test(f) ? ' (page budget 400 KB)' : /^imaging/.test(f) ? ' (loaded when Caption opens)' : /^audio/.test(f) ? ' (loaded when Listen opens)' : ' (loaded when Train opens)'}`,
    );
  }
} finally {
  await browser.close();
  await server.close();
}
