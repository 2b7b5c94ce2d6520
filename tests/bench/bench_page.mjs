// Page budgets in headless Chromium against the built page (build/web, served in this process):
// load to the first decoding step on screen (budget 1.5 s) and a step click to the painted
// result (budget 16 ms). A benchmark, not a test: it reports, it does not judge.
import { launchBrowser } from '../e2e/browser.mjs';
import { serveBuild } from '../e2e/static-server.mjs';
import { emit } from './timer.mjs';

const section = 'page in Chromium (dates additive, "sunday, 29 nov. 2026")';
const hash = `#${new URLSearchParams({ view: 'decode', task: 'dates', model: 'dates-additive-bahdanau', input: 'sunday, 29 nov. 2026' })}`;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const server = await serveBuild();
const browser = await launchBrowser();
try {
  // Load: navigation start → the first step's numbers shown (engine, model and decode ready).
  const loads = [];
  for (let i = 0; i < 5; i++) {
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    await page.goto(server.url + hash);
    await page.waitForFunction(
      () => {
        const d = document.querySelector('[data-testid=decode]');
        return d && d.dataset.step !== undefined && !d.classList.contains('stale');
      },
      null,
      { timeout: 30_000 },
    );
    loads.push(await page.evaluate(() => performance.now()));
    await page.close();
  }
  emit(section, 'load to first step shown (median of 5)', 'wasm', median(loads) * 1e6, 0);

  // Step: click → the next step's numbers in the DOM → the frame after them painted.
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(server.url + hash);
  await page.waitForSelector('[data-testid=decode]:not(.stale)', { timeout: 30_000 });
  const steps = [];
  for (let i = 0; i < 40; i++) {
    if (await page.locator('[data-testid=step]').isDisabled()) {
      await page.locator('[data-testid=reset]').click();
      await page.waitForFunction(() => document.querySelector('[data-testid=decode]')?.dataset.step === '0');
    }
    steps.push(
      await page.evaluate(
        () =>
          new Promise((resolve) => {
            const shown = () => document.querySelector('[data-testid=decode]');
            const before = shown().dataset.step;
            const t0 = performance.now();
            const observer = new MutationObserver(() => {
              const d = shown();
              if (d && d.dataset.step !== before && !d.classList.contains('stale')) {
                observer.disconnect();
                requestAnimationFrame(() => setTimeout(() => resolve(performance.now() - t0), 0));
              }
            });
            observer.observe(document.body, { subtree: true, childList: true, attributes: true });
            document.querySelector('[data-testid=step]').click();
          }),
      ),
    );
  }
  emit(section, 'step click to painted (median of 40)', 'wasm', median(steps) * 1e6, 0);
  emit(section, 'step click to painted (fastest of 40)', 'wasm', Math.min(...steps) * 1e6, 0);
} finally {
  await browser.close();
  await server.close();
}
