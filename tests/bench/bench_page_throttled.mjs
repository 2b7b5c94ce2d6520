// The page on a phone-class CPU and under load, in headless Chromium against the built page
// (build/web, served in this process). A benchmark, not a test: it reports, it does not judge.
//
// Throttled ×4 (DevTools' Emulation.setCPUThrottlingRate on the page, as the Performance panel's
// "4× slowdown"; budgets in brackets):
//   load to the first decoding step shown (median of 3) [2.5 s]
//   step click → painted, Decode, Caption and Listen (median and worst of 40) [median 50 ms]
//   a view switch, Decode → Compare (its ranking shown) and back (median of 10 round trips)
//   a Decode step click → painted while a training run goes on in the same page (median, worst of 40) [50 ms]
// Unthrottled, under load (a second tab training beside it):
//   step click → painted, Decode, Caption and Listen (median and worst of 40) [worst 33 ms]
// and, for the throttled Decode steps, where the main thread's time goes: a Chromium trace of 10
// steps summarised by event and by function (tests/bench/trace_summary.mjs), the Performance
// panel's view of the same trace (written to build/bench/page-throttled-trace.json).
// Steps are timed as in tests/bench/page_steps.mjs: the click's timeStamp to the end of the first
// frame painted after the view shows the next step.
//
// usage: node tests/bench/bench_page_throttled.mjs [impl]
import { mkdirSync } from 'node:fs';
import { launchBrowser } from '../e2e/browser.mjs';
import { serveBuild } from '../e2e/static-server.mjs';
import {
  instrumentPage,
  median,
  stepClicks,
  timeInteraction,
  viewUrl,
  waitReady,
  worst,
} from './page_steps.mjs';
import { emit } from './timer.mjs';
import { describeTrace, summarizeTrace } from './trace_summary.mjs';

const RATE = 4;
const STEPS = 40;
const throttled = `page in Chromium, CPU throttled ×${RATE}`;
const loaded = 'page in Chromium, unthrottled, a second tab training';
const tracePath = 'build/bench/page-throttled-trace.json';
const ms = (x) => `${x.toFixed(1)} ms`;

const server = await serveBuild();
const browser = await launchBrowser();

async function openPage(rate) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  if (rate > 1) {
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
  }
  return page;
}

// A training run of the dates additive recipe, long enough to outlast the measurement.
async function startTraining(page) {
  await page.goto(
    `${server.url}#${new URLSearchParams({ view: 'train', 'tr-scores': 'additive', 'tr-steps': '100000' })}`,
  );
  await page.waitForSelector('[data-testid=train-start]:not([disabled])', { timeout: 120_000 });
  await page.click('[data-testid=train-start]');
  await page.waitForFunction(
    () => Number(document.querySelector('[data-testid=run-additive-step]')?.textContent?.split(' ')[0]) > 0,
    null,
    { timeout: 120_000 },
  );
}

async function steps(page, view, section, label) {
  await page.goto('about:blank');
  await page.goto(viewUrl(server.url, view));
  await waitReady(page, view);
  await instrumentPage(page);
  const { totals, work } = await stepClicks(page, view, STEPS);
  emit(section, `${label}: step click to painted (median of ${STEPS})`, 'wasm', median(totals) * 1e6, 0);
  emit(section, `${label}: step click to painted (worst of ${STEPS})`, 'wasm', worst(totals) * 1e6, 0);
  emit(section, `${label}: step main-thread work (median)`, 'wasm', median(work) * 1e6, 0);
  console.error(
    `${section}: ${label} step→painted median ${ms(median(totals))}, worst ${ms(worst(totals))} (work median ${ms(median(work))})`,
  );
}

try {
  // ---- throttled ×4 -------------------------------------------------------------------------
  const loads = [];
  for (let i = 0; i < 3; i++) {
    const page = await openPage(RATE);
    await page.goto(viewUrl(server.url, 'decode'));
    await waitReady(page, 'decode', 120_000);
    loads.push(await page.evaluate(() => performance.now()));
    await page.close();
  }
  emit(throttled, 'load to first step shown (median of 3)', 'wasm', median(loads) * 1e6, 0);
  console.error(`${throttled}: load to first step median ${ms(median(loads))}, worst ${ms(worst(loads))}`);

  const page = await openPage(RATE);
  for (const view of ['decode', 'caption', 'listen']) await steps(page, view, throttled, view);

  // Where the time of a throttled Decode step goes.
  await page.goto('about:blank');
  await page.goto(viewUrl(server.url, 'decode'));
  await waitReady(page, 'decode');
  await instrumentPage(page);
  await stepClicks(page, 'decode', 1);
  mkdirSync('build/bench', { recursive: true });
  await browser.startTracing(page, {
    path: tracePath,
    screenshots: false,
    categories: [
      'devtools.timeline',
      'disabled-by-default-devtools.timeline',
      'v8.execute',
      'v8',
      'disabled-by-default-v8.gc',
      'blink.user_timing',
      'toplevel',
    ],
  });
  await stepClicks(page, 'decode', 10);
  await browser.stopTracing();
  for (const line of describeTrace(summarizeTrace(tracePath)))
    console.error(`trace of 10 throttled Decode steps: ${line}`);

  // A view switch: Decode → Compare (its ranking shown) → Decode (the step shown again).
  const there = [];
  const back = [];
  for (let i = 0; i < 10; i++) {
    there.push(
      (
        await timeInteraction(page, () => page.click('[data-testid=view-compare]'), {
          testid: 'compare-ranking',
        })
      ).total,
    );
    back.push(
      (
        await timeInteraction(page, () => page.click('[data-testid=view-decode]'), {
          testid: 'decode',
          attribute: 'data-step',
          notClass: 'stale',
        })
      ).total,
    );
  }
  emit(
    throttled,
    'view switch Decode → Compare, click to painted (median of 10)',
    'wasm',
    median(there) * 1e6,
    0,
  );
  emit(
    throttled,
    'view switch Compare → Decode, click to painted (median of 10)',
    'wasm',
    median(back) * 1e6,
    0,
  );
  console.error(
    `${throttled}: view switch Decode→Compare median ${ms(median(there))} (worst ${ms(worst(there))}), back median ${ms(median(back))} (worst ${ms(worst(back))})`,
  );

  // A Decode step while a run trains in this page's Worker.
  await startTraining(page);
  await page.click('[data-testid=view-decode]');
  await waitReady(page, 'decode');
  await instrumentPage(page);
  const training = await stepClicks(page, 'decode', STEPS);
  emit(
    throttled,
    `decode step click to painted while training (median of ${STEPS})`,
    'wasm',
    median(training.totals) * 1e6,
    0,
  );
  emit(
    throttled,
    `decode step click to painted while training (worst of ${STEPS})`,
    'wasm',
    worst(training.totals) * 1e6,
    0,
  );
  console.error(
    `${throttled}: decode step while training median ${ms(median(training.totals))}, worst ${ms(worst(training.totals))}`,
  );
  await page.close();

  // ---- unthrottled, a second tab training -------------------------------------------------
  const busy = await openPage(1);
  await startTraining(busy);
  const measured = await openPage(1);
  for (const view of ['decode', 'caption', 'listen']) await steps(measured, view, loaded, view);
  await busy.close();
  await measured.close();
} finally {
  await browser.close();
  await server.close();
}
