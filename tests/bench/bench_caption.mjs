// The Caption view's budgets in headless Chromium against the built page (build/web, served in
// this process): a drag that moves an object one pixel → the new caption and its attention
// painted (budget 50 ms: the pointer event, the scene sent to the image Worker, drawn, encoded
// and captioned there, the answer applied and the frame painted), and a step click → the next
// word painted (budget 16 ms). A benchmark, not a test: it reports, it does not judge.
//
// Both are timed from the input event's timeStamp to the end of the first frame painted after the
// page shows the new state: a requestAnimationFrame callback queued then posts a MessageChannel
// message, which runs once that frame's style, layout and paint are done (as tests/bench/bench_page.mjs,
// whose notes on the click's wait for the next frame apply here too). For the steps the main
// thread's share (the click's handlers with Svelte's update, and that frame's rendering) is
// reported as well.
//
// usage: node tests/bench/bench_caption.mjs
import { launchBrowser } from '../e2e/browser.mjs';
import { serveBuild } from '../e2e/static-server.mjs';
import { emit } from './timer.mjs';

const section = 'Caption view in Chromium (scenes additive, a small circle above a large square)';
const objects = [
  { shape: 'circle', color: 'red', size: 'small', x: 16, y: 7 },
  { shape: 'square', color: 'blue', size: 'large', x: 14, y: 23 },
];
const key = (list) => list.map((o) => [o.shape, o.color, o.size, o.x, o.y].join('.')).join('_');
const hash = `#${new URLSearchParams({ view: 'caption', cap: 'additive', scene: key(objects) })}`;
const sorted = (xs) => [...xs].sort((a, b) => a - b);
const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];
const worst = (xs) => Math.max(...xs);
const MOVES = 40;
const STEPS = 40;

// Installed in the page: arms the timing of the next input event of `type`; resolves once the
// caption's `attribute` reads `value` and the frame after that is painted.
function instrument() {
  window.__arm = (type, attribute, value) =>
    new Promise((resolve) => {
      const m = {};
      const shown = document.querySelector('[data-testid=caption]');
      document.addEventListener(
        type,
        (event) => {
          m.input = event.timeStamp;
          m.start = performance.now();
        },
        { capture: true, once: true },
      );
      // after every listener of the event and the microtasks (Svelte's flush) each one queued
      window.addEventListener(type, () => (m.handled = performance.now()), { once: true });
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
      const observer = new MutationObserver(() => {
        const now = document.querySelector('[data-testid=caption]');
        if (now?.getAttribute(attribute) !== value) return;
        observer.disconnect();
        painted();
      });
      observer.observe(shown?.parentElement ?? document.body, {
        attributes: true,
        subtree: true,
        attributeFilter: [attribute],
      });
    });
}

const server = await serveBuild();
const browser = await launchBrowser();
try {
  const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
  await page.goto(server.url + hash);
  await page.waitForFunction(
    (k) => document.querySelector('[data-testid=caption]')?.dataset.scene === k,
    key(objects),
    {
      timeout: 30_000,
    },
  );
  await page.evaluate(instrument);

  // Drag: press on the circle, then move it one pixel at a time along its row and back, each
  // move waited for until painted.
  const box = await page.locator('[data-testid=scene-canvas]').boundingBox();
  if (!box) throw new Error('no scene canvas');
  const at = (x, y) => [box.x + ((x + 0.5) / 32) * box.width, box.y + ((y + 0.5) / 32) * box.height];
  const circle = { ...objects[0] };
  await page.mouse.move(...at(circle.x, circle.y));
  await page.mouse.down();
  const drags = [];
  let dx = 1;
  for (let i = 0; i < MOVES + 3; i++) {
    if (circle.x + dx > 28 || circle.x + dx < 4) dx = -dx;
    circle.x += dx;
    const expected = key([circle, objects[1]]);
    const done = page.evaluate((k) => window.__arm('pointermove', 'data-scene', k), expected);
    await page.mouse.move(...at(circle.x, circle.y));
    const m = await done;
    if (i >= 3) drags.push(m.painted - m.input); // the first moves warm up
  }
  await page.mouse.up();
  emit(section, `drag one pixel to new caption painted (median of ${MOVES})`, 'wasm', median(drags) * 1e6, 0);
  emit(section, `drag one pixel to new caption painted (worst of ${MOVES})`, 'wasm', worst(drags) * 1e6, 0);

  // Step clicks.
  const steps = [];
  const work = [];
  await page.locator('body').press('Home');
  for (let i = 0; i < STEPS + 3; i++) {
    if (await page.locator('[data-testid=caption-step]').isDisabled()) {
      await page.locator('body').press('Home');
      await page.waitForFunction(() => document.querySelector('[data-testid=caption]')?.dataset.step === '0');
    }
    const next = String(Number(await page.locator('[data-testid=caption]').getAttribute('data-step')) + 1);
    const done = page.evaluate((n) => window.__arm('click', 'data-step', n), next);
    await page.locator('[data-testid=caption-step]').click();
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
    `caption: drag→painted median ${ms(median(drags))}, worst ${ms(worst(drags))}; ` +
      `step→painted median ${ms(median(steps))}, worst ${ms(worst(steps))} (work median ${ms(median(work))})`,
  );
} finally {
  await browser.close();
  await server.close();
}
