// The Listen view's step budget in headless Chromium against the built page (build/web, served in
// this process): a step click → the next letter painted (budget 16 ms: the click, Svelte's update
// of the spectrogram's weights, the stage panels and the letters, and the frame). Timed from the
// click's timeStamp to the end of the first frame painted after the view shows the new step (a
// requestAnimationFrame callback then posts a MessageChannel message, which runs once that
// frame's style, layout and paint are done, as in bench_caption.mjs); the main thread's share
// (the click's handlers with Svelte's update, and that frame's rendering) is reported as well.
// A benchmark, not a test: it reports, it does not judge.
//
// usage: node tests/bench/bench_listen_page.mjs
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/browser.mjs';
import { serveBuild } from '../e2e/static-server.mjs';
import { emit } from './timer.mjs';

const section = 'Listen view in Chromium (speech additive, "how much wood would a woodchuck chuck")';
const say = { phrase: 'how much wood would a woodchuck chuck', seed: 3, rate: 1, noise: 0.1 };
const hash = `#${new URLSearchParams({
  view: 'listen',
  lsc: 'additive',
  lcmp: '0',
  say: say.phrase,
  lseed: String(say.seed),
  lrate: String(say.rate),
  lnoise: String(say.noise),
})}`;
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const worst = (xs) => Math.max(...xs);
const STEPS = 40;

function instrument() {
  window.__arm = (value) =>
    new Promise((resolve) => {
      const m = {};
      document.addEventListener(
        'click',
        (event) => {
          m.input = event.timeStamp;
          m.start = performance.now();
        },
        { capture: true, once: true },
      );
      window.addEventListener('click', () => (m.handled = performance.now()), { once: true });
      const painted = () =>
        requestAnimationFrame(() => {
          m.frame = performance.now();
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            m.painted = performance.now();
            resolve(m);
          };
          channel.port2.postMessage(0);
        });
      const shown = document.querySelector('[data-testid=listen]');
      const observer = new MutationObserver(() => {
        if (document.querySelector('[data-testid=listen]')?.getAttribute('data-step') !== value) return;
        observer.disconnect();
        painted();
      });
      observer.observe(shown?.parentElement ?? document.body, {
        attributes: true,
        subtree: true,
        attributeFilter: ['data-step'],
      });
    });
}

if (
  !existsSync(
    fileURLToPath(new URL('../../web/models/speech-additive-bahdanau.safetensors', import.meta.url)),
  )
) {
  console.error('bench_listen_page: no speech-additive-bahdanau model shipped; nothing to time');
} else {
  const server = await serveBuild();
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(server.url + hash);
    await page.waitForFunction(
      () =>
        document.querySelector('[data-testid=listen]')?.getAttribute('data-model') ===
        'speech-additive-bahdanau',
      null,
      { timeout: 30_000 },
    );
    await page.evaluate(instrument);
    const steps = [];
    const work = [];
    await page.locator('body').press('Home');
    for (let i = 0; i < STEPS + 3; i++) {
      if (await page.locator('[data-testid=listen-step]').isDisabled()) {
        await page.locator('body').press('Home');
        await page.waitForFunction(
          () => document.querySelector('[data-testid=listen]')?.getAttribute('data-step') === '0',
        );
      }
      const next = String(Number(await page.locator('[data-testid=listen]').getAttribute('data-step')) + 1);
      const done = page.evaluate((n) => window.__arm(n), next);
      await page.locator('[data-testid=listen-step]').click();
      const m = await done;
      if (i >= 3) {
        steps.push(m.painted - m.input);
        work.push(m.handled - m.start + (m.painted - m.frame));
      }
      await page.evaluate(() => new Promise((r) => setTimeout(r, 50)));
    }
    emit(section, `step click to painted frame (median of ${STEPS})`, 'wasm', median(steps) * 1e6, 0);
    emit(section, `step click to painted frame (worst of ${STEPS})`, 'wasm', worst(steps) * 1e6, 0);
    emit(section, `step main-thread work: handlers + frame (median)`, 'wasm', median(work) * 1e6, 0);
    const ms = (x) => `${x.toFixed(1)} ms`;
    console.error(
      `listen: step→painted median ${ms(median(steps))}, worst ${ms(worst(steps))} (work median ${ms(median(work))})`,
    );
  } finally {
    await browser.close();
    await server.close();
  }
}
