// A what-if in headless Chromium against the built page (build/web, served in this process): a
// click that masks a source token (or pins this step's attention on one) to the frame painted
// with the engine's new decode (budget 50 ms, median). A benchmark, not a test: it reports, it
// does not judge.
//
// The click's input event (its timeStamp) starts the clock. The decode is redone in the engine's
// Worker from the first step with the what-if (every later step follows from it), and the page
// shows the new record of this step: the control's aria-pressed comes from that record (the
// masked tokens, the pin), so the change of that attribute is when the answer reached the page.
// From there a requestAnimationFrame callback posts a MessageChannel message, which runs once the
// frame's style, layout and paint are done (as in bench_page.mjs). Each click alternates: mask,
// then the same click takes the mask back, each a full re-decode.
//
// usage: node tests/bench/bench_whatif.mjs [impl]
import { launchBrowser } from '../e2e/browser.mjs';
import { serveBuild } from '../e2e/static-server.mjs';
import { emit } from './timer.mjs';

const INPUT = 'sunday, 29 nov. 2026';
const section = `what-if in Chromium (dates additive, "${INPUT}", step 4)`;
const hash = `#${new URLSearchParams({ view: 'decode', task: 'dates', model: 'additive-bahdanau', input: INPUT, step: '3', lang: 'en' })}`;
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const worst = (xs) => Math.max(...xs);
const CLICKS = 30;

// Installed in the page: arms the timing of the next click on `selector`, resolves once the
// frame after its aria-pressed changed is painted.
function instrument() {
  window.__arm = (selector) => {
    const control = document.querySelector(selector);
    const was = control.getAttribute('aria-pressed');
    const m = { was };
    window.__measured = new Promise((resolve) => {
      control.addEventListener('click', (event) => (m.input = event.timeStamp), {
        capture: true,
        once: true,
      });
      const observer = new MutationObserver(() => {
        const now = control.getAttribute('aria-pressed');
        if (now === was) return;
        observer.disconnect();
        m.answered = performance.now();
        m.now = now;
        requestAnimationFrame(() => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            m.painted = performance.now();
            resolve(m);
          };
          channel.port2.postMessage(0);
        });
      });
      observer.observe(control, { attributes: true, attributeFilter: ['aria-pressed'] });
    });
  };
}

const server = await serveBuild();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(server.url + hash);
  await page.waitForFunction(
    () => document.querySelector('[data-testid=decode]')?.dataset.step === '3',
    null,
    { timeout: 30_000 },
  );
  await page.evaluate(instrument);
  await page.locator('[data-testid=whatif-panel]').scrollIntoViewIfNeeded();

  async function clickOnce(selector) {
    await page.evaluate((selector) => window.__arm(selector), selector);
    await page.locator(selector).click();
    const m = await page.evaluate(() => window.__measured);
    // let the deferred URL write and anything else after the frame finish before the next click
    await page.evaluate(() => new Promise((r) => setTimeout(r, 60)));
    return m;
  }

  for (const [what, selector] of [
    ['mask a source token', '[data-testid=whatif-mask-5]'],
    ['pin the step one-hot', '[data-testid=whatif-pin-5]'],
  ]) {
    for (let i = 0; i < 4; i++) await clickOnce(selector); // warm-up
    const runs = [];
    for (let i = 0; i < CLICKS; i++) runs.push(await clickOnce(selector));
    const total = runs.map((m) => m.painted - m.input);
    const answer = runs.map((m) => m.answered - m.input);
    emit(section, `${what}: click to repainted decode (median of ${CLICKS})`, 'wasm', median(total) * 1e6, 0);
    emit(section, `${what}: click to repainted decode (worst of ${CLICKS})`, 'wasm', worst(total) * 1e6, 0);
    emit(section, `${what}: click to the engine's answer shown (median)`, 'wasm', median(answer) * 1e6, 0);
    const ms = (x) => `${x.toFixed(1)} ms`;
    console.error(
      `what-if (${what}): click→repainted median ${ms(median(total))}, worst ${ms(worst(total))}; ` +
        `click→answer median ${ms(median(answer))} (budget 50 ms, median)`,
    );
  }
  await page.close();
} finally {
  await browser.close();
  await server.close();
}
